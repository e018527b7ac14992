/**
 * Date: a native date-and-time input in the person's own time zone, which it names (the zone the
 * browser guesses, content §2). The value is the instant as ISO text (`toISOString()`).
 */
import { useFormat } from '../../messages/use-format.ts';
import { describedByOf } from '../editor-support.ts';
import { EditorMessages, messagesId } from '../EditorMessages.tsx';
import type { EditorProps } from '../editor-types.ts';
import { fromLocalInput, toLocalInput } from './local-input.ts';

export function DateEditor({ value, onChange, onBlur, error, disabled, required, id, describedBy }: EditorProps) {
  const format = useFormat();
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const zoneId = `${id}-zone`;
  return (
    <div className="editor editor-date">
      <div className="editor-date-row">
        <input
          id={id}
          className="input editor-date-input"
          type="datetime-local"
          step={1}
          value={toLocalInput(value)}
          disabled={disabled}
          aria-required={required || undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedByOf(describedBy, zoneId, error && messagesId(id))}
          onChange={(event) => onChange(fromLocalInput(event.target.value))}
          onBlur={onBlur}
        />
        <span id={zoneId} className="editor-zone">
          {format('editor.date.timeZone', { zone })}
        </span>
      </div>
      <EditorMessages id={messagesId(id)} messages={[error]} />
    </div>
  );
}
