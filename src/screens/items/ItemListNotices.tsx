/**
 * The list's notices above the toolbar: the CSV download's progress, new items announced by live
 * data, and a live data stream that gave up.
 */
import { useId } from 'react';
import type { CsvProgress } from '../../../machines/item-list.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import type { useLiveData } from '../../hooks/use-live-data.ts';

export function ItemListNotices({ csv, live }: { csv: CsvProgress | null; live: ReturnType<typeof useLiveData> }) {
  const format = useFormat();
  const id = useId();
  const rows = csv && csv.total !== null ? Math.min(csv.rows, csv.total) : undefined;
  return (
    <>
      {csv ? (
        <div className="csv-progress" role="status">
          <label htmlFor={`${id}-csv`}>{csv.total === null ? format('itemList.downloading') : format('itemList.downloadProgress', { rows, total: csv.total })}</label>
          <progress id={`${id}-csv`} max={csv.total ?? undefined} value={rows} />
        </div>
      ) : null}
      {live.newItemsAvailable ? (
        <div className="callout-info live-alert" role="status">
          <p>{format('itemList.newItemsAvailable')}</p>
          <button type="button" className="button button-small button-primary" onClick={live.loadNewItems}>
            {format('itemList.loadNewItems')}
          </button>
        </div>
      ) : null}
      {live.status === 'failed' ? (
        <div className="callout-error live-alert" role="alert">
          <p>{format('itemList.liveFailed')}</p>
          <button type="button" className="button button-small" onClick={live.retry}>
            {format('itemList.liveRetry')}
          </button>
        </div>
      ) : null}
    </>
  );
}
