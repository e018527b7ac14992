/**
 * The list's notices above the toolbar: the CSV download's progress, new items announced by live
 * data, and a live data stream that gave up.
 */
import { useId } from 'react';
import type { MessageKey } from '../../../definitions/messages/format.ts';
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
      {live.newItemsAvailable ? <LiveAlert tone="info" text="itemList.newItemsAvailable" action="itemList.loadNewItems" onAction={live.loadNewItems} /> : null}
      {live.status === 'failed' ? <LiveAlert tone="error" text="itemList.liveFailed" action="itemList.liveRetry" onAction={live.retry} /> : null}
    </>
  );
}

/** A live data callout: new items to load (a status), or a stream that gave up (an alert). */
function LiveAlert({ tone, text, action, onAction }: { tone: 'info' | 'error'; text: MessageKey; action: MessageKey; onAction: () => void }) {
  const format = useFormat();
  return (
    <div className={`callout-${tone} live-alert`} role={tone === 'info' ? 'status' : 'alert'}>
      <p>{format(text)}</p>
      <button type="button" className={tone === 'info' ? 'button button-small button-primary' : 'button button-small'} onClick={onAction}>
        {format(action)}
      </button>
    </div>
  );
}
