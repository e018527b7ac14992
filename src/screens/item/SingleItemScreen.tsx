/**
 * A single-item collection's page: the form of its one item, or a new
 * item's form (Create enabled without changes) while it has none. After saving or deleting here,
 * the view reads its item again and shows it.
 */
import { useState } from 'react';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import type { Collection, ProjectScope } from '../../api/content.ts';
import { useSingleItem } from '../../api/content-queries.ts';
import { ItemFormPage } from './ItemFormPage.tsx';

export function SingleItemScreen({ scope, collection }: { scope: ProjectScope; collection: Collection }) {
  const format = useFormat();
  const query = useSingleItem(scope, collection.id);
  // Bumped to draw a fresh form once the item has been read again.
  const [round, setRound] = useState(0);
  if (query.data === undefined) {
    if (query.isError) {
      return (
        <section className="panel" role="alert">
          <p>{format('item.loadFailed')}</p>
          <button type="button" className="button" onClick={() => void query.refetch()}>
            {format('itemList.retry')}
          </button>
        </section>
      );
    }
    return (
      <p className="muted" role="status">
        {format('item.loading')}
      </p>
    );
  }
  const itemID = query.data?._id ?? null;
  return (
    <ItemFormPage
      key={`${itemID ?? 'new'}:${round}`}
      scope={scope}
      collection={collection}
      schema={collection.schema}
      itemID={itemID}
      singleView
      onShowSingleItem={() => void query.refetch().finally(() => setRound((n) => n + 1))}
    />
  );
}
