/**
 * The map layout of an item list (a click prefills the new item; default zoom 6; docs/layouts.md):
 * a marker per item placed by the chosen GeoPoint field, and an "Unset Markers" list beside it
 * (below it at 900 px and narrower).
 *
 * It reads only what it shows, so a collection of a million items stays responsive: the visible
 * area as a bounding-box `within` term (at most 1000 markers, with a "zoom in" notice when more
 * match), asked again a moment after the map stops moving, a stale request cancelled; the items
 * with no place as `$exists: false`, a page at a time. Both add to the list's search, filter and
 * nested path (`baseParams`) and ask only for the keys they draw.
 *
 * Clicking a marker opens its item; clicking the map (or Enter at its centre) opens a new item with
 * the point set, as the GeoPoint editor stores it. Settings naming a field that is gone or is no
 * longer a GeoPoint field show the "choose a field" state.
 */
import { lazy, Suspense, useCallback, useEffect, useId, useMemo, useState } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { MapPin, Settings } from 'lucide-react';
import { maps } from '../../../definitions/constants.ts';
import type { SchemaField } from '../../../definitions/field-types/index.ts';
import { contentKeys } from '../../../src/api/content-keys.ts';
import { useContentApi } from '../../../src/api/content-queries.ts';
import type { Item, ListParams } from '../../../src/api/content.ts';
import { isApiError } from '../../../src/api/errors.ts';
import { shouldRetry } from '../../../src/api/queries.ts';
import { problemText, type ProblemFormat } from '../../../src/hooks/problem-text.ts';
import type { MapView } from '../../map/WorldMap.tsx';
import { useFormat } from '../../messages/use-format.ts';
import type { LayoutProps } from '../types.ts';
import type { MapMarker } from './MapCanvas.tsx';
import { centerOf, geoValueAt, inViewLng, itemTitleOf, mapFieldOf, placedFind, pointOf, titleFieldsOf, unsetFind, usableMapSettings, withinTerm, type MapPoint, type ViewBounds } from './map-items.ts';
import './map-layout.css';

const MapCanvas = lazy(() => import('./MapCanvas.tsx'));

const errorDetail = (error: unknown, format: ProblemFormat) => (isApiError(error) ? problemText(error, format) : String(error));

export default function MapLayout(props: LayoutProps) {
  const format = useFormat();
  const choice = mapFieldOf(props.collection.schema, props.settings);
  if ('choose' in choice) {
    return (
      <div className="panel empty-state map-layout-choose">
        <MapPin aria-hidden="true" size={28} />
        <h3>{format('layout.map.chooseField')}</h3>
        <p className="muted">{format(choice.choose === 'stale' ? 'layout.map.chooseFieldStale' : 'layout.map.chooseFieldNone')}</p>
        <button type="button" className="button button-primary" onClick={props.onOpenSettings}>
          <Settings aria-hidden="true" size={16} />
          {format('layout.map.openSettings')}
        </button>
      </div>
    );
  }
  // A new field starts afresh (its own view, bounds and unset pages).
  return <PlacedItems key={choice.field.slug} {...props} field={choice.field} />;
}

function PlacedItems({ scope, collection, settings: stored, baseParams, reloadKey, canCreate, onOpenItem, onNewItem, field }: LayoutProps & { field: SchemaField }) {
  const format = useFormat();
  // Title fields and centre as far as they still fit the schema.
  const settings = useMemo(() => usableMapSettings(collection.schema, stored), [collection.schema, stored]);
  const api = useContentApi();
  const helpId = useId();
  const unsetHeadingId = useId();
  const slug = field.slug;
  const titleFields = useMemo(() => titleFieldsOf(collection.schema, settings.titleKeys), [collection.schema, settings.titleKeys]);
  const projectOn = useMemo(() => [...new Set([slug, ...titleFields.map((titleField) => titleField.slug)])].join(','), [slug, titleFields]);
  const itemsKey = contentKeys.items(scope, collection.id);

  // Where the map opens: the saved centre, else the first placed item, else the whole world.
  const saved = centerOf(settings);
  const savedKey = saved ? `center:${saved.center.lat},${saved.center.lng},${saved.zoom}` : '';
  const [fallbackView, setFallbackView] = useState<MapView | null>(null);
  const firstPlaced = useQuery({
    queryKey: [...itemsKey, 'map-first', slug, baseParams],
    queryFn: ({ signal }) => api.listItems(scope, collection.id, { ...baseParams, find: placedFind(slug), pageNumber: 1, perPage: 1, projectOn: slug }, { signal }),
    enabled: !saved && !fallbackView,
    retry: shouldRetry,
    staleTime: Infinity,
  });
  useEffect(() => {
    if (saved || fallbackView || firstPlaced.isPending) return;
    const point = firstPlaced.data ? pointOf(firstPlaced.data.items[0]?.[slug]) : null;
    setFallbackView(point ? { center: point, zoom: maps.defaultZoom, key: 'first' } : { center: maps.worldCenter, zoom: maps.worldZoom, key: 'world' });
  }, [savedKey, fallbackView, firstPlaced.isPending, firstPlaced.data, slug]);
  const view = useMemo<MapView | null>(() => (saved ? { center: saved.center, zoom: saved.zoom, key: savedKey } : fallbackView), [savedKey, fallbackView]);

  // The markers of the visible area.
  const [bounds, setBounds] = useState<ViewBounds | null>(null);
  const markerParams: ListParams | null = bounds
    ? { ...baseParams, query: withinTerm(slug, bounds), pageNumber: 1, perPage: maps.layoutMarkersMax, projectOn }
    : null;
  const placed = useQuery({
    queryKey: [...itemsKey, 'map', markerParams, reloadKey],
    queryFn: ({ signal }) => api.listItems(scope, collection.id, markerParams!, { signal }),
    enabled: markerParams !== null,
    placeholderData: keepPreviousData,
    retry: shouldRetry,
  });
  const { markers, invalid } = useMemo(() => {
    const markers: MapMarker[] = [];
    const invalid: Item[] = [];
    for (const item of placed.data?.items ?? []) {
      const point = pointOf(item[slug]);
      if (point) markers.push({ id: item._id, point: { lat: point.lat, lng: inViewLng(point.lng, bounds) }, title: itemTitleOf(item, titleFields) });
      else invalid.push(item);
    }
    return { markers, invalid };
  }, [placed.data, slug, titleFields, bounds]);

  // The items with no place, a page at a time (back to the first page when the list changes).
  const [unsetPage, setUnsetPage] = useState(1);
  const baseKey = JSON.stringify(baseParams);
  useEffect(() => setUnsetPage(1), [baseKey]);
  const unset = useQuery({
    queryKey: [...itemsKey, 'map-unset', slug, baseParams, projectOn, unsetPage, reloadKey],
    queryFn: ({ signal }) =>
      api.listItems(scope, collection.id, { ...baseParams, find: unsetFind(slug), pageNumber: unsetPage, perPage: maps.layoutUnsetPerPage, projectOn }, { signal }),
    placeholderData: keepPreviousData,
    retry: shouldRetry,
  });
  const unsetTotal = unset.data?.total ?? 0;
  const unsetPages = Math.max(1, Math.ceil(unsetTotal / maps.layoutUnsetPerPage));

  const pick = useCallback((point: MapPoint) => onNewItem({ [slug]: geoValueAt(point) }), [onNewItem, slug]);

  let status: string;
  if (placed.isError) status = format('layout.map.loadFailed', { detail: errorDetail(placed.error, format) });
  else if (!placed.data) status = format('layout.map.loadingPlaces');
  else if (placed.data.total > placed.data.items.length) status = format('layout.map.partial', { shown: placed.data.items.length, total: placed.data.total });
  else status = format('layout.map.inView', { count: markers.length });

  return (
    <div className="map-layout">
      <div className="map-layout-main">
        <p className={placed.isError ? 'callout-error map-layout-status' : 'muted map-layout-status'} role="status" aria-busy={placed.isFetching || undefined}>
          {status}
        </p>
        {view ? (
          <Suspense fallback={<p className="field-help map-layout-loading">{format('layout.map.loading')}</p>}>
            <MapCanvas
              view={view}
              label={format('layout.map.label', { collection: collection.name })}
              describedBy={helpId}
              markers={markers}
              onPick={canCreate ? pick : undefined}
              onBounds={setBounds}
              onOpenItem={onOpenItem}
            />
          </Suspense>
        ) : (
          <p className="field-help map-layout-loading">{format('layout.map.loading')}</p>
        )}
        <p id={helpId} className="field-help">
          {format(canCreate ? 'layout.map.help' : 'layout.map.helpReadOnly')}
        </p>
      </div>
      <section className="panel map-layout-unset" aria-labelledby={unsetHeadingId}>
        <h3 id={unsetHeadingId}>{format('layout.map.unset')}</h3>
        {unset.isError ? (
          <p className="callout-error" role="alert">
            {format('layout.map.unsetFailed', { detail: errorDetail(unset.error, format) })}
          </p>
        ) : unset.data ? (
          <p className="muted">{unsetTotal + invalid.length > 0 ? format('layout.map.unsetCount', { count: unsetTotal + invalid.length }) : format('layout.map.unsetEmpty')}</p>
        ) : (
          <p className="muted">{format('layout.map.unsetLoading')}</p>
        )}
        {invalid.length + (unset.data?.items.length ?? 0) > 0 ? (
          <ul className="plain-list map-layout-unset-list">
            {invalid.map((item) => (
              <li key={`invalid-${item._id}`}>
                <button type="button" className="button button-quiet map-layout-unset-item" onClick={() => onOpenItem(item._id)}>
                  {format('layout.map.invalidPlace', { title: itemTitleOf(item, titleFields) })}
                </button>
              </li>
            ))}
            {(unset.data?.items ?? []).map((item) => (
              <li key={item._id}>
                <button type="button" className="button button-quiet map-layout-unset-item" onClick={() => onOpenItem(item._id)}>
                  {itemTitleOf(item, titleFields)}
                </button>
              </li>
            ))}
          </ul>
        ) : null}
        {unsetPages > 1 ? (
          <nav className="map-layout-unset-pages" aria-label={format('layout.map.unsetPages')}>
            <button type="button" className="button button-small" disabled={unsetPage <= 1} onClick={() => setUnsetPage((page) => Math.max(1, page - 1))}>
              {format('layout.map.unsetPrevious')}
            </button>
            <span className="muted">{format('layout.map.unsetPage', { page: unsetPage, pages: unsetPages })}</span>
            <button type="button" className="button button-small" disabled={unsetPage >= unsetPages} onClick={() => setUnsetPage((page) => Math.min(unsetPages, page + 1))}>
              {format('layout.map.unsetNext')}
            </button>
          </nav>
        ) : null}
      </section>
    </div>
  );
}
