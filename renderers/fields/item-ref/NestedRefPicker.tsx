/**
 * The nested-reference picker: under one linked item, the items of one of its nested collections
 * to link as well. At least one must be chosen ("you must select at least one item").
 */
import { useId } from 'react';
import { paging } from '../../../definitions/constants.ts';
import type { SchemaField } from '../../../definitions/field-types/index.ts';
import type { ProjectScope } from '../../../src/api/content.ts';
import { useItemList } from '../../../src/api/content-queries.ts';
import { useFormat } from '../../messages/use-format.ts';
import type { LinkedItemRef } from '../editor-environment.ts';
import { itemTitle } from './item-title.ts';

export interface NestedRefPickerProps {
  scope: ProjectScope;
  /** The referenced collection. */
  collectionID: string;
  parent: LinkedItemRef;
  /** The nested collection's field in the referenced collection (its slug, name and schema). */
  nestedField: Pick<SchemaField, 'slug' | 'name' | 'nestedCollectionSchema'>;
  selected: readonly LinkedItemRef[];
  onSelected(refs: LinkedItemRef[]): void;
  disabled?: boolean | undefined;
}

export function NestedRefPicker({ scope, collectionID, parent, nestedField, selected, onSelected, disabled }: NestedRefPickerProps) {
  const format = useFormat();
  const messageId = useId();
  const list = useItemList(scope, collectionID, { parentItemID: parent.itemRefID, nestedID: nestedField.slug, perPage: paging.nestedPageSize });
  const items = list.data?.items ?? [];
  const chosen = new Set(selected.map((ref) => ref.itemRefID));
  const empty = selected.length === 0;
  const legend = format('editor.nestedRef.group', { collection: nestedField.name, item: parent.value || parent.itemRefID });
  return (
    <fieldset className="choices editor-nested-ref" aria-describedby={empty ? messageId : undefined} aria-busy={list.isPending || undefined}>
      <legend className="field-label">{legend}</legend>
      {list.isPending ? <span className="field-help">{format('editor.nestedRef.loading')}</span> : null}
      {list.isSuccess && items.length === 0 ? (
        <span className="field-help">{format('editor.nestedRef.empty', { item: parent.value || parent.itemRefID, collection: nestedField.name })}</span>
      ) : null}
      {items.map((item) => {
        const title = itemTitle(nestedField.nestedCollectionSchema, item);
        return (
          <label key={item._id} className="choice">
            <input
              type="checkbox"
              checked={chosen.has(item._id)}
              disabled={disabled}
              onChange={(event) =>
                onSelected(event.target.checked ? [...selected, { itemRefID: item._id, value: title }] : selected.filter((ref) => ref.itemRefID !== item._id))
              }
            />
            {title}
          </label>
        );
      })}
      {empty ? (
        <p id={messageId} className="field-error">
          {format('editor.nestedRef.required')}
        </p>
      ) : null}
    </fieldset>
  );
}
