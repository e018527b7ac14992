/**
 * Phone: kept as its digits, typed as people write numbers. Digits, spaces and
 * + ( ) - . are taken and stay as typed (also after leaving the field); the value is the digits.
 * Anything else typed changes nothing. What the editor has to say (the digits that are saved, a
 * refused key) goes in one note line that is always there, so the page never moves under the
 * pointer while typing (docs/files.md, "Phone numbers").
 */
import { useEffect, useRef, useState } from 'react';
import { contentLimits } from '../../../definitions/content.ts';
import { useFormat } from '../../messages/use-format.ts';
import { describedByOf } from '../editor-support.ts';
import { EditorMessages, messagesId } from '../EditorMessages.tsx';
import type { EditorProps } from '../editor-types.ts';

/** The characters a phone number is written with. */
const written = /^[0-9+().\- ]*$/;

const digitsOf = (text: string) => text.replace(/\D/g, '');
const textOf = (value: unknown) => (typeof value === 'string' ? value : '');

export function PhoneEditor({ value, onChange, onBlur, error, disabled, required, id, describedBy }: EditorProps) {
  const format = useFormat();
  const [text, setText] = useState(() => textOf(value));
  const [refused, setRefused] = useState(false);
  // The value last emitted: a different one coming back was set from outside (load, reset, duplicate).
  const emitted = useRef<unknown>(value);
  useEffect(() => {
    if (value === emitted.current || (value ?? null) === (emitted.current ?? null)) return;
    emitted.current = value;
    setText(textOf(value));
    setRefused(false);
  }, [value]);
  const digits = digitsOf(text);
  const note = refused ? format('editor.phone.digitsOnly') : digits !== '' && digits !== text ? format('editor.phone.savedAs', { digits }) : '';
  const noteId = `${id}-note`;
  const invalid = Boolean(error);
  return (
    <div className="editor editor-phone">
      <input
        id={id}
        className="input"
        type="tel"
        inputMode="tel"
        autoComplete="off"
        value={text}
        disabled={disabled}
        aria-required={required || undefined}
        aria-invalid={invalid || undefined}
        aria-describedby={describedByOf(describedBy, note && noteId, invalid && messagesId(id))}
        onChange={(event) => {
          const typed = event.target.value;
          // A key outside the written characters, or a digit past the most a number holds, does nothing.
          // The refusal is said until the field is left, so a quick typist still sees why a key did nothing.
          if (!written.test(typed) || digitsOf(typed).length > contentLimits.phoneDigitsMax) {
            if (!written.test(typed)) setRefused(true);
            return;
          }
          setText(typed);
          const next = digitsOf(typed) || null;
          if (next === (emitted.current ?? null)) return;
          emitted.current = next;
          onChange(next);
        }}
        onBlur={() => {
          setRefused(false);
          onBlur?.();
        }}
      />
      {/* Always rendered (one line high even when empty), so a note never pushes the page down. */}
      <p id={noteId} className="field-help editor-phone-note" aria-live="polite">
        {note}
      </p>
      <EditorMessages id={messagesId(id)} messages={[error]} />
    </div>
  );
}
