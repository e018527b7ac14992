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
import { Suspense, useEffect, useRef, useState } from 'react';
import { X } from 'lucide-react';
import { maps } from '../../../definitions/constants.ts';
import { characterCount } from '../../../definitions/field-types/support.ts';
import { LazyWorldMap, type MapPoint, type MapView } from '../../map/lazy-world-map.ts';
import { useFormat } from '../../messages/use-format.ts';
import { describedByOf, useReportProblem } from '../editor-support.ts';
import { EditorMessages, messagesId } from '../EditorMessages.tsx';
import type { EditorProps } from '../editor-types.ts';
import { AddressSearchBox } from './AddressSearchBox.tsx';
import { CoordinateInput } from './CoordinateInput.tsx';
import { coordinate, pointOf, rounded, textOf, typing } from './coordinates.ts';
import { errorDetail, useAddressSearch } from './use-address-search.ts';
import './geo-point.css';

let viewKeys = 0;

export function GeoPointEditor({ field, value, onChange, onBlur, error, disabled, required, id, labelledBy, describedBy, onProblem }: EditorProps) {
  const format = useFormat();
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

  const [announcement, setAnnouncement] = useState<string | undefined>();
  const statusId = `${id}-status`;

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

  const search = useAddressSearch({
    disabled,
    onPlace: (location, place) => {
      setPoint(location, place);
      setView({ center: location, zoom: maps.defaultZoom, key: ++viewKeys });
    },
  });

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
    search.reset();
    setRefused(null);
    emit(null);
    setAnnouncement(format('editor.geo.cleared'));
  };

  let status: string | undefined;
  const { term, query, pickedText, searchable, results, placeError } = search;
  const typed = term.trim();
  if (typed !== '' && typed !== pickedText && characterCount(typed) < maps.searchMinChars) status = format('editor.geo.tooShort', { min: maps.searchMinChars });
  else if (searchable && search.search.isFetching) status = format('editor.geo.searching');
  else if (searchable && search.search.isError) status = format('editor.geo.searchFailed', { detail: errorDetail(search.search.error, format) });
  else if (searchable && search.search.isSuccess && results.length === 0 && typed === query) status = format('editor.geo.noResults');
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
      <AddressSearchBox
        id={id}
        search={search}
        disabled={disabled}
        describedBy={describedByOf(describedBy, statusId, (placeError || error) && messagesId(id))}
        onType={(text) => {
          search.type(text);
          setAnnouncement(undefined);
        }}
        onBlur={onBlur}
      />
      <p id={statusId} role="status" className="field-help editor-geo-status">
        {status}
      </p>
      <EditorMessages id={messagesId(id)} messages={[placeError, error]} />
      <div className="editor-geo-coordinates">
        <CoordinateInput
          id={latId}
          label={format('editor.geo.latitude')}
          value={latText}
          disabled={disabled}
          required={required}
          invalid={Boolean(error || latProblem || refused === 'lat' || (incomplete && latText === ''))}
          describedBy={describedByOf(coordinatesInvalid && coordinatesMessagesId)}
          onChange={(text) => typeCoordinate('lat', text)}
          onBlur={leaveCoordinate}
        />
        <CoordinateInput
          id={lngId}
          label={format('editor.geo.longitude')}
          value={lngText}
          disabled={disabled}
          required={required}
          invalid={Boolean(lngProblem || refused === 'lng' || (incomplete && lngText === ''))}
          describedBy={describedByOf(coordinatesInvalid && coordinatesMessagesId)}
          onChange={(text) => typeCoordinate('lng', text)}
          onBlur={leaveCoordinate}
        />
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
