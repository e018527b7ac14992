/**
 * PlainText: text within the field's min and max characters, with a counter. What is
 * typed or pasted past the maximum is not taken (the text already there is kept whole); text under
 * the minimum is held as a problem, not refused.
 */
import { useState } from 'react';
import { contentLimits } from '../../../definitions/content.ts';
import { characterCount } from '../../../definitions/field-types/support.ts';
import { useFormat } from '../../messages/use-format.ts';
import { describedByOf, useReportProblem } from '../editor-support.ts';
import { limitEdit } from '../limit-edit.ts';
import { EditorMessages, messagesId } from '../EditorMessages.tsx';
import type { EditorProps } from '../editor-types.ts';

export function PlainTextEditor({ field, value, onChange, onBlur, error, disabled, required, id, describedBy, onProblem }: EditorProps) {
  const format = useFormat();
  const text = typeof value === 'string' ? value : '';
  const min = typeof field.min === 'number' ? field.min : 0;
  const max = typeof field.max === 'number' ? Math.min(field.max, contentLimits.plainTextMax) : contentLimits.plainTextMax;
  const count = characterCount(text);
  const [cut, setCut] = useState(false);
  const [touched, setTouched] = useState(false);
  const tooShort = text !== '' && count < min ? format('editor.text.tooShort', { min }) : undefined;
  useReportProblem(onProblem, tooShort);
  const counterId = `${id}-count`;
  // Too short is said once the person leaves the field, not at their first keystroke.
  const messages = [cut ? format('editor.text.limit', { max }) : undefined, touched ? tooShort : undefined, error];
  const invalid = messages.some(Boolean);
  return (
    <div className="editor editor-text">
      <textarea
        id={id}
        className="input textarea editor-plain-text"
        rows={1}
        value={text}
        disabled={disabled}
        aria-required={required || undefined}
        aria-invalid={invalid || undefined}
        aria-describedby={describedByOf(describedBy, counterId, invalid && messagesId(id))}
        onChange={(event) => {
          const kept = limitEdit(text, event.target.value, max);
          setCut(kept !== event.target.value);
          onChange(kept === '' ? null : kept);
        }}
        onBlur={() => {
          setTouched(true);
          onBlur?.();
        }}
      />
      <span id={counterId} className="editor-counter">
        {format('editor.text.count', { count, max })}
      </span>
      <EditorMessages id={messagesId(id)} messages={messages} />
    </div>
  );
}
