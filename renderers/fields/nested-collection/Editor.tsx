/**
 * NestedCollection: nested items are written through their own calls, never in the item's value,
 * so the editor only says how many there are and opens them (the page folds them out, content §2).
 * It explains why it cannot yet: no nested schema, or an item not saved yet.
 */
import { FolderOpen } from 'lucide-react';
import { fieldType } from '../../../definitions/field-types/index.ts';
import { useFormat } from '../../messages/use-format.ts';
import { describedByOf } from '../editor-support.ts';
import { useEditorEnvironment } from '../editor-environment.ts';
import type { EditorProps } from '../editor-types.ts';

export function NestedCollectionEditor({ field, value, disabled, id, labelledBy, describedBy }: EditorProps) {
  const format = useFormat();
  const { item, onOpenNested } = useEditorEnvironment();
  // The metadata entry alone is no schema (content §2).
  const hasSchema = (field.nestedCollectionSchema ?? []).some((nested) => fieldType(nested.type)?.capabilities.creatable);
  const reason = !hasSchema ? format('editor.nested.noSchema') : !item ? format('editor.nested.saveFirst') : undefined;
  const count = Array.isArray(value) ? value.length : undefined;
  return (
    <div id={id} className="editor editor-nested" role="group" aria-labelledby={labelledBy} aria-describedby={describedByOf(describedBy)}>
      {reason ? (
        <p className="field-help">{reason}</p>
      ) : (
        <div className="editor-nested-row">
          {count === undefined ? null : <span>{format('editor.nested.count', { count })}</span>}
          {onOpenNested ? (
            <button type="button" className="button button-small" disabled={disabled} onClick={() => onOpenNested(field)}>
              <FolderOpen aria-hidden="true" size={16} />
              {format('editor.nested.open', { name: field.name })}
            </button>
          ) : null}
        </div>
      )}
    </div>
  );
}
