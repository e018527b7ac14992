/** A map location as latitude, longitude to 4 decimals (content §9). */
import type { DisplayProps } from '../display-types.ts';

const geoDecimals = 4;

export function GeoPointDisplay({ value }: DisplayProps) {
  if (!value || typeof value !== 'object') return null;
  const { lat, lng } = value as { lat?: unknown; lng?: unknown };
  if (typeof lat !== 'number' || typeof lng !== 'number') return null;
  return <span className="cell-text cell-mono">{`${lat.toFixed(geoDecimals)}, ${lng.toFixed(geoDecimals)}`}</span>;
}
