/**
 * "A project with every field type", shared by the server tests that need one (CSV, item JSON,
 * backups, project transfer): a `people` collection to link to, and a `things` collection with
 * one field of every creatable type of the registry (definitions/field-types/index.ts) plus a
 * nested `parts` level holding a nested `bolts` level. Its slugs are fixed, so a test may name
 * them; `uncoveredFieldTypes` fails a test the day a type is added and not put here.
 */
import { expect } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { creatableFieldTypes, fieldTypes, type FieldTypeName, type SchemaField } from '../../../definitions/field-types/index.ts';
import { json } from './test-app.ts';
import type { ContentFixture } from './content.ts';

/** The code of the type with this name. */
export const code = (name: FieldTypeName): number => fieldTypes.find((type) => type.name === name)!.code;

/** A field as the create-collection call takes it. */
export interface FieldBody {
  name: string;
  slug: string;
  type: number;
  primaryField?: boolean;
  referenceCollectionID?: string;
  options?: { _id: string; value: string }[];
  nestedCollectionSchema?: FieldBody[];
}

/** The Option field's choices: one a CSV cell must quote, one a CSV export must neutralise. */
export const sizeOptions = [
  { _id: 's', value: 'Small, "tiny"' },
  { _id: 'm', value: '-Minus' },
];

/** `things.parts`: a name, a number, an image and a second nested level (`bolts`). */
export const partsSchema: FieldBody[] = [
  { name: 'Name', slug: 'name', type: code('PlainText') },
  { name: 'Qty', slug: 'qty', type: code('Number') },
  { name: 'Cover', slug: 'cover', type: code('ImageRef') },
  { name: 'Bolts', slug: 'bolts', type: code('NestedCollection'), nestedCollectionSchema: [{ name: 'Size', slug: 'size', type: code('Number') }] },
];

/** The fields of `things`: one of every creatable type (ItemRef links to `referenceCollectionID`), `parts` last. */
export function everyFieldTypeSchema(referenceCollectionID = 'people'): FieldBody[] {
  return [
    { name: 'Title', slug: 'title', type: code('PlainText'), primaryField: true },
    { name: 'Body', slug: 'body', type: code('RichText') },
    { name: 'Price', slug: 'price', type: code('Number') },
    { name: 'Phone', slug: 'phone', type: code('Phone') },
    { name: 'Image', slug: 'image', type: code('ImageRef') },
    { name: 'People', slug: 'people', type: code('ItemRef'), referenceCollectionID },
    { name: 'Size', slug: 'size', type: code('Option'), options: sizeOptions.map((option) => ({ ...option })) },
    { name: 'Live', slug: 'live', type: code('Bool') },
    { name: 'Site', slug: 'site', type: code('Link') },
    { name: 'When', slug: 'when', type: code('Date') },
    { name: 'Gallery', slug: 'gallery', type: code('ImageRefSet') },
    { name: 'Place', slug: 'place', type: code('GeoPoint') },
    { name: 'Data', slug: 'data', type: code('JSON') },
    { name: 'Parts', slug: 'parts', type: code('NestedCollection'), nestedCollectionSchema: partsSchema.map((field) => ({ ...field })) },
  ];
}

/** The names of the creatable types no field of this schema (nested levels included) has: [] when it covers them all. */
export function uncoveredFieldTypes(schema: readonly Pick<SchemaField, 'type' | 'nestedCollectionSchema'>[]): string[] {
  const used = new Set<number>();
  const walk = (fields: readonly Pick<SchemaField, 'type' | 'nestedCollectionSchema'>[]) => {
    for (const field of fields) {
      used.add(field.type);
      if (field.nestedCollectionSchema) walk(field.nestedCollectionSchema);
    }
  };
  walk(schema);
  return creatableFieldTypes.filter((type) => !used.has(type.code)).map((type) => type.name);
}

/**
 * A value for each field of `things` but the nested one: text with a comma, quotes, a line break
 * and non-ASCII, links to the given people, an external image (no stored file).
 */
export function fullValues(people: string[]): Record<string, unknown> {
  return {
    title: 'Alpha, "quoted"\nsecond line',
    body: '<p>Ünïcødé — 日本語 ✓</p>',
    price: 10.5,
    phone: '+1 (555) 0101',
    image: { imageURL: 'https://img.example/a.png', imageName: 'a.png', altText: 'An "a"', extension: 'png' },
    people: people.map((itemRefID) => ({ itemRefID })),
    size: { _id: 's' },
    live: true,
    site: 'https://alpha.example/?q=a,b',
    when: '2024-01-02T03:04:05.678Z',
    gallery: [
      { _id: 'g1', imageURL: 'https://img.example/1.png' },
      { _id: 'g2', imageURL: 'https://img.example/2.png', altText: 'two' },
    ],
    place: { lat: 48.8584, lng: 2.2945 },
    data: { nested: [1, 'two', { three: null }], ok: true },
  };
}

/** Five items: the first with every value, the others with some (nulls to sort and filter, ties on price). */
export function everyFieldTypeRows(people: string[]): Record<string, unknown>[] {
  return [
    fullValues(people),
    { title: 'Beta', price: 20, live: false, when: '2023-05-06T00:00:00.000Z', data: [1, 2, 3] },
    { title: 'Gamma', price: 5, phone: '5550303', people: people.slice(-1).map((itemRefID) => ({ itemRefID })), size: { _id: 'm' }, place: { lat: -33.8568, lng: 151.2153 } },
    { title: 'Delta' },
    { title: 'Epsilon', price: 20, body: 'plain' },
  ];
}

type Call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: unknown) => Promise<LightMyRequestResponse>;

export interface EveryFieldTypeProject {
  /** The `people` items' ids, in the order of the names given. */
  people: string[];
  /** The `things` collection as the create call answered it (its `schema` has the field ids). */
  things: Record<string, any>;
  /** The `things` items created: ids and the values written, in order. */
  items: { id: string; values: Record<string, unknown> }[];
  /** Creates an item (asserting 201) in `collection` and returns it. */
  item(collection: string, values: Record<string, unknown>): Promise<Record<string, any>>;
  /** Creates a part of a `things` item (asserting 201) and returns it. */
  part(thing: string, values: Record<string, unknown>): Promise<Record<string, any>>;
  /** Creates a bolt of a part (asserting 201) and returns it. */
  bolt(thing: string, part: string, values: Record<string, unknown>): Promise<Record<string, any>>;
}

/**
 * Creates `people` (one item per name) and `things` (`everyFieldTypeSchema`) through the API of a
 * project — `f` is a content fixture, or anything with its `call` — and the `things` items of
 * `rows` (by default `everyFieldTypeRows`), so they are stored exactly as the server stores them.
 */
export async function everyFieldTypeProject(
  f: Pick<ContentFixture, 'call'> | { call: Call },
  options: { people?: string[]; rows?: (people: string[]) => Record<string, unknown>[] } = {},
): Promise<EveryFieldTypeProject> {
  const call = f.call as Call;
  const post = async (path: string, body: unknown) => {
    const response = await call('POST', path, body);
    expect(response.statusCode, response.body).toBe(201);
    return json(response) as Record<string, any>;
  };
  await post('collection', { id: 'people', name: 'People', schema: [{ name: 'Name', slug: 'name', type: code('PlainText'), primaryField: true }] });
  const people: string[] = [];
  for (const name of options.people ?? ['Ada', 'Grace']) people.push((await post('collection/people/item', { name }))._id as string);
  const things = await post('collection', { id: 'things', name: 'Things', schema: everyFieldTypeSchema('people') });
  expect(uncoveredFieldTypes(things.schema as SchemaField[])).toEqual([]);
  const items: EveryFieldTypeProject['items'] = [];
  for (const values of (options.rows ?? everyFieldTypeRows)(people)) items.push({ id: (await post('collection/things/item', values))._id as string, values });
  return {
    people,
    things,
    items,
    item: (collection, values) => post(`collection/${collection}/item`, values),
    part: (thing, values) => post(`collection/things/item/${thing}?nestedID=parts`, values),
    bolt: (thing, part, values) => post(`collection/things/item/${thing}?nestedID=parts.${part}.bolts`, values),
  };
}
