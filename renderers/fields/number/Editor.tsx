/**
 * Number: only digits and one dot (and a leading minus) get into the field; anything else is
 * refused as it is typed with "Value must be a number". Emitted as a number.
 */
import { useEffect, useRef, useState } from 'react';
import { useFormat } from '../../messages/use-format.ts';
import { describedByOf, useReportProblem } from '../editor-support.ts';
import { EditorMessages, messagesId } from '../EditorMessages.tsx';
import type { EditorProps } from '../editor-types.ts';

/** What the field lets through while typing: a numeral, possibly unfinished ("-", "1."). */
const typing = /^-?\d*\.?\d*$/;
/** A finished numeral. */
const numeral = /^-?(\d+\.?\d*|\.\d+)$/;

const textOf = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) ? String(value) : '');

export function NumberEditor({ value, onChange, onBlur, error, disabled, required, id, describedBy, onProblem }: EditorProps) {
  const format = useFormat();
  const [text, setText] = useState(() => textOf(value));
  const [refused, setRefused] = useState(false);
  // The value last emitted: a different one coming back was set from outside (reset, duplicate).
  const emitted = useRef<unknown>(value);
  useEffect(() => {
    if (value === emitted.current) return;
    emitted.current = value;
    setText(textOf(value));
  }, [value]);
  const unfinished = text !== '' && !numeral.test(text);
  // So many digits that the numeral is past the largest number (it would be sent as null).
  const tooLarge = !unfinished && text !== '' && !Number.isFinite(Number(text));
  const problem = unfinished ? format('editor.number.invalid') : tooLarge ? format('editor.number.tooLarge') : undefined;
  useReportProblem(onProblem, problem);
  const messages = [refused || unfinished ? format('editor.number.invalid') : undefined, tooLarge ? problem : undefined, error];
  const invalid = messages.some(Boolean);
  const emit = (next: unknown) => {
    emitted.current = next;
    onChange(next);
  };
  return (
    <div className="editor editor-number">
      <input
        id={id}
        className="input"
        type="text"
        inputMode="decimal"
        autoComplete="off"
        value={text}
        disabled={disabled}
        aria-required={required || undefined}
        aria-invalid={invalid || undefined}
        aria-describedby={describedByOf(describedBy, invalid && messagesId(id))}
        onChange={(event) => {
          const next = event.target.value.trim();
          if (!typing.test(next)) {
            setRefused(true);
            return;
          }
          setRefused(false);
          setText(next);
          if (next === '') emit(null);
          else if (numeral.test(next) && Number.isFinite(Number(next))) emit(Number(next));
        }}
        onBlur={() => {
          setRefused(false);
          onBlur?.();
        }}
      />
      <EditorMessages id={messagesId(id)} messages={messages} />
    </div>
  );
}
