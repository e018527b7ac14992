/**
 * Layout settings against a schema: what still fits is kept, a field
 * deleted or of another type is dropped (the layout then asks for a field), end wins over
 * duration, the map's centre must be in range; the server's problems name every unfit key.
 */
import { describe, expect, it } from 'vitest';
import type { SchemaField } from '../../definitions/field-types/index.ts';
import { layoutSettingsProblems, validLayoutSettings } from '../../definitions/layout-settings.ts';

const schema: SchemaField[] = [
  { id: '1', name: 'Title', slug: 'title', type: 1 },
  { id: '2', name: 'Start', slug: 'start', type: 10 },
  { id: '3', name: 'End', slug: 'end', type: 10 },
  { id: '4', name: 'Minutes', slug: 'minutes', type: 3 },
  { id: '5', name: 'Status', slug: 'status', type: 7, options: [{ _id: 'a', value: 'A' }] },
  { id: '6', name: 'Place', slug: 'place', type: 13 },
  { id: '7', name: 'Steps', slug: 'steps', type: 12, nestedCollectionSchema: [] },
];

describe('validLayoutSettings', () => {
  it('keeps the calendar’s fitting keys and drops the rest', () => {
    expect(validLayoutSettings(schema, 'calendar', { layout: 'calendar', startKey: 'start', durationKey: 'minutes', titleKeys: ['title', 'gone', 'steps'], activeField: 'status' })).toEqual({
      layout: 'calendar',
      startKey: 'start',
      durationKey: 'minutes',
      titleKeys: ['title'],
    });
    expect(validLayoutSettings(schema, 'calendar', { startKey: 'title', endKey: 'end', durationKey: 'minutes' })).toEqual({ endKey: 'end' });
    expect(validLayoutSettings(schema, 'calendar', { startKey: 'start', durationKey: 'start' })).toEqual({ startKey: 'start' });
  });

  it('reads activeField as the kanban’s Option field and the map’s GeoPoint field', () => {
    expect(validLayoutSettings(schema, 'kanban', { activeField: 'status' })).toEqual({ activeField: 'status' });
    expect(validLayoutSettings(schema, 'kanban', { activeField: 'place' })).toEqual({});
    expect(validLayoutSettings(schema, 'map', { activeField: 'place', center: { lat: 10, lng: 20, zoom: 8 } })).toEqual({ activeField: 'place', center: { lat: 10, lng: 20, zoom: 8 } });
    expect(validLayoutSettings(schema, 'map', { activeField: 'status', center: { lat: 91, lng: 0 } })).toEqual({});
    expect(validLayoutSettings(schema, 'kanban', { activeField: 'gone' })).toEqual({});
  });

  it('treats a field whose type changed as unset', () => {
    const changed = schema.map((field) => (field.slug === 'status' ? { ...field, type: 1 } : field));
    expect(validLayoutSettings(changed, 'kanban', { activeField: 'status', titleKeys: ['status'] })).toEqual({ titleKeys: ['status'] });
  });
});

describe('layoutSettingsProblems', () => {
  it('names every unfit key', () => {
    expect(layoutSettingsProblems(schema, { startKey: 'start', endKey: 'end', activeField: 'place', titleKeys: ['title'] })).toEqual([]);
    expect(layoutSettingsProblems(schema, { startKey: 'minutes', endKey: 'end', durationKey: 'minutes', activeField: 'title', titleKeys: ['steps'], center: { lat: 0, lng: 200 } }).map((p) => p.path)).toEqual([
      'startKey',
      'durationKey',
      'activeField',
      'titleKeys.0',
      'center',
    ]);
  });
});
