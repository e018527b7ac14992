/**
 * Property tests of every field type with a stored form: a valid value survives validation
 * unchanged once normalised (validation is idempotent), and its CSV cell reads back to the same
 * stored value. Generators deliberately include text PostgreSQL cannot store.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fieldTypes, type FieldType, type SchemaField } from '../../definitions/field-types/index.ts';
import { unstorableText } from '../../definitions/field-types/support.ts';

const typeNamed = (name: string) => fieldTypes.find((t) => t.name === name)!;
const fieldOf = (type: FieldType, extra: Partial<SchemaField> = {}): SchemaField => ({ id: 'f', name: 'F', slug: 'f', type: type.code, ...extra });

/** Validates, then (for ItemRef) fills display values as the server would. */
function store(type: FieldType, value: unknown, field: SchemaField) {
  const checked = type.validate(value, field);
  if (!checked.ok || checked.value === null || type.name !== 'ItemRef') return checked;
  return { ok: true as const, value: (checked.value as { itemRefID: string }[]).map((ref) => ({ ...ref, value: `#${ref.itemRefID.slice(0, 4)}` })) };
}

/** CSV cell → written value → stored value. */
function throughCsv(type: FieldType, stored: unknown, field: SchemaField) {
  const cell = type.csv!.toCell(stored, field);
  const read = type.csv!.fromCell(cell, field);
  if (!read.ok) throw new Error(`${type.name}: cell ${JSON.stringify(cell)} not read back: ${read.code}`);
  return read.value === null ? null : store(type, read.value, field);
}

function roundTrip(name: string, arbitrary: fc.Arbitrary<unknown>, extra: Partial<SchemaField> = {}) {
  const type = typeNamed(name);
  const field = fieldOf(type, extra);
  it(`${name}: valid values are stable under validation and survive the CSV round trip`, () => {
    fc.assert(
      fc.property(arbitrary, (value) => {
        const first = store(type, value, field);
        if (!first.ok) throw new Error(`${name} refused ${JSON.stringify(value)}: ${first.code}`);
        if (first.value === null) return;
        const again = store(type, first.value, field);
        expect(again).toEqual(first);
        expect(throughCsv(type, first.value, field)).toEqual(first);
      }),
      { numRuns: 200 },
    );
  });
}

const hexId = fc.stringMatching(/^[0-9a-f]{24}$/);
const storableText = (maxLength: number) => fc.string({ unit: 'grapheme', minLength: 1, maxLength }).filter((s) => !unstorableText(s));
const image = fc.record(
  { imageURL: fc.webUrl(), imageName: fc.string({ maxLength: 30 }), altText: fc.string({ maxLength: 60 }), extension: fc.constantFrom('png', 'jpg', 'pdf') },
  { requiredKeys: ['imageURL'] },
);
const options = [
  { _id: 'a1', value: 'Small' },
  { _id: 'b2', value: 'Medium, large' },
  { _id: 'c3', value: '"Quoted"' },
];

describe('field types: round trips', () => {
  roundTrip('PlainText', storableText(300));
  roundTrip('RichText', storableText(500).map((s) => `<p>${s}</p>`));
  roundTrip('Number', fc.double({ noNaN: true, noDefaultInfinity: true }));
  roundTrip('Phone', fc.stringMatching(/^[0-9]{1,32}$/));
  roundTrip('ImageRef', image);
  roundTrip('ItemRef', fc.uniqueArray(hexId, { minLength: 1, maxLength: 20 }).map((ids) => ids.map((itemRefID) => ({ itemRefID }))), {
    referenceCollectionID: 'authors',
  });
  roundTrip('Option', fc.constantFrom(...options).map(({ _id }) => ({ _id })), { options });
  roundTrip('Bool', fc.boolean());
  roundTrip('Link', fc.webUrl({ withQueryParameters: true, withFragments: true }).filter((url) => url.length <= 256));
  roundTrip(
    'Date',
    fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true }).map((d) => d.toISOString()),
  );
  roundTrip('ImageRefSet', fc.array(image, { minLength: 1, maxLength: 8 }));
  roundTrip('GeoPoint', fc.record({ lat: fc.double({ min: -90, max: 90, noNaN: true }), lng: fc.double({ min: -180, max: 180, noNaN: true }) }));
  roundTrip('JSON', fc.jsonValue().filter((v) => v !== null && JSON.stringify(v).length < 20_000 && !JSON.stringify(v).includes('\\u0000')));

  it('every type with a CSV form is covered above', () => {
    const covered = ['PlainText', 'RichText', 'Number', 'Phone', 'ImageRef', 'ItemRef', 'Option', 'Bool', 'Link', 'Date', 'ImageRefSet', 'GeoPoint', 'JSON'];
    expect(fieldTypes.filter((t) => t.csv).map((t) => t.name).sort()).toEqual(covered.sort());
  });
});

describe('field types: validation properties', () => {
  it('text types accept exactly the strings PostgreSQL can store', () => {
    for (const name of ['PlainText', 'RichText']) {
      const type = typeNamed(name);
      fc.assert(
        fc.property(fc.string({ unit: 'binary', maxLength: 60 }), (text) => {
          expect(type.validate(text, fieldOf(type)).ok).toBe(unstorableText(text) === undefined);
        }),
      );
    }
  });

  it('no validation throws, whatever JSON it is given', () => {
    fc.assert(
      fc.property(fc.constantFrom(...fieldTypes), fc.jsonValue(), (type, value) => {
        const result = type.validate(value, fieldOf(type, { options }));
        expect(typeof result.ok).toBe('boolean');
      }),
      { numRuns: 1000 },
    );
  });

  it('numbers are accepted iff finite, and their cells read back exactly', () => {
    const type = typeNamed('Number');
    fc.assert(
      fc.property(fc.double(), (n) => {
        const result = type.validate(n, fieldOf(type));
        expect(result.ok).toBe(Number.isFinite(n));
        if (result.ok) expect(type.csv!.fromCell(type.csv!.toCell(result.value, fieldOf(type)), fieldOf(type))).toEqual({ ok: true, value: result.value });
      }),
    );
  });

  it('phones keep their digits in order, whatever else surrounds them', () => {
    const type = typeNamed('Phone');
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.stringMatching(/^[0-9]$/), fc.constantFrom(' ', '-', '(', ')', '+', '.')), { minLength: 1, maxLength: 40 }), (parts) => {
        const text = parts.join('');
        const digits = text.replace(/\D/g, '');
        const result = type.validate(text, fieldOf(type));
        if (text.trim() === '') expect(result).toEqual({ ok: true, value: null });
        else if (digits === '' || digits.length > 32) expect(result.ok).toBe(false);
        else expect(result).toEqual({ ok: true, value: digits });
      }),
    );
  });

  it('geo points are accepted iff both coordinates are in range', () => {
    const type = typeNamed('GeoPoint');
    fc.assert(
      fc.property(fc.double({ noNaN: true }), fc.double({ noNaN: true }), (lat, lng) => {
        const inRange = Number.isFinite(lat) && Number.isFinite(lng) && Math.abs(lat) <= 90 && Math.abs(lng) <= 180;
        expect(type.validate({ lat, lng }, fieldOf(type)).ok).toBe(inRange);
      }),
    );
  });

  it('dates are read back as the same instant whatever offset they were written in', () => {
    const type = typeNamed('Date');
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1000-01-01T00:00:00Z'), max: new Date('9000-01-01T00:00:00Z'), noInvalidDate: true }),
        fc.integer({ min: -14 * 60, max: 14 * 60 }),
        (instant, offsetMinutes) => {
          const local = new Date(instant.getTime() + offsetMinutes * 60_000).toISOString().slice(0, 23);
          const sign = offsetMinutes < 0 ? '-' : '+';
          const abs = Math.abs(offsetMinutes);
          const written = `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
          expect(type.validate(written, fieldOf(type))).toEqual({ ok: true, value: instant.toISOString() });
        },
      ),
    );
  });
});
