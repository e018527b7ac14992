/**
 * NestedCollection: nested items are written through their own calls, never in the item's value,
 * so the editor shows them and opens them (the page folds them out beside the item):
 * a preview table of the nested items, 10 per page, `_rank` descending, at most 600 px high,
 * each column drawn by its field's display renderer, and the open button.
 * It explains why it cannot yet: no nested schema, or an item not saved yet.
 */
import { useEffect, useId, useState } from 'react';
import { ChevronLeft, ChevronRight, FolderOpen } from 'lucide-react';
import { paging } from '../../../definitions/constants.ts';
import { fieldType, textField, type SchemaField } from '../../../definitions/field-types/index.ts';
import type { ListParams, ProjectScope } from '../../../src/api/content.ts';
import { useItemList } from '../../../src/api/content-queries.ts';
import { displayFor } from '../displays.ts';
import { useFormat } from '../../messages/use-format.ts';
import { describedByOf } from '../editor-support.ts';
import { useEditorEnvironment } from '../editor-environment.ts';
import type { EditorProps } from '../editor-types.ts';
import { nestedListID, useNestedPlace, type NestedPlaceOfItem } from './nested-place.ts';
import './nested-collection.css';

/** The metadata entry alone is no schema: a field that keeps values of its own is needed. */
export const hasNestedSchema = (field: SchemaField) => (field.nestedCollectionSchema ?? []).some((nested) => fieldType(nested.type)?.capabilities.creatable);

/** The preview's columns: the nested fields a list shows as columns, else the id. */
export function previewColumns(field: SchemaField): SchemaField[] {
  const columns = (field.nestedCollectionSchema ?? []).filter((nested) => nested.visible !== false && fieldType(nested.type)?.storage.kind === 'column');
  return columns.length > 0 ? columns : [textField('_id', 'ID')];
}

export function NestedCollectionEditor({ field, value, disabled, id, labelledBy, describedBy }: EditorProps) {
  const format = useFormat();
  const { scope, item, onOpenNested } = useEditorEnvironment();
  const place = useNestedPlace();
  const reason = !hasNestedSchema(field) ? format('editor.nested.noSchema') : !item ? format('editor.nested.saveFirst') : undefined;
  // Outside the item page (no place to read the nested list from) the value may still carry the items (`projectOn`).
  const count = !place && Array.isArray(value) ? value.length : undefined;
  return (
    <div id={id} className="editor editor-nested" role="group" aria-labelledby={labelledBy} aria-describedby={describedByOf(describedBy)}>
      {reason ? (
        <p className="field-help">{reason}</p>
      ) : (
        <>
          {scope && place ? <NestedPreview scope={scope} place={place} field={field} /> : null}
          {onOpenNested || count !== undefined ? (
            <div className="editor-nested-row">
              {count === undefined ? null : <span>{format('editor.nested.count', { count })}</span>}
              {onOpenNested ? (
                <button type="button" className="button button-small" disabled={disabled} onClick={() => onOpenNested(field)}>
                  <FolderOpen aria-hidden="true" size={16} />
                  {format('editor.nested.open', { name: field.name })}
                </button>
              ) : null}
            </div>
          ) : null}
        </>
      )}
    </div>
  );
}

function NestedPreview({ scope, place, field }: { scope: ProjectScope; place: NestedPlaceOfItem; field: SchemaField }) {
  const format = useFormat();
  const captionId = useId();
  const [page, setPage] = useState(1);
  const perPage = paging.nestedPreviewPageSize;
  const params: ListParams = {
    parentItemID: place.parentItemID,
    nestedID: nestedListID(place, field.slug),
    pageNumber: page,
    perPage,
    sort: '_rank',
    order: 'desc',
  };
  const query = useItemList(scope, place.collectionID, params);
  const columns = previewColumns(field);
  const total = query.data?.total;
  // Items deleted from the last page: show the page that is now the last.
  useEffect(() => {
    if (total === undefined) return;
    const last = Math.max(1, Math.ceil(total / perPage));
    if (page > last) setPage(last);
  }, [total, page, perPage]);

  if (query.isError && !query.data) {
    return (
      <div className="callout-error nested-preview-problem" role="alert">
        <p>{format('editor.nested.loadFailed', { name: field.name })}</p>
        <button type="button" className="button button-small" onClick={() => void query.refetch()}>
          {format('editor.nested.retry')}
        </button>
      </div>
    );
  }
  if (!query.data) {
    return (
      <p className="muted" role="status">
        {format('editor.nested.loading', { name: field.name })}
      </p>
    );
  }
  const { items } = query.data;
  const pages = Math.max(1, Math.ceil(query.data.total / perPage));
  if (query.data.total === 0) return <p className="muted nested-preview-empty">{format('editor.nested.empty', { name: field.name })}</p>;
  return (
    <div className="nested-preview">
      {/* Scrolls inside at most 600 px; focusable so the keyboard can scroll it. */}
      <div className="nested-preview-scroll" style={{ maxHeight: paging.nestedPreviewMaxHeightPx }} tabIndex={0} role="region" aria-labelledby={captionId}>
        <table className="nested-preview-table">
          <caption id={captionId} className="nested-preview-caption">
            {format('editor.nested.count', { count: query.data.total })}
          </caption>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column.slug} scope="col">
                  {column.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {items.map((row) => (
              <tr key={row._id}>
                {columns.map((column) => {
                  const Display = displayFor(column);
                  return (
                    <td key={column.slug}>
                      <Display value={row[column.slug]} field={column} />
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {pages > 1 ? (
        <nav className="nested-preview-pages" aria-label={format('editor.nested.pages', { name: field.name })}>
          <button type="button" className="icon-button" aria-label={format('editor.nested.previous')} disabled={page <= 1} onClick={() => setPage(page - 1)}>
            <ChevronLeft aria-hidden="true" size={18} />
          </button>
          <span className="muted">{format('editor.nested.page', { page, pages })}</span>
          <button type="button" className="icon-button" aria-label={format('editor.nested.next')} disabled={page >= pages} onClick={() => setPage(page + 1)}>
            <ChevronRight aria-hidden="true" size={18} />
          </button>
        </nav>
      ) : null}
    </div>
  );
}
