/**
 * The item page's routes: addItemToCollection (a new item, maybe a duplicate's copy
 * handed over in the navigation's state), and viewItem with its nested collections folded out
 * beside it (viewNestedCollection, nestedItem: ItemFold). A new item's form is fresh on every
 * navigation; an item's form lives as long as the item is open.
 */
import { useLocation, useParams } from 'react-router';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import type { ItemValues } from '../../../machines/item-form-rules.ts';
import { useCollection } from '../../api/content-queries.ts';
import { isApiError } from '../../api/errors.ts';
import { useProjectScope } from '../collection/use-project-scope.ts';
import { ItemFold } from './ItemFold.tsx';
import { ItemFormPage } from './ItemFormPage.tsx';

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

  // viewItem, and under it viewNestedCollection and nestedItem: the item with its nested
  // collections folded out. Keyed by the item only, so opening and closing its nested collections
  // (other addresses under it) keeps its form, and its unsaved changes.
  if (itemID) {
    return <ItemFold key={`item:${itemID}`} scope={scope} collection={collection} itemID={itemID} nestedID={nestedID} collectionNestedID={collectionNestedID} />;
  }

  // addItemToCollection: each navigation draws a fresh form (a duplicate's copy, another new item).
  const state: NewItemState = isRecord(location.state) ? (location.state as NewItemState) : {};
  const initialValues = isRecord(state.itemValues) ? state.itemValues : undefined;
  return (
    <ItemFormPage
      key={location.key}
      scope={scope}
      collection={collection}
      schema={collection.schema}
      itemID={null}
      initialValues={initialValues}
      markedChanged={state.markedChanged === true}
    />
  );
}
