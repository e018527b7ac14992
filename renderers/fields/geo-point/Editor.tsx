/**
 * GeoPoint: a map location `{lat, lng}`. Three ways to set it, one way to clear it:
 * - an address search (a combobox): 380 ms after the last keystroke, from 3 characters, it asks
 *   `GET /api/maps?input&sessiontoken`; picking a place (arrows and Enter, or the pointer) asks
 *   `?place_id` for its coordinates and moves the map there at the default zoom (6);
 * - latitude and longitude inputs, shown with 4 decimals; a number out of range (−90..90,
 *   −180..180) or only one of the two is held back and said under the inputs;
 * - a click on the map, or Enter on the focused map (at its centre, the arrows move it).
 * What the editor emits is rounded to the 4 decimals it shows (about 11 m).
 */
import { Suspense, useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { X } from 'lucide-react';
import { maps } from '../../../definitions/constants.ts';
import { characterCount, isPlainObject } from '../../../definitions/field-types/support.ts';
import { isApiError } from '../../../src/api/errors.ts';
import { newSessionToken, useMapsApi, type PlacePrediction } from '../../../src/api/maps.ts';
import { problemText, type ProblemFormat } from '../../../src/hooks/problem-text.ts';
import { LazyWorldMap, type MapPoint, type MapView } from '../../map/lazy-world-map.ts';
import { useFormat } from '../../messages/use-format.ts';
import { describedByOf, firstCharacters, useReportProblem } from '../editor-support.ts';
import { EditorMessages, messagesId } from '../EditorMessages.tsx';
import type { EditorProps } from '../editor-types.ts';
import { useDebouncedValue } from '../use-debounced-value.ts';
import './geo-point.css';

const decimals = maps.geoDecimals;

/** A coordinate as the editor stores it: rounded to what it shows (and never −0). */
const rounded = (n: number) => {
  const r = Number(n.toFixed(decimals));
  return r === 0 ? 0 : r;
};
const textOf = (n: number) => rounded(n).toFixed(decimals);

const pointOf = (value: unknown): MapPoint | null =>
  isPlainObject(value) && typeof value.lat === 'number' && typeof value.lng === 'number' && Number.isFinite(value.lat) && Number.isFinite(value.lng)
    ? { lat: value.lat, lng: value.lng }
    : null;

/** What the inputs let through while typing: a numeral, possibly unfinished ("-", "4."). */
const typing = /^-?\d*\.?\d*$/;
const numeral = /^-?(\d+\.?\d*|\.\d+)$/;

/** The coordinate a text holds, or undefined when it is not one within ±`limit`. */
const coordinate = (text: string, limit: number) => {
  if (!numeral.test(text)) return undefined;
  const n = Number(text);
  return Number.isFinite(n) && Math.abs(n) <= limit ? n : undefined;
};

const errorDetail = (error: unknown, format: ProblemFormat) => (isApiError(error) ? problemText(error, format) : String(error));

let viewKeys = 0;

export function GeoPointEditor({ field, value, onChange, onBlur, error, disabled, required, id, labelledBy, describedBy, onProblem }: EditorProps) {
  const format = useFormat();
  const api = useMapsApi();
  const point = pointOf(value);

  // Coordinates as typed; a value coming from outside (reset, duplicate, a pick) is shown with 4 decimals.
  const [latText, setLatText] = useState(() => (point ? textOf(point.lat) : ''));
  const [lngText, setLngText] = useState(() => (point ? textOf(point.lng) : ''));
  const [refused, setRefused] = useState<'lat' | 'lng' | null>(null);
  const [view, setView] = useState<MapView>(() =>
    point ? { center: point, zoom: maps.defaultZoom, key: ++viewKeys } : { center: maps.worldCenter, zoom: maps.worldZoom, key: ++viewKeys },
  );
  const emitted = useRef<unknown>(value);
  useEffect(() => {
    if (value === emitted.current) return;
    const before = pointOf(emitted.current);
    emitted.current = value;
    const next = pointOf(value);
    // The same point back (the saved item read again) changes nothing on screen.
    if (next && before && next.lat === before.lat && next.lng === before.lng) return;
    setLatText(next ? textOf(next.lat) : '');
    setLngText(next ? textOf(next.lng) : '');
    if (next) setView({ center: next, zoom: maps.defaultZoom, key: ++viewKeys });
  }, [value]);
  const emit = (next: MapPoint | null) => {
    emitted.current = next;
    onChange(next);
  };

  // The address search.
  const [term, setTerm] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  /** The text of the place last picked: shown in the box, not searched again. */
  const [pickedText, setPickedText] = useState<string | null>(null);
  const [announcement, setAnnouncement] = useState<string | undefined>();
  const [placeError, setPlaceError] = useState<string | undefined>();
  const session = useRef('');
  if (session.current === '') session.current = newSessionToken();
  const query = useDebouncedValue(term.trim(), maps.searchDebounceMs);
  const searchable = characterCount(query) >= maps.searchMinChars && query !== pickedText;
  const search = useQuery({
    queryKey: ['maps', 'autocomplete', query],
    queryFn: ({ signal }) => api.autocomplete(query, session.current, signal),
    enabled: searchable && !disabled,
    staleTime: 5 * 60_000,
    retry: false,
  });
  const results: PlacePrediction[] = searchable ? (search.data ?? []) : [];
  const showList = open && results.length > 0;
  const listId = `${id}-results`;
  const statusId = `${id}-status`;
  const optionId = (i: number) => `${id}-result-${i}`;

  const setPoint = (next: MapPoint, place?: string) => {
    const stored = { lat: rounded(next.lat), lng: rounded(next.lng) };
    setLatText(textOf(stored.lat));
    setLngText(textOf(stored.lng));
    setRefused(null);
    emit(stored);
    const lat = textOf(stored.lat);
    const lng = textOf(stored.lng);
    setAnnouncement(place ? format('editor.geo.picked', { place, lat, lng }) : format('editor.geo.pointSet', { lat, lng }));
  };

  const pick = async (prediction: PlacePrediction) => {
    setOpen(false);
    setActive(-1);
    setTerm(prediction.description);
    setPickedText(prediction.description);
    setPlaceError(undefined);
    try {
      const place = await api.place(prediction.place_id, session.current);
      const location = place.geometry.location;
      setPoint(location, place.formatted_address || prediction.description);
      setView({ center: location, zoom: maps.defaultZoom, key: ++viewKeys });
    } catch (failure) {
      setPlaceError(format('editor.geo.placeFailed', { detail: errorDetail(failure, format) }));
    } finally {
      // One session per pick (what session tokens mean to providers that bill by them).
      session.current = newSessionToken();
    }
  };

  const onSearchKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      if (results.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((current) => (current + step + results.length) % results.length);
    } else if (event.key === 'Enter') {
      // Enter in the box never submits the item form.
      event.preventDefault();
      if (showList && results[active]) void pick(results[active]);
    } else if (event.key === 'Escape' && showList) {
      event.preventDefault();
      setOpen(false);
    }
  };

  // The coordinates typed.
  const lat = coordinate(latText, 90);
  const lng = coordinate(lngText, 180);
  const latProblem = latText !== '' && lat === undefined && typing.test(latText) ? format('editor.geo.latInvalid') : undefined;
  const lngProblem = lngText !== '' && lng === undefined && typing.test(lngText) ? format('editor.geo.lngInvalid') : undefined;
  const incomplete = (latText === '') !== (lngText === '') ? format('editor.geo.incomplete') : undefined;
  const problem = latProblem ?? lngProblem ?? incomplete;
  useReportProblem(onProblem, problem);

  const typeCoordinate = (which: 'lat' | 'lng', raw: string) => {
    const text = raw.trim();
    if (!typing.test(text)) {
      setRefused(which);
      return;
    }
    setRefused(null);
    setAnnouncement(undefined);
    const nextLat = which === 'lat' ? text : latText;
    const nextLng = which === 'lng' ? text : lngText;
    if (which === 'lat') setLatText(text);
    else setLngText(text);
    if (nextLat === '' && nextLng === '') {
      if (value !== null && value !== undefined) emit(null);
      return;
    }
    const a = coordinate(nextLat, 90);
    const b = coordinate(nextLng, 180);
    if (a !== undefined && b !== undefined) emit({ lat: rounded(a), lng: rounded(b) });
  };

  // Leaving a coordinate shows it with 4 decimals and brings the map to the point.
  const leaveCoordinate = () => {
    setRefused(null);
    if (lat !== undefined && lng !== undefined) {
      setLatText(textOf(lat));
      setLngText(textOf(lng));
      const here = { lat: rounded(lat), lng: rounded(lng) };
      if (view.center.lat !== here.lat || view.center.lng !== here.lng) setView({ center: here, zoom: Math.max(view.zoom, maps.defaultZoom), key: ++viewKeys });
    }
    onBlur?.();
  };

  const clear = () => {
    setLatText('');
    setLngText('');
    setTerm('');
    setPickedText(null);
    setRefused(null);
    setPlaceError(undefined);
    setOpen(false);
    emit(null);
    setAnnouncement(format('editor.geo.cleared'));
  };

  let status: string | undefined;
  const typed = term.trim();
  if (typed !== '' && typed !== pickedText && characterCount(typed) < maps.searchMinChars) status = format('editor.geo.tooShort', { min: maps.searchMinChars });
  else if (searchable && search.isFetching) status = format('editor.geo.searching');
  else if (searchable && search.isError) status = format('editor.geo.searchFailed', { detail: errorDetail(search.error, format) });
  else if (searchable && search.isSuccess && results.length === 0 && typed === query) status = format('editor.geo.noResults');
  else status = announcement;

  const latId = `${id}-lat`;
  const lngId = `${id}-lng`;
  const coordinatesMessagesId = messagesId(latId);
  const mapHelpId = `${id}-map-help`;
  const refusedMessage = refused === 'lat' ? format('editor.geo.latInvalid') : refused === 'lng' ? format('editor.geo.lngInvalid') : undefined;
  const coordinateMessages = [refusedMessage !== latProblem && refusedMessage !== lngProblem ? refusedMessage : undefined, latProblem, lngProblem, incomplete];
  const coordinatesInvalid = coordinateMessages.some(Boolean);
  const empty = latText === '' && lngText === '' && point === null;

  return (
    <div className="editor editor-geo-point" role="group" aria-labelledby={labelledBy}>
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
          aria-describedby={describedByOf(describedBy, statusId, (placeError || error) && messagesId(id))}
          placeholder={format('editor.geo.search')}
          value={term}
          maxLength={maps.searchMaxChars}
          disabled={disabled}
          onChange={(event) => {
            setTerm(firstCharacters(event.target.value, maps.searchMaxChars));
            setPickedText(null);
            setPlaceError(undefined);
            setAnnouncement(undefined);
            setActive(-1);
            setOpen(true);
          }}
          onKeyDown={onSearchKeyDown}
          onFocus={() => setOpen(true)}
          onBlur={() => {
            setOpen(false);
            onBlur?.();
          }}
        />
        <ul id={listId} role="listbox" className="menu editor-geo-results" aria-label={format('editor.geo.results')} hidden={!showList}>
          {showList
            ? results.map((prediction, i) => (
                <li
                  key={prediction.place_id}
                  id={optionId(i)}
                  role="option"
                  aria-selected={i === active}
                  className="menu-item"
                  data-highlighted={i === active ? '' : undefined}
                  onMouseDown={(event) => event.preventDefault()}
                  onClick={() => void pick(prediction)}
                >
                  {prediction.description}
                </li>
              ))
            : null}
        </ul>
      </div>
      <p id={statusId} role="status" className="field-help editor-geo-status">
        {status}
      </p>
      <EditorMessages id={messagesId(id)} messages={[placeError, error]} />
      <div className="editor-geo-coordinates">
        <span className="editor-geo-coordinate">
          <label htmlFor={latId}>{format('editor.geo.latitude')}</label>
          <input
            id={latId}
            className="input"
            type="text"
            inputMode="decimal"
            autoComplete="off"
            value={latText}
            disabled={disabled}
            aria-required={required || undefined}
            aria-invalid={error || latProblem || refused === 'lat' || (incomplete && latText === '') ? true : undefined}
            aria-describedby={describedByOf(coordinatesInvalid && coordinatesMessagesId)}
            onChange={(event) => typeCoordinate('lat', event.target.value)}
            onBlur={leaveCoordinate}
          />
        </span>
        <span className="editor-geo-coordinate">
          <label htmlFor={lngId}>{format('editor.geo.longitude')}</label>
          <input
            id={lngId}
            className="input"
            type="text"
            inputMode="decimal"
            autoComplete="off"
            value={lngText}
            disabled={disabled}
            aria-required={required || undefined}
            aria-invalid={lngProblem || refused === 'lng' || (incomplete && lngText === '') ? true : undefined}
            aria-describedby={describedByOf(coordinatesInvalid && coordinatesMessagesId)}
            onChange={(event) => typeCoordinate('lng', event.target.value)}
            onBlur={leaveCoordinate}
          />
        </span>
        <button type="button" className="button button-small" disabled={disabled || (empty && term === '')} onClick={clear}>
          <X aria-hidden="true" size={16} />
          {format('editor.geo.clear')}
        </button>
      </div>
      <EditorMessages id={coordinatesMessagesId} messages={coordinateMessages} />
      <Suspense fallback={<p className="field-help editor-geo-map-loading">{format('editor.geo.loadingMap')}</p>}>
        <LazyWorldMap
          view={view}
          label={format('editor.geo.map', { name: field.name })}
          describedBy={mapHelpId}
          marker={point}
          onPick={disabled ? undefined : (picked) => setPoint(picked)}
        />
      </Suspense>
      <p id={mapHelpId} className="field-help">
        {format('editor.geo.mapHelp')}
      </p>
    </div>
  );
}
