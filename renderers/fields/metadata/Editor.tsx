/**
 * Metadata: a read-only panel of the item's id and dates, "Not Set" for a date it lacks.
 * Its value is the item's system keys; without one, the environment's saved item is read.
 */
import { formatDateTime } from '../../../definitions/format-date-time.ts';
import { isPlainObject } from '../../../definitions/field-types/support.ts';
import { useFormat } from '../../messages/use-format.ts';
import { CopyLinkButton } from '../CopyLinkButton.tsx';
import { describedByOf } from '../editor-support.ts';
import { useEditorEnvironment } from '../editor-environment.ts';
import type { EditorProps } from '../editor-types.ts';

const textOf = (value: unknown) => (typeof value === 'string' ? value : '');

export function MetadataEditor({ value, id, labelledBy, describedBy }: EditorProps) {
  const format = useFormat();
  const { item } = useEditorEnvironment();
  const source: Record<string, unknown> = isPlainObject(value) ? value : (item ?? {});
  const itemID = textOf(source._id);
  const date = (key: '_createdDate' | '_lastUpdatedDate') => {
    const raw = source[key];
    const text = typeof raw === 'string' || typeof raw === 'number' ? formatDateTime(raw) : '';
    return text ? <time dateTime={String(raw)}>{text}</time> : format('metadata.notSet');
  };
  return (
    <div id={id} className="editor editor-metadata" role="group" aria-labelledby={labelledBy} aria-describedby={describedByOf(describedBy)}>
      <dl className="editor-metadata-list">
        <div>
          <dt>{format('editor.metadata.id')}</dt>
          <dd className="editor-metadata-id">
            {itemID ? (
              <>
                <code>{itemID}</code>
                <CopyLinkButton value={itemID} label={format('editor.metadata.copyId')} />
              </>
            ) : (
              format('metadata.notSet')
            )}
          </dd>
        </div>
        <div>
          <dt>{format('editor.metadata.created')}</dt>
          <dd>{date('_createdDate')}</dd>
        </div>
        <div>
          <dt>{format('editor.metadata.updated')}</dt>
          <dd>{date('_lastUpdatedDate')}</dd>
        </div>
      </dl>
    </div>
  );
}
