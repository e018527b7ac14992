/** Phone: reduced to its digits as it is typed (content §5); letters never get into the field. */
import { useState } from 'react';
import { contentLimits } from '../../../definitions/content.ts';
import { useFormat } from '../../messages/use-format.ts';
import { describedByOf } from '../editor-support.ts';
import { EditorMessages, messagesId } from '../EditorMessages.tsx';
import type { EditorProps } from '../editor-types.ts';

export function PhoneEditor({ value, onChange, onBlur, error, disabled, required, id, describedBy }: EditorProps) {
  const format = useFormat();
  const text = typeof value === 'string' ? value : '';
  const [dropped, setDropped] = useState(false);
  const messages = [dropped ? format('editor.phone.digitsOnly') : undefined, error];
  const invalid = Boolean(error);
  return (
    <div className="editor editor-phone">
      <input
        id={id}
        className="input"
        type="tel"
        inputMode="numeric"
        autoComplete="off"
        value={text}
        disabled={disabled}
        aria-required={required || undefined}
        aria-invalid={invalid || undefined}
        aria-describedby={describedByOf(describedBy, messages.some(Boolean) && messagesId(id))}
        onChange={(event) => {
          const typed = event.target.value;
          const digits = typed.replace(/\D/g, '').slice(0, contentLimits.phoneDigitsMax);
          // Said until the field is left, so a quick typist still sees why a key did nothing.
          if (digits !== typed) setDropped(true);
          onChange(digits === '' ? null : digits);
        }}
        onBlur={() => {
          setDropped(false);
          onBlur?.();
        }}
      />
      <EditorMessages id={messagesId(id)} messages={messages} />
    </div>
  );
}
