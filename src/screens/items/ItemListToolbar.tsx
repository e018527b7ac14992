/**
 * Above the items: the search box (searched after typing settles, machines/item-list.ts), the
 * filter, and the live data switch with its connection status.
 */
import { useId } from 'react';
import { Search } from 'lucide-react';
import { Switch } from 'radix-ui';
import type { SchemaField } from '../../../definitions/field-types/index.ts';
import { searchMaxLength } from '../../../machines/item-list.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import type { ProjectScope } from '../../api/content.ts';
import type { useLiveData } from '../../hooks/use-live-data.ts';
import { FilterControl, type FilterControlProps } from './FilterControl.tsx';

export interface ItemListToolbarProps {
  scope: ProjectScope;
  schema: SchemaField[];
  searchText: string;
  onSearchText: (text: string) => void;
  onFilter: (filter: string | undefined) => void;
  /** Live data, when its switch is shown. */
  live: ReturnType<typeof useLiveData> | null;
  /** The filter's starting state and a listener of its changes (FilterControl's `initial`, `onStateChange`). */
  filterState?: Pick<FilterControlProps, 'initial' | 'onStateChange'>;
}

export function ItemListToolbar({ scope, schema, searchText, onSearchText, onFilter, live, filterState }: ItemListToolbarProps) {
  const format = useFormat();
  const id = useId();
  return (
    <div className="item-list-toolbar">
      <label className="item-search">
        <span className="visually-hidden">{format('itemList.search')}</span>
        <Search aria-hidden="true" size={16} />
        <input
          className="input"
          type="search"
          placeholder={format('itemList.search')}
          maxLength={searchMaxLength}
          value={searchText}
          onChange={(event) => onSearchText(event.target.value)}
        />
      </label>
      <FilterControl scope={scope} schema={schema} onChange={onFilter} {...filterState} />
      {live ? (
        <div className="live-switch">
          <Switch.Root id={`${id}-live`} className="switch" checked={live.on} aria-describedby={`${id}-live-help`} onCheckedChange={live.toggle}>
            <Switch.Thumb className="switch-thumb" />
          </Switch.Root>
          <label htmlFor={`${id}-live`}>{format('itemList.liveData')}</label>
          <span id={`${id}-live-help`} className="visually-hidden">
            {format('itemList.liveDataHelp')}
          </span>
          {live.status === 'connecting' || live.status === 'retrying' ? (
            <span className="muted live-status" aria-live="polite">
              {format(live.status === 'connecting' ? 'itemList.liveConnecting' : 'itemList.liveRetrying')}
            </span>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
