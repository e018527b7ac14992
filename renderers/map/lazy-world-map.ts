/** The map in its own chunk (Leaflet, react-leaflet and the world atlas load only where a map is drawn). Render it in Suspense. */
import { lazy } from 'react';

export const LazyWorldMap = lazy(() => import('./WorldMap.tsx').then((module) => ({ default: module.WorldMap })));
export type { MapPoint, MapView, WorldMapProps } from './WorldMap.tsx';
