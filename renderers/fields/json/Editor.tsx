/**
 * JSON: a text editor that says whether its text is Valid or Not Valid JSON. Only
 * valid JSON the field can store is emitted; broken text stays in the editor as a problem.
 */
import { useEffect, useRef, useState } from 'react';
import { fieldType } from '../../../definitions/field-types/index.ts';
import { useFormat } from '../../messages/use-format.ts';
import { describedByOf, useReportProblem } from '../editor-support.ts';
import { EditorMessages, messagesId } from '../EditorMessages.tsx';
import type { EditorProps } from '../editor-types.ts';

const textOf = (value: unknown) => (value === null || value === undefined ? '' : JSON.stringify(value, null, 2));

type Parsed = { ok: true; value: unknown } | { ok: false };

export function JsonEditor({ field, value, onChange, onBlur, error, disabled, required, id, describedBy, onProblem }: EditorProps) {
  const format = useFormat();
  const [text, setText] = useState(() => textOf(value));
  const emitted = useRef<unknown>(value);
  useEffect(() => {
    if (value === emitted.current) return;
    emitted.current = value;
    setText(textOf(value));
  }, [value]);
  const parse = (source: string): Parsed => {
    try {
      const parsed: unknown = JSON.parse(source);
      // Valid JSON the type still refuses (too large, a NUL character) is not a value either.
      const check = fieldType(field.type)?.validate(parsed, field);
      return check && !check.ok ? { ok: false } : { ok: true, value: parsed };
    } catch {
      return { ok: false };
    }
  };
  const blank = text.trim() === '';
  const valid = blank || parse(text).ok;
  useReportProblem(onProblem, valid ? undefined : format('editor.json.invalid'));
  const statusId = `${id}-status`;
  return (
    <div className="editor editor-json">
      <textarea
        id={id}
        className="input textarea input-mono editor-json-text"
        rows={6}
        spellCheck={false}
        value={text}
        disabled={disabled}
        aria-required={required || undefined}
        aria-invalid={!valid || error ? true : undefined}
        aria-describedby={describedByOf(describedBy, !blank && statusId, error && messagesId(id))}
        onChange={(event) => {
          const next = event.target.value;
          setText(next);
          if (next.trim() === '') {
            emitted.current = null;
            onChange(null);
            return;
          }
          const parsed = parse(next);
          if (!parsed.ok) return;
          emitted.current = parsed.value;
          onChange(parsed.value);
        }}
        onBlur={onBlur}
      />
      {blank ? null : (
        <span id={statusId} className={valid ? 'editor-status editor-status-ok' : 'editor-status editor-status-bad'}>
          {format(valid ? 'editor.json.valid' : 'editor.json.invalid')}
        </span>
      )}
      <EditorMessages id={messagesId(id)} messages={[error]} />
    </div>
  );
}
