/**
 * Bool: a switch with a third, indeterminate position for "not set", which shows
 * neither on nor off. Drawn on radix Checkbox, the primitive that has that state
 * (`aria-checked="mixed"`); Space toggles it, and once set it is on or off. A field with a default
 * (`defaultValue`) starts a new item in that position instead.
 */
import { Checkbox } from 'radix-ui';
import { useFormat } from '../../messages/use-format.ts';
import { useEditorEnvironment } from '../editor-environment.ts';
import { describedByOf } from '../editor-support.ts';
import { EditorMessages, messagesId } from '../EditorMessages.tsx';
import type { EditorProps } from '../editor-types.ts';

export function BoolEditor({ field, value, onChange, onBlur, error, disabled, id, labelledBy, describedBy }: EditorProps) {
  const format = useFormat();
  const { item } = useEditorEnvironment();
  // A new item created without touching the switch is stored with the field's default (the server
  // applies it), so that is what the switch shows; a saved item's unset value stays "not set".
  const shown = value === undefined && !item && typeof field.defaultValue === 'boolean' ? field.defaultValue : value;
  const checked = shown === true ? true : shown === false ? false : 'indeterminate';
  const stateText = format(shown === true ? 'display.true' : shown === false ? 'display.false' : 'editor.notSet');
  return (
    <div className="editor editor-bool">
      <div className="editor-bool-row">
        <Checkbox.Root
          id={id}
          className="switch editor-switch"
          checked={checked}
          disabled={disabled}
          aria-labelledby={labelledBy}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedByOf(describedBy, error && messagesId(id))}
          onCheckedChange={(next) => onChange(next === true)}
          onBlur={onBlur}
        >
          <span className="switch-thumb" aria-hidden="true" />
        </Checkbox.Root>
        {/* The state is aria-checked; the words are for the eye. */}
        <span className="editor-bool-state" aria-hidden="true">
          {stateText}
        </span>
      </div>
      <EditorMessages id={messagesId(id)} messages={[error]} />
    </div>
  );
}
