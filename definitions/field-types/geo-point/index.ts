/** GeoPoint (13): a map location `{lat, lng}` in degrees. */
import { extraKeys, fail, isPlainObject, ok } from '../support.ts';
import type { FieldType } from '../types.ts';

export const geoPoint: FieldType<'GeoPoint'> = {
  code: 13,
  name: 'GeoPoint',
  labelKey: 'fieldType.geoPoint',
  icon: 'map-pin',
  valueSchema: {
    anyOf: [
      {
        type: 'object',
        properties: { lat: { type: 'number', minimum: -90, maximum: 90 }, lng: { type: 'number', minimum: -180, maximum: 180 } },
        required: ['lat', 'lng'],
        additionalProperties: false,
      },
      { type: 'null' },
    ],
  },
  capabilities: { creatable: true, primary: false, required: true, unique: false, sortable: false },
  settings: [],
  filterOperators: ['within'],
  defaultOperator: 'within',
  // A GiST index over the location as a point serves `within` (a box, or a circle's bounding boxes).
  storage: { kind: 'column', column: 'jsonb', indexes: [{ kind: 'gist', on: { of: 'point', x: 'lng', y: 'lat' } }] },
  valueKind: 'geo',
  layoutUses: ['mapPlaces'],
  validate(value) {
    if (!isPlainObject(value)) return fail('geoNotObject');
    if (extraKeys(value, ['lat', 'lng']).length) return fail('geoExtraKeys');
    const { lat, lng } = value;
    if (typeof lat !== 'number' || !Number.isFinite(lat) || lat < -90 || lat > 90) return fail('latRange');
    if (typeof lng !== 'number' || !Number.isFinite(lng) || lng < -180 || lng > 180) return fail('lngRange');
    return ok({ lat: lat === 0 ? 0 : lat, lng: lng === 0 ? 0 : lng });
  },
  isEmpty: (value) => value === null || value === undefined,
  csv: {
    formulaSafe: true,
    sqlForm: { of: 'numbers', members: ['lat', 'lng'], separator: ',' },
    toCell: (value) => (isPlainObject(value) ? `${String(value.lat)},${String(value.lng)}` : ''),
    fromCell(cell) {
      if (cell.trim() === '') return ok(null);
      const parts = cell.split(',').map((part) => part.trim());
      if (parts.length !== 2 || parts.some((part) => part === '' || Number.isNaN(Number(part)))) return fail('geoCell');
      return ok({ lat: Number(parts[0]), lng: Number(parts[1]) });
    },
  },
  display: (value) => (isPlainObject(value) ? `${String(value.lat)},${String(value.lng)}` : ''),
};
