/**
 * Property-based tests of the list query engine (fast-check): over random items of every
 * filterable type, random filters in every form (`query`, `filter`, `find`, search) and random
 * sorts and pages give exactly what an in-memory reference evaluator gives, on both databases.
 * Operators come from the field-type registry, so every operator of every type is exercised.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldType, fieldTypes } from '../../definitions/field-types/index.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { contentFixture, createCollection, createItem, type ContentFixture } from './support/content.ts';
import { haversine, matchFind, matchSearch, matchTerm, sortDocs, type Doc, type Kind, type Term } from './support/query-reference.ts';

const code = (name: string) => fieldTypes.find((t) => t.name === name)!.code;
const runs = Number(process.env.QUERY_PROPERTY_RUNS ?? 60);

const words = ['a', 'ab', 'Ab', 'abc', 'b a', 'B', 'ba', 'cab', 'a:b', 'x_y', '50%', 'aa', 'zz'];
const links = ['http://a.b', 'https://ab.c', 'a.b/c', 'x_y.z', 'ab', 'B.a'];
const numbers = [-2, -1, 0, 0.5, 1, 2, 3, 10];
const dates = ['2024-01-01T00:00:00.000Z', '2024-01-02T12:00:00.000Z', '2024-06-30T23:59:59.999Z', '1999-12-31T00:00:00.000Z'];
const places = [
  { lat: 48.85, lng: 2.29 },
  { lat: 48.86, lng: 2.34 },
  { lat: 51.5, lng: -0.12 },
  { lat: -33.86, lng: 151.2 },
  { lat: 0, lng: 179.9 },
];
const phones = ['5550101', '5550202', '123'];

/** The fields of the collection, with the kind the reference evaluator compares them as. */
const fields = [
  { slug: 'title', type: 'PlainText', kind: 'text', values: words },
  { slug: 'body', type: 'RichText', kind: 'text', values: words },
  { slug: 'site', type: 'Link', kind: 'text', values: links },
  { slug: 'phone', type: 'Phone', kind: 'text', values: phones },
  { slug: 'price', type: 'Number', kind: 'number', values: numbers },
  { slug: 'live', type: 'Bool', kind: 'bool', values: [true, false] },
  { slug: 'when', type: 'Date', kind: 'date', values: dates },
  { slug: 'size', type: 'Option', kind: 'option', values: ['a', 'b', 'c'] },
  { slug: 'people', type: 'ItemRef', kind: 'refs', values: [] },
  { slug: 'place', type: 'GeoPoint', kind: 'geo', values: places },
] as const;
const kinds: Record<string, Kind> = Object.fromEntries(fields.map((f) => [f.slug, f.kind]));
const operatorsOf = (type: string) => fieldType(code(type))!.filterOperators;

describe.each(databaseKinds)('list query properties on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let people: { _id: string; name: string }[];
  let docs: Doc[];

  async function listIds(params: string, path = 'collection/things/item') {
    const response = await f.call('GET', `${path}?${params}`);
    expect(response.statusCode, `${params}\n${response.body}`).toBe(200);
    return { ids: (json(response) as Doc[]).map((d) => d._id as string), count: Number(response.headers['item-count']) };
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await contentFixture(t);
    await createCollection(f, { id: 'people', name: 'People', schema: [{ name: 'Name', slug: 'name', type: code('PlainText'), primaryField: true }] });
    people = [];
    for (const name of ['Ann', 'Bob', 'ann', 'Cy', 'Dee "Q" \\ Eve', 'Zed \\']) people.push({ _id: (await createItem(f, 'people', { name }))._id, name });
    await createCollection(f, {
      id: 'things',
      name: 'Things',
      schema: [
        ...fields.map((field) => ({
          name: field.slug,
          slug: field.slug,
          type: code(field.type),
          ...(field.type === 'Option' ? { options: ['a', 'b', 'c'].map((id) => ({ _id: id, value: id.toUpperCase() })) } : {}),
          ...(field.type === 'ItemRef' ? { referenceCollectionID: 'people' } : {}),
        })),
        {
          name: 'Parts',
          slug: 'parts',
          type: code('NestedCollection'),
          nestedCollectionSchema: [
            { name: 'Label', slug: 'label', type: code('PlainText') },
            { name: 'Qty', slug: 'qty', type: code('Number') },
          ],
        },
      ],
    });
    const optional = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 3 });
    const itemArb = fc.record({
      ...Object.fromEntries(
        fields.filter((field) => field.kind !== 'refs').map((field) => [field.slug, optional(fc.constantFrom<unknown>(...field.values))]),
      ),
      people: optional(fc.subarray(people.map((p) => p._id), { minLength: 1 })),
      parts: fc.array(fc.record({ label: optional(fc.constantFrom(...words)), qty: optional(fc.constantFrom(...numbers)) }), { maxLength: 2 }),
    });
    const items = fc.sample(itemArb, { numRuns: 40, seed: 20261122 });
    for (const item of items) {
      const { parts, people: refs, size, ...rest } = item as Record<string, any>;
      const body = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined));
      if (refs) body.people = refs.map((itemRefID: string) => ({ itemRefID }));
      if (size) body.size = { _id: size };
      const created = await createItem(f, 'things', body);
      for (const part of parts) await createItem(f, 'things', Object.fromEntries(Object.entries(part).filter(([, v]) => v !== undefined)), { item: created._id, nestedID: 'parts' });
    }
    const all = await f.call('GET', 'collection/things/item?perPage=1000&projectOn=' + ['_id', '_createdDate', '_lastUpdatedDate', '_order', '_rank', ...fields.map((x) => x.slug), 'parts'].join(','));
    docs = json(all) as Doc[];
    expect(docs).toHaveLength(40);
  });
  afterAll(() => t.close());

  const rankOrder = () => sortDocs(docs, undefined, false).map((d) => d._id as string);
  /** Runs whose answer was neither empty nor everything: the properties must mostly test those. */
  let telling = 0;
  const expectIds = (result: { ids: string[]; count: number }, matching: (d: Doc) => boolean, context: string) => {
    const expected = rankOrder().filter((id) => matching(docs.find((d) => d._id === id)!));
    if (expected.length > 0 && expected.length < docs.length) telling++;
    expect(result.ids, context).toEqual(expected);
    expect(result.count, context).toBe(expected.length);
  };

  const patternArb = fc
    .tuple(
      fc.boolean(),
      fc.array(fc.constantFrom('a', 'b', 'A', '.', '[ab]', 'a*', '(a|b)', 'x?', '\\.', ' ', ':', '%', '_', '[^a]', '\\w'), { minLength: 1, maxLength: 3 }),
      fc.boolean(),
    )
    .map(([start, parts, end]) => `${start ? '^' : ''}${parts.join('')}${end ? '$' : ''}`);

  /** A term on a random field with an operator its type allows (from the registry) and a value from its domain. */
  const termArb: fc.Arbitrary<Term> = fc
    .constantFrom(...fields.filter((field) => operatorsOf(field.type).length > 0))
    .chain((field) =>
      fc.constantFrom(...operatorsOf(field.type)).chain((op): fc.Arbitrary<Term> => {
        const term = (value: fc.Arbitrary<string>) => value.map((v) => ({ key: field.kind === 'refs' ? `${field.slug}.itemRefID` : field.slug, kind: field.kind as Kind, op, value: v }));
        if (op === 'regex') return term(patternArb);
        if (field.kind === 'refs') return term(fc.subarray(people.map((p) => p._id), { minLength: 1 }).map((ids) => ids.join(',')));
        if (field.kind === 'geo') {
          const circle = fc.tuple(fc.constantFrom(...places), fc.constantFrom(0, 1000, 5000, 400_000, 20_000_000)).map(([p, m]) => `${p.lat},${p.lng},${m}`);
          const box = fc
            .tuple(fc.integer({ min: -90, max: 89 }), fc.integer({ min: -180, max: 180 }), fc.integer({ min: 1, max: 90 }), fc.integer({ min: -180, max: 180 }))
            .map(([a, b, h, d]) => `${a},${b},${Math.min(90, a + h)},${d}`);
          return term(fc.oneof(circle, box));
        }
        if (field.kind === 'date') return term(fc.oneof(fc.constantFrom(...dates), fc.constantFrom(...dates).map((d) => String(Date.parse(d) / 1000))));
        return term(fc.constantFrom(...field.values.map(String)));
      }),
    );

  /** A term on a system key with the operators the engine gives them and values taken from the items. */
  const systemTermArb: fc.Arbitrary<Term> = fc.constantFrom('_id', '_createdDate', '_order', '_rank').chain((key) => {
    const ops = key === '_id' ? ['=', '!=', '>', '<', 'regex'] : ['=', '!=', '>', '<'];
    const kindOfKey: Kind = key === '_createdDate' ? 'date' : key === '_order' ? 'number' : 'text';
    return fc.tuple(fc.constantFrom(...ops), fc.integer({ min: 0, max: 39 }), patternArb).map(([op, i, pattern]) => {
      const value = op === 'regex' ? pattern.replace(/[^a-f0-9^$.*]/g, '') || 'a' : String(docs[i]![key]);
      return { key, kind: kindOfKey, op, value };
    });
  });

  it('query and filter terms of every operator on every type match the reference', async () => {
    telling = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof({ arbitrary: termArb, weight: 4 }, { arbitrary: systemTermArb, weight: 1 }), { minLength: 1, maxLength: 3 }), fc.boolean(), async (termList, asFilter) => {
        const params = asFilter
          ? new URLSearchParams({
              perPage: '1000',
              filter: JSON.stringify(
                termList.map((term) =>
                  term.kind === 'refs'
                    ? { fieldName: 'People', key: 'people', operator: term.op, refFilterVal: term.value.split(',').map((itemRefID) => ({ itemRefID })) }
                    : { fieldName: term.key, key: term.key, operator: term.op, filterValue: term.value },
                ),
              ),
            }).toString()
          : `perPage=1000&query=${termList.map((term) => encodeURIComponent(`${term.key}:${term.op}:${term.value}`)).join('%2B')}`;
        expectIds(await listIds(params), (d) => termList.every((term) => matchTerm(d, term)), params);
      }),
      { numRuns: 2 * runs, seed: 7 },
    );
    expect(telling).toBeGreaterThan(runs / 3);
  });

  /** A random `find` document over every field, `$and`/`$or` and `$elemMatch` on the nested list. */
  const findArb: fc.Arbitrary<Record<string, unknown>> = fc.letrec<{ node: Record<string, unknown>; leaf: Record<string, unknown> }>((tie) => ({
    leaf: fc.oneof(
      fc.constantFrom(...fields.filter((field) => operatorsOf(field.type).some((op) => op !== 'within'))).chain((field) => {
        const ops = operatorsOf(field.type);
        const key = field.kind === 'refs' ? 'people.itemRefID' : field.slug;
        const scalar: fc.Arbitrary<unknown> =
          field.kind === 'refs'
            ? fc.constantFrom(...people.map((p) => p._id))
            : field.kind === 'date'
              ? fc.oneof(fc.constantFrom(...dates), fc.constantFrom('Date(2024-01-01)', 'Date(2024-01-02)'))
              : fc.constantFrom(...field.values);
        const choices: fc.Arbitrary<Record<string, unknown>>[] = [fc.boolean().map((b) => ({ [key]: { $exists: b } })), fc.constant({ [key]: null })];
        if (ops.includes('=')) {
          choices.push(scalar.map((v) => ({ [key]: v })));
          choices.push(fc.tuple(fc.constantFrom('$eq', '$ne'), scalar).map(([op, v]) => ({ [key]: { [op]: v } })));
          choices.push(fc.tuple(fc.constantFrom('$in', '$nin'), fc.array(scalar, { maxLength: 3 })).map(([op, v]) => ({ [key]: { [op]: v } })));
        }
        if (ops.includes('>')) {
          choices.push(
            fc
              .tuple(fc.subarray(['$gt', '$gte', '$lt', '$lte'], { minLength: 1, maxLength: 2 }), scalar, scalar)
              .map(([opList, a, b]) => ({ [key]: Object.fromEntries(opList.map((op, i) => [op, i ? b : a])) })),
          );
        }
        if (ops.includes('regex')) {
          choices.push(fc.tuple(patternArb, fc.constantFrom(undefined, 'i', '')).map(([p, o]) => ({ [key]: o === undefined ? { $regex: p } : { $regex: p, $options: o } })));
        }
        return fc.oneof(...choices);
      }),
      fc
        .record({
          label: fc.option(fc.oneof(fc.constantFrom(...words), patternArb.map((p) => ({ $regex: p }))), { nil: undefined }),
          qty: fc.option(fc.oneof(fc.constantFrom(...numbers), fc.constantFrom(...numbers).map((n) => ({ $gte: n }))), { nil: undefined }),
        })
        .map((c) => ({ parts: { $elemMatch: Object.fromEntries(Object.entries(c).filter(([, v]) => v !== undefined)) } })),
    ),
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      tie('leaf'),
      fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((of) => ({ $and: of })),
      fc.array(tie('node'), { minLength: 1, maxLength: 3 }).map((of) => ({ $or: of })),
      fc.tuple(tie('leaf'), tie('leaf')).map(([a, b]) => (Object.keys(a)[0] === Object.keys(b)[0] ? a : { ...a, ...b })),
    ),
  })).node;

  it('find documents with every operator match the reference', async () => {
    telling = 0;
    await fc.assert(
      fc.asyncProperty(findArb, async (find) => {
        const params = new URLSearchParams({ perPage: '1000', find: JSON.stringify(find) }).toString();
        expectIds(await listIds(params), (d) => matchFind(d, find, { ...kinds, 'people.itemRefID': 'refs' }, { parts: { label: 'text', qty: 'number' } }), JSON.stringify(find));
      }),
      { numRuns: 2 * runs, seed: 11 },
    );
    expect(telling).toBeGreaterThan(runs / 2);
  });

  it('search terms match the reference (ids, text fields, numbers, linked items)', async () => {
    telling = 0;
    const termPool = [...words, ...links, ...phones, ...numbers.map(String), 'ANN', 'Ann', 'ann', 'Bob', 'B.A', '555', '%', '_', '.', 'nN', 'OB', '"q"', '\\', '"q" \\ e', '", "', 'nn", "b', 'ann, bob', '"', 'd \\'];
    await fc.assert(
      fc.asyncProperty(fc.array(fc.oneof(fc.constantFrom(...termPool), fc.constantFrom(...docs.map((d) => d._id as string))), { minLength: 1, maxLength: 3 }), async (termList) => {
        const search = termList.join(' | ');
        const result = await listIds(new URLSearchParams({ query: search, perPage: '1000' }).toString(), 'collection/things/search');
        expectIds(result, (d) => matchSearch(d, search, { text: ['title', 'body', 'site', 'phone'], numbers: ['price'], refs: ['people'] }), search);
      }),
      { numRuns: runs, seed: 13 },
    );
    expect(telling).toBeGreaterThan(runs / 3);
    // Display values are searched through the JSON text of each item's list of them: terms that meet
    // that text's quoting (a name ending in a backslash, then the closing quote) must still match only values.
    for (const search of ['"', '\\"', 'e, z', '"q"']) {
      const result = await listIds(new URLSearchParams({ query: search, perPage: '1000' }).toString(), 'collection/things/search');
      expectIds(result, (d) => matchSearch(d, search, { text: ['title', 'body', 'site', 'phone'], numbers: ['price'], refs: ['people'] }), search);
    }
  });

  it('within matches the reference near the poles, across the antimeridian and for circles of any size (top level and nested)', async () => {
    // Points where the GiST index's bounding boxes are hardest to get right: at and near the poles
    // and the antimeridian (both -180 and 180), and scattered ones; some items have no place.
    const edge = [
      [90, 0], [89.99, 45], [-90, 0], [-89.9, -120], [89.5, 179.99], [-88, 180], [0, 180], [0, -180], [10, 179.95],
      [-10, -179.95], [45, 179.5], [45, -179.5], [0.0001, 179.9999], [60, -179.99], [-60, 179.99], [0, 0], [-45, 90],
    ].map(([lat, lng]) => ({ lat: lat!, lng: lng! }));
    const coordinate = (max: number) => fc.integer({ min: -max * 10_000, max: max * 10_000 }).map((n) => n / 10_000);
    const scattered = fc.sample(fc.record({ lat: coordinate(90), lng: coordinate(180) }), { numRuns: 30, seed: 20261124 });
    const points = [...edge, ...scattered];
    await createCollection(f, {
      id: 'spots',
      name: 'Spots',
      schema: [
        { name: 'Place', slug: 'place', type: code('GeoPoint') },
        { name: 'Visits', slug: 'visits', type: code('NestedCollection'), nestedCollectionSchema: [{ name: 'At', slug: 'at', type: code('GeoPoint') }] },
      ],
    });
    const spots: Doc[] = [];
    for (const place of [...points, null, undefined]) spots.push(await createItem(f, 'spots', place === undefined ? {} : { place }));
    const hub = spots[0]!._id as string;
    const visits: Doc[] = [];
    for (const at of [...points.filter((_, i) => i % 2 === 0), null]) visits.push(await createItem(f, 'spots', { at }, { item: hub, nestedID: 'visits' }));

    const near = (lat: fc.Arbitrary<number>, lng: fc.Arbitrary<number>) => fc.tuple(lat, lng);
    const centre = fc.oneof(
      fc.constantFrom(...points).map((p) => [p.lat, p.lng] as [number, number]),
      near(coordinate(90), coordinate(180)),
      near(fc.integer({ min: 800_000, max: 900_000 }).map((n) => n / 10_000), coordinate(180)),
      near(fc.integer({ min: -900_000, max: -800_000 }).map((n) => n / 10_000), coordinate(180)),
      near(coordinate(80), fc.oneof(fc.integer({ min: 1_700_000, max: 1_800_000 }), fc.integer({ min: -1_800_000, max: -1_700_000 })).map((n) => n / 10_000)),
    );
    const meters = fc.oneof(
      fc.constantFrom(0, 1, 1000, 100_000, 1_000_000, 5_000_000, 10_000_000, 15_000_000, 19_900_000, 20_015_000, 20_015_086, 20_100_000, 40_000_000),
      fc.integer({ min: 0, max: 21_000_000 }),
    );
    // Circles through a point (just holding it, or just missing it): the bounding boxes must not cut them.
    const edgeCircle = fc
      .tuple(centre, fc.constantFrom(...points), fc.constantFrom(1.000001, 0.999999))
      .map(([[lat, lng], p, factor]) => `${lat},${lng},${haversine(lat, lng, p.lat, p.lng) * factor}`);
    // Circles holding a point at their widest longitude (where a too narrow box would cut them): the
    // centre of the circle of angular radius d whose easternmost (or westernmost) point is p.
    const rad = Math.PI / 180;
    const widestCircle = fc
      .tuple(fc.constantFrom(...points), fc.integer({ min: 1, max: 8_000 }), fc.constantFrom(1, -1), fc.constantFrom(1.000001, 0.999999))
      .filter(([p, d]) => Math.abs(Math.asin(Math.sin(p.lat * rad) * Math.cos((d / 100) * rad)) / rad) + d / 100 < 89.9)
      .map(([p, hundredths, side, factor]) => {
        const d = (hundredths / 100) * rad;
        const lat = Math.asin(Math.sin(p.lat * rad) * Math.cos(d));
        let lng = p.lng - side * (Math.asin(Math.sin(d) / Math.cos(lat)) / rad);
        if (lng < -180) lng += 360;
        if (lng > 180) lng -= 360;
        return `${lat / rad},${lng},${haversine(lat / rad, lng, p.lat, p.lng) * factor}`;
      });
    const circle = fc.oneof(
      fc.tuple(centre, meters).map(([[lat, lng], m]) => `${lat},${lng},${m}`),
      edgeCircle,
      widestCircle,
    );
    const box = fc
      .tuple(coordinate(90), coordinate(90), coordinate(180), coordinate(180))
      .map(([a, b, c, d]) => `${Math.min(a, b)},${c},${Math.max(a, b)},${d}`);
    const crossing = fc
      .tuple(coordinate(90), fc.integer({ min: 1, max: 900_000 }), fc.integer({ min: 0, max: 1_800_000 }), fc.integer({ min: -1_800_000, max: 0 }))
      .map(([a, h, c, d]) => `${a},${c / 10_000},${Math.min(90, a + h / 10_000)},${d / 10_000}`);
    telling = 0;
    await fc.assert(
      fc.asyncProperty(fc.oneof(circle, box, crossing), async (shape) => {
        const term: Term = { key: 'place', kind: 'geo', op: 'within', value: shape };
        const params = `perPage=1000&query=${encodeURIComponent(`place:within:${shape}`)}`;
        const result = await listIds(params, 'collection/spots/item');
        const expected = spots.filter((d) => matchTerm(d, term)).map((d) => d._id as string);
        if (expected.length > 0 && expected.length < spots.length) telling++;
        expect([...result.ids].sort(), shape).toEqual([...expected].sort());
        expect(result.count, shape).toBe(expected.length);
        const nested = await listIds(`nestedID=visits&perPage=1000&query=${encodeURIComponent(`at:within:${shape}`)}`, `collection/spots/item/${hub}`);
        const expectedNested = visits.filter((d) => matchTerm(d, { ...term, key: 'at' })).map((d) => d._id as string);
        expect([...nested.ids].sort(), `nested ${shape}`).toEqual([...expectedNested].sort());
      }),
      { numRuns: 3 * runs, seed: 19 },
    );
    expect(telling).toBeGreaterThan(runs);
  });

  it('sorting by any sortable key, either way, and paging match the reference', async () => {
    const sortable = [
      ...fields.filter((field) => fieldType(code(field.type))!.capabilities.sortable).map((field) => ({ key: field.slug, kind: field.kind as Kind | 'system' })),
      ...['_id', '_createdDate', '_order', '_rank'].map((key) => ({ key, kind: 'system' as const })),
    ];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...sortable), fc.constantFrom('asc', 'DESC', 'Asc', 'desc'), fc.integer({ min: 1, max: 15 }), fc.integer({ min: 1, max: 5 }), async (sort, order, perPage, pageNumber) => {
        const params = `sort=${sort.key}&order=${order}&perPage=${perPage}&pageNumber=${pageNumber}`;
        const result = await listIds(params);
        const all = sortDocs(docs, sort.key, order.toLowerCase() === 'desc', sort.kind).map((d) => d._id as string);
        expect(result.ids, params).toEqual(all.slice((pageNumber - 1) * perPage, pageNumber * perPage));
        expect(result.count).toBe(docs.length);
      }),
      { numRuns: runs, seed: 17 },
    );
  });
});
