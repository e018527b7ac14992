/** The GeoPoint editor's address search box: a combobox over the places found (./use-address-search.ts). */
import { maps } from '../../../definitions/constants.ts';
import { useFormat } from '../../messages/use-format.ts';
import type { AddressSearch } from './use-address-search.ts';

export function AddressSearchBox(props: {
  id: string;
  search: AddressSearch;
  disabled?: boolean;
  describedBy?: string;
  onType: (text: string) => void;
  onBlur?: () => void;
}) {
  const { id, search, disabled, describedBy, onType, onBlur } = props;
  const format = useFormat();
  const listId = `${id}-results`;
  const optionId = (i: number) => `${id}-result-${i}`;
  const { showList, active } = search;
  return (
    <div className="editor-geo-search">
      <input
        id={id}
        className="input"
        type="search"
        role="combobox"
        autoComplete="off"
        aria-autocomplete="list"
        aria-expanded={showList}
        aria-controls={listId}
        aria-activedescendant={showList && active >= 0 ? optionId(active) : undefined}
        aria-describedby={describedBy}
        placeholder={format('editor.geo.search')}
        value={search.term}
        maxLength={maps.searchMaxChars}
        disabled={disabled}
        onChange={(event) => onType(event.target.value)}
        onKeyDown={search.onKeyDown}
        onFocus={() => search.setOpen(true)}
        onBlur={() => {
          search.setOpen(false);
          onBlur?.();
        }}
      />
      <ul id={listId} role="listbox" className="menu editor-geo-results" aria-label={format('editor.geo.results')} hidden={!showList}>
        {showList
          ? search.results.map((prediction, i) => (
              <li
                key={prediction.place_id}
                id={optionId(i)}
                role="option"
                aria-selected={i === active}
                className="menu-item"
                data-highlighted={i === active ? '' : undefined}
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => void search.pick(prediction)}
              >
                {prediction.description}
              </li>
            ))
          : null}
      </ul>
    </div>
  );
}
