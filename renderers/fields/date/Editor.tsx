/**
 * Date: a native date-and-time input in the person's own time zone, which it names (the zone the
 * browser guesses). The value is the instant as ISO text (`toISOString()`).
 *
 * A date with some parts blank (a segment cleared with Backspace) is no date: the browser then
 * reports the input empty while it still shows the other parts. That is held back as a problem,
 * so the page neither clears the stored date nor saves what the person did not see.
 */
import { useEffect, useRef, useState } from 'react';
import { useFormat } from '../../messages/use-format.ts';
import { describedByOf, useReportProblem } from '../editor-support.ts';
import { EditorMessages, messagesId } from '../EditorMessages.tsx';
import type { EditorProps } from '../editor-types.ts';
import { fromLocalInput, toLocalInput } from './local-input.ts';

export function DateEditor({ value, onChange, onBlur, error, disabled, required, id, describedBy, onProblem }: EditorProps) {
  const format = useFormat();
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const zoneId = `${id}-zone`;
  // The input's text, kept here so that a half-filled input is not reset to the stored value.
  const [text, setText] = useState(() => toLocalInput(value));
  const [partial, setPartial] = useState(false);
  // The value last emitted: a different one coming back was set from outside (reset, duplicate).
  const emitted = useRef<unknown>(value);
  useEffect(() => {
    if (value === emitted.current) return;
    emitted.current = value;
    setText(toLocalInput(value));
    setPartial(false);
  }, [value]);
  const problem = partial ? format('editor.date.incomplete') : undefined;
  useReportProblem(onProblem, problem);
  const messages = [problem, error];
  const invalid = messages.some(Boolean);
  const read = (input: HTMLInputElement) => {
    // `badInput`: some parts filled, some not; the value reads '' then.
    const incomplete = input.validity.badInput;
    setPartial(incomplete);
    setText(input.value);
    if (incomplete) return;
    const next = fromLocalInput(input.value);
    emitted.current = next;
    onChange(next);
  };
  return (
    <div className="editor editor-date">
      <div className="editor-date-row">
        <input
          id={id}
          className="input editor-date-input"
          type="datetime-local"
          step={1}
          value={text}
          disabled={disabled}
          aria-required={required || undefined}
          aria-invalid={invalid || undefined}
          aria-describedby={describedByOf(describedBy, zoneId, invalid && messagesId(id))}
          onChange={(event) => read(event.currentTarget)}
          // Going from one blank part to another leaves the value '' and fires no change: read it on leaving.
          onInput={(event) => setPartial(event.currentTarget.validity.badInput)}
          onBlur={(event) => {
            setPartial(event.currentTarget.validity.badInput);
            onBlur?.();
          }}
        />
        <span id={zoneId} className="editor-zone">
          {format('editor.date.timeZone', { zone })}
        </span>
      </div>
      <EditorMessages id={messagesId(id)} messages={messages} />
    </div>
  );
}
