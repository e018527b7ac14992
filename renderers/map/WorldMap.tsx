/**
 * A map people can point at (react-leaflet + Leaflet), for the GeoPoint editor and the item list's
 * map layout. Offline by default: the world's countries (world-atlas, Natural Earth 1:110m) drawn
 * as one GeoJSON layer; when the server names a tile URL (`MAP_TILE_URL`, in /api/config) its tiles
 * are drawn instead. Load it with `LazyWorldMap` (its own chunk, with Leaflet and the atlas).
 *
 * Keyboard: the map is one focusable control (role application); the arrows move it, + and −
 * zoom (Leaflet's own keys) and Enter picks the point at its centre, which a cross-hair marks
 * while the map has the focus.
 */
import { useEffect, useMemo, useRef, type ReactNode } from 'react';
import { CircleMarker, GeoJSON, MapContainer, TileLayer, useMap, useMapEvents } from 'react-leaflet';
import { feature } from 'topojson-client';
import type { Topology } from 'topojson-specification';
import type { FeatureCollection } from 'geojson';
import countries110m from 'world-atlas/countries-110m.json';
import 'leaflet/dist/leaflet.css';
import { useConfig } from '../../src/api/queries.ts';
import { useFormat } from '../messages/use-format.ts';
import './world-map.css';

export interface MapPoint {
  lat: number;
  lng: number;
}

/** Where the map should look: applied again whenever `key` changes (a picked place, a new item). */
export interface MapView {
  center: MapPoint;
  zoom: number;
  key: number | string;
}

export interface WorldMapProps {
  /** The map's first view; later `view` changes move it. */
  view: MapView;
  /** The map's accessible name. */
  label: string;
  /** Ids of text explaining how to use it (the keyboard help). */
  describedBy?: string | undefined;
  /** A click on the map, or Enter at its centre: the point picked, longitude within −180..180. */
  onPick?(point: MapPoint): void;
  /** A point to mark (the GeoPoint editor's value). */
  marker?: MapPoint | null | undefined;
  /** More layers (markers of a list, …) as react-leaflet children. */
  children?: ReactNode;
  className?: string | undefined;
}

const countries = feature(countries110m as unknown as Topology, (countries110m as unknown as Topology).objects.countries!) as unknown as FeatureCollection;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const reducedMotion = () => typeof window !== 'undefined' && window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true;

/** Clicks, Enter, the view requests and the container's accessible name. */
function Behaviour({ view, label, describedBy, onPick }: Pick<WorldMapProps, 'view' | 'label' | 'describedBy' | 'onPick'>) {
  const map = useMap();
  const format = useFormat();
  const roleDescription = format('map.roleDescription');
  const pick = useRef(onPick);
  pick.current = onPick;
  useMapEvents({
    click(event) {
      const { lat, lng } = event.latlng.wrap();
      pick.current?.({ lat, lng });
    },
  });
  useEffect(() => {
    const container = map.getContainer();
    container.setAttribute('role', 'application');
    container.setAttribute('aria-roledescription', roleDescription);
    container.setAttribute('aria-label', label);
    if (describedBy) container.setAttribute('aria-describedby', describedBy);
    else container.removeAttribute('aria-describedby');
  }, [map, label, describedBy, roleDescription]);
  useEffect(() => {
    const container = map.getContainer();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Enter' || event.target !== container || !pick.current) return;
      event.preventDefault();
      const { lat, lng } = map.getCenter().wrap();
      pick.current({ lat, lng });
    };
    container.addEventListener('keydown', onKeyDown);
    return () => container.removeEventListener('keydown', onKeyDown);
  }, [map]);
  const first = useRef(true);
  useEffect(() => {
    // The first view is the container's own; later ones move the map.
    if (first.current) {
      first.current = false;
      return;
    }
    map.setView([view.center.lat, view.center.lng], view.zoom, { animate: !reducedMotion() });
    // Only a new key moves the map: the same view again (a re-render) does not.
  }, [map, view.key]);
  return null;
}

export function WorldMap({ view, label, describedBy, onPick, marker, children, className }: WorldMapProps) {
  const { data: config } = useConfig();
  const tiles = config?.mapTiles ?? null;
  const still = useMemo(reducedMotion, []);
  return (
    <MapContainer
      className={['world-map', onPick ? 'world-map-pickable' : '', className ?? ''].filter(Boolean).join(' ')}
      center={[view.center.lat, view.center.lng]}
      zoom={view.zoom}
      minZoom={1}
      maxZoom={tiles ? 19 : 10}
      worldCopyJump
      zoomAnimation={!still}
      fadeAnimation={!still}
      markerZoomAnimation={!still}
    >
      {tiles ? (
        <TileLayer url={tiles.url} attribution={tiles.attribution ? escapeHtml(tiles.attribution) : ''} />
      ) : (
        <GeoJSON data={countries} interactive={false} style={{ className: 'world-map-country' }} attribution="Natural Earth" />
      )}
      {marker ? <CircleMarker center={[marker.lat, marker.lng]} radius={8} interactive={false} className="world-map-point" /> : null}
      {children}
      <Behaviour view={view} label={label} describedBy={describedBy} onPick={onPick} />
    </MapContainer>
  );
}
