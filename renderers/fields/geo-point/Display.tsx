/** A map location as "latitude, longitude" to 4 decimals. */
import { maps } from '../../../definitions/constants.ts';
import type { DisplayProps } from '../display-types.ts';

export function GeoPointDisplay({ value }: DisplayProps) {
  if (!value || typeof value !== 'object') return null;
  const { lat, lng } = value as { lat?: unknown; lng?: unknown };
  if (typeof lat !== 'number' || typeof lng !== 'number') return null;
  return <span className="cell-text cell-mono">{`${lat.toFixed(maps.geoDecimals)}, ${lng.toFixed(maps.geoDecimals)}`}</span>;
}
