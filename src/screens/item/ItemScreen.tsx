/**
 * The item page's routes (content §2): addItemToCollection (a new item, maybe a duplicate's copy
 * handed over in the navigation's state), viewItem and nestedItem. Each navigation draws a fresh
 * form, so a saved new item, a duplicate or another item starts from its own values.
 */
import { useLocation, useParams } from 'react-router';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import type { ItemValues } from '../../../machines/item-form-rules.ts';
import { useCollection } from '../../api/content-queries.ts';
import { isApiError } from '../../api/errors.ts';
import { useProjectScope } from '../collection/use-project-scope.ts';
import { nestedFields } from '../items/nested-path.ts';
import { ItemFormPage, type NestedPlace } from './ItemFormPage.tsx';
import { newNestedItemID } from './new-nested-item.ts';

/** What a navigation to a new item may carry: the values to start from (Duplicate). */
interface NewItemState {
  itemValues?: ItemValues;
  markedChanged?: boolean;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export default function ItemScreen() {
  const format = useFormat();
  const scope = useProjectScope();
  const location = useLocation();
  const { collectionID = '', itemID, nestedID, collectionNestedID } = useParams();
  const query = useCollection(scope, collectionID);
  if (!query.data) {
    if (query.isError) {
      const notFound = isApiError(query.error) && query.error.status === 404;
      return (
        <section className="panel" aria-labelledby="item-missing">
          <h2 id="item-missing">{format(notFound ? 'collectionSettings.notFound' : 'collectionSettings.loadFailed')}</h2>
        </section>
      );
    }
    return (
      <p className="muted" role="status">
        {format('item.loading')}
      </p>
    );
  }
  const collection = query.data;

  // nestedItem: {itemID} is the top-level item, {nestedID} the nested list, {collectionNestedID} the item shown (`new`: one to create).
  if (nestedID && itemID && collectionNestedID) {
    const field = nestedFields(collection.schema, nestedID)?.at(-1);
    if (!field) {
      return (
        <section className="panel" aria-labelledby="item-missing">
          <h2 id="item-missing">{format('collectionSettings.notFound')}</h2>
        </section>
      );
    }
    const nested: NestedPlace = { parentItemID: itemID, listNestedID: nestedID };
    const view = { ...collection, name: field.name, singleItem: false };
    const nestedItemID = collectionNestedID === newNestedItemID ? null : collectionNestedID;
    return <ItemFormPage key={location.key} scope={scope} collection={view} schema={field.nestedCollectionSchema ?? []} itemID={nestedItemID} nested={nested} />;
  }

  const state: NewItemState = isRecord(location.state) ? (location.state as NewItemState) : {};
  const initialValues = !itemID && isRecord(state.itemValues) ? state.itemValues : undefined;
  return (
    <ItemFormPage
      key={location.key}
      scope={scope}
      collection={collection}
      schema={collection.schema}
      itemID={itemID ?? null}
      initialValues={initialValues}
      markedChanged={!itemID && state.markedChanged === true}
    />
  );
}
