/**
 * The editor of types whose editing arrives with their own issue (images, files, rich text, map
 * locations): the value drawn by the type's display, named by the field's label.
 */
import { fieldType } from '../../definitions/field-types/index.ts';
import { useFormat } from '../messages/use-format.ts';
import { displayFor } from './displays.ts';
import { describedByOf } from './editor-support.ts';
import { EditorMessages, messagesId } from './EditorMessages.tsx';
import type { EditorProps } from './editor-types.ts';

export function ReadOnlyEditor({ field, value, error, id, labelledBy, describedBy }: EditorProps) {
  const format = useFormat();
  const Display = displayFor(field);
  const empty = fieldType(field.type)?.isEmpty(value) ?? (value === null || value === undefined);
  return (
    <div className="editor-readonly-wrap">
      <div id={id} className="editor-readonly" role="group" aria-labelledby={labelledBy} aria-describedby={describedByOf(describedBy, error && messagesId(id))}>
        {empty ? <span className="editor-muted">{format('editor.notSet')}</span> : <Display value={value} field={field} />}
      </div>
      <EditorMessages id={messagesId(id)} messages={[error]} />
    </div>
  );
}
