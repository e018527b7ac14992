/**
 * The Leaflet side of the map layout, loaded in its own chunk with the world map (Leaflet stays out
 * of the list screen until a map is drawn): the shared WorldMap with one marker per placed item and
 * a watcher that reports the visible area after the map stops moving.
 *
 * Markers are Leaflet's own keyboard-reachable icons (tabindex 0, role button) named by the item's
 * title; Enter or Space on one opens its item, as a click does. A marker does not pass its click
 * on to the map, so opening an item never also starts a new one.
 */
import { useEffect, useMemo, useRef } from 'react';
import { divIcon, type LeafletKeyboardEvent, type Marker as LeafletMarker } from 'leaflet';
import { Marker, useMap } from 'react-leaflet';
import { maps } from '../../../definitions/constants.ts';
import { WorldMap, type MapView } from '../../map/WorldMap.tsx';
import type { MapPoint, ViewBounds } from './map-items.ts';

export interface MapMarker {
  id: string;
  point: MapPoint;
  title: string;
}

export interface MapCanvasProps {
  view: MapView;
  label: string;
  describedBy?: string | undefined;
  markers: readonly MapMarker[];
  /** A click on the map (or Enter at its centre); absent when nobody may create items. */
  onPick?: ((point: MapPoint) => void) | undefined;
  /** The visible area: at once, then after each move or zoom (debounced). */
  onBounds(bounds: ViewBounds): void;
  onOpenItem(itemID: string): void;
}

/** One icon for every marker: a dot drawn by CSS (no image, so no asset URL and nothing for the CSP). */
const markerIcon = divIcon({ className: 'map-layout-marker', html: '', iconSize: [22, 22], iconAnchor: [11, 11] });

function ItemMarker({ marker, onOpen }: { marker: MapMarker; onOpen: (itemID: string) => void }) {
  const ref = useRef<LeafletMarker>(null);
  const open = useRef(onOpen);
  open.current = onOpen;
  const handlers = useMemo(
    () => ({
      click: () => open.current(marker.id),
      keydown: (event: LeafletKeyboardEvent) => {
        const key = event.originalEvent.key;
        if (key !== 'Enter' && key !== ' ') return;
        event.originalEvent.preventDefault();
        open.current(marker.id);
      },
    }),
    [marker.id],
  );
  // Leaflet sets the title once, when the icon is made: a new title (the item renamed) is applied here.
  useEffect(() => {
    const element = ref.current?.getElement();
    if (!element) return;
    element.setAttribute('aria-label', marker.title);
    element.title = marker.title;
    element.dataset.itemId = marker.id;
  }, [marker.title, marker.id]);
  return <Marker ref={ref} position={[marker.point.lat, marker.point.lng]} icon={markerIcon} title={marker.title} keyboard riseOnHover eventHandlers={handlers} />;
}

/** Reports the visible area at once and then, debounced, after the map moves, zooms or resizes. */
function BoundsWatcher({ onBounds }: { onBounds: (bounds: ViewBounds) => void }) {
  const map = useMap();
  const report = useRef(onBounds);
  report.current = onBounds;
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = () => {
      timer = undefined;
      const bounds = map.getBounds();
      report.current({ south: bounds.getSouth(), west: bounds.getWest(), north: bounds.getNorth(), east: bounds.getEast() });
    };
    const later = () => {
      if (timer !== undefined) clearTimeout(timer);
      timer = setTimeout(read, maps.layoutBoundsDebounceMs);
    };
    read();
    map.on('moveend zoomend resize', later);
    // The container may get its size after the map was made (a layout change without a window resize).
    const container = map.getContainer();
    const observer = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(() => map.invalidateSize({ pan: false }));
    observer?.observe(container);
    return () => {
      if (timer !== undefined) clearTimeout(timer);
      map.off('moveend zoomend resize', later);
      observer?.disconnect();
    };
  }, [map]);
  return null;
}

export default function MapCanvas({ view, label, describedBy, markers, onPick, onBounds, onOpenItem }: MapCanvasProps) {
  return (
    <WorldMap view={view} label={label} describedBy={describedBy} onPick={onPick} className="map-layout-map">
      {markers.map((marker) => (
        <ItemMarker key={marker.id} marker={marker} onOpen={onOpenItem} />
      ))}
      <BoundsWatcher onBounds={onBounds} />
    </WorldMap>
  );
}
