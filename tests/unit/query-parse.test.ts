/**
 * The list query parser (server/content/query/parse.ts): every parameter, and every bad input
 * answered with a 400 problem naming the parameter and its bad part (never a crash).
 */
import { describe, expect, it } from 'vitest';
import { fieldTypes } from '../../definitions/field-types/index.ts';
import type { SchemaField } from '../../definitions/field-types/index.ts';
import { AppError } from '../../server/lib/errors.ts';
import { parseListQuery, type RawListParams } from '../../server/content/query/parse.ts';
import { checkRegex } from '../../server/content/query/regex.ts';
import { topLevel } from '../../server/content/schema-tree.ts';

const code = (name: string) => fieldTypes.find((t) => t.name === name)!.code;
const hex = (n: number) => n.toString(16).padStart(24, '0');
const field = (n: number, slug: string, type: string, extra: Partial<SchemaField> = {}): SchemaField => ({ id: hex(n), name: slug, slug, type: code(type), ...extra });

const schema: SchemaField[] = [
  { id: '_metadata', name: 'Metadata', slug: '_metadata', type: 100 },
  field(1, 'title', 'PlainText'),
  field(2, 'body', 'RichText'),
  field(3, 'price', 'Number'),
  field(4, 'phone', 'Phone'),
  field(5, 'cover', 'ImageRef'),
  field(6, 'authors', 'ItemRef', { referenceCollectionID: 'authors' }),
  field(7, 'size', 'Option', { options: [{ _id: 's', value: 'Small' }] }),
  field(8, 'live', 'Bool'),
  field(9, 'site', 'Link'),
  field(10, 'when', 'Date'),
  field(11, 'gallery', 'ImageRefSet'),
  field(12, 'parts', 'NestedCollection', { nestedCollectionSchema: [field(20, 'label', 'PlainText'), field(21, 'qty', 'Number')] }),
  field(13, 'place', 'GeoPoint'),
  field(14, 'extra', 'JSON'),
];
const level = topLevel(hex(99), schema);
const parse = (raw: RawListParams) => parseListQuery(level, raw);

/** Asserts the parse fails with a 400 of this code whose error path starts with `path`. */
function refused(raw: RawListParams, errorCode: string, path: string) {
  let caught: unknown;
  try {
    parse(raw);
  } catch (error) {
    caught = error;
  }
  expect(caught, JSON.stringify(raw)).toBeInstanceOf(AppError);
  const error = caught as AppError;
  expect(error.status).toBe(400);
  expect(error.code, error.message).toBe(errorCode);
  expect(error.extra.errors?.[0]?.path, error.message).toBe(`querystring.${path}`);
  return error;
}

describe('paging', () => {
  it('defaults to page 1 of 50 and reads numbers or digit strings', () => {
    expect(parse({})).toMatchObject({ pageNumber: 1, perPage: 50, sort: undefined, desc: false, where: undefined });
    expect(parse({ pageNumber: '3', perPage: '20' })).toMatchObject({ pageNumber: 3, perPage: 20 });
    expect(parse({ pageNumber: 2, perPage: 0 })).toMatchObject({ pageNumber: 2, perPage: 0 });
    expect(parse({ perPage: '1000' }).perPage).toBe(1000);
    expect(parseListQuery(level, {}, { perPage: 100 }).perPage).toBe(100);
  });
  it.each([['-1'], ['1001'], ['abc'], ['1.5'], [-3], [2.5], ['1e3'], [' ']])('refuses perPage %j', (perPage) => {
    refused({ perPage }, 'invalid_query', 'perPage');
  });
  it.each([['0'], ['-2'], ['x'], ['1000001']])('refuses pageNumber %j', (pageNumber) => {
    refused({ pageNumber }, 'invalid_query', 'pageNumber');
  });
});

describe('sort and order', () => {
  it('sorts by sortable fields and system keys, in either order of any case', () => {
    for (const key of ['title', 'price', 'live', 'site', 'when', 'phone', '_id', '_createdDate', '_lastUpdatedDate', '_order', '_rank']) {
      expect(parse({ sort: key }).sort?.key).toBe(key);
    }
    expect(parse({ sort: 'price', order: 'DESC' }).desc).toBe(true);
    expect(parse({ sort: 'price', order: 'Asc' }).desc).toBe(false);
    expect(parse({ order: 'desc' })).toMatchObject({ sort: undefined, desc: true });
  });
  it('refuses unknown and unsortable keys and unknown orders', () => {
    refused({ sort: 'nope' }, 'unknown_field', 'sort');
    for (const key of ['body', 'authors', 'size', 'place', 'extra', 'cover', 'parts', 'authors.itemRefID']) refused({ sort: key }, key === 'parts' ? 'unknown_field' : 'invalid_query', 'sort');
    refused({ sort: 'price', order: 'up' }, 'invalid_query', 'order');
    refused({ sort: ['a', 'b'] }, 'invalid_query', 'sort');
  });
});

describe('query', () => {
  it('splits terms on + and each at its first two colons', () => {
    const q = parse({ query: 'title:=:a:b:c+price:>:5+when:<:2024-01-01T10:00:00Z' });
    expect(q.where).toMatchObject({
      k: 'and',
      of: [
        { k: 'cmp', op: '=', v: 'a:b:c', t: { key: 'title' } },
        { k: 'cmp', op: '>', v: 5, t: { key: 'price' } },
        { k: 'cmp', op: '<', v: '2024-01-01T10:00:00.000Z', t: { key: 'when' } },
      ],
    });
  });
  it('reads every operator on the types that take it', () => {
    expect(parse({ query: 'title:regex:^ab' }).where).toMatchObject({ k: 'regex', pattern: '^ab', ci: true });
    expect(parse({ query: 'live:=:true' }).where).toMatchObject({ k: 'cmp', v: true });
    expect(parse({ query: 'live:!=:false' }).where).toMatchObject({ k: 'cmp', op: '!=', v: false });
    expect(parse({ query: 'size:=:s' }).where).toMatchObject({ k: 'cmp', v: 's', t: { member: '_id' } });
    expect(parse({ query: 'site:!=:x' }).where).toMatchObject({ k: 'cmp', op: '!=' });
    expect(parse({ query: 'body:regex:hello' }).where).toMatchObject({ k: 'regex' });
    expect(parse({ query: 'when:>:1700000000' }).where).toMatchObject({ v: new Date(1700000000 * 1000).toISOString() });
    expect(parse({ query: 'when:=:Date(2024-02-03)' }).where).toMatchObject({ v: '2024-02-03T00:00:00.000Z' });
    expect(parse({ query: `authors.itemRefID:=:${hex(1)},${hex(2)}` }).where).toMatchObject({ k: 'refs', ids: [hex(1), hex(2)], neg: false });
    expect(parse({ query: `authors.itemRefID:!=:${hex(1)}` }).where).toMatchObject({ k: 'refs', neg: true });
    expect(parse({ query: 'place:within:48.85,2.29,1000' }).where).toMatchObject({ k: 'within', shape: { circle: { lat: 48.85, lng: 2.29, meters: 1000 } } });
    expect(parse({ query: 'place:within:40,-5,50,10' }).where).toMatchObject({ shape: { box: { minLat: 40, minLng: -5, maxLat: 50, maxLng: 10 } } });
    expect(parse({ query: '_id:=:abc+_createdDate:>:2020-01-01' }).where).toMatchObject({ k: 'and' });
  });
  it('refuses unknown fields, unknown operators and operators the type does not take', () => {
    refused({ query: 'nope:=:1' }, 'unknown_field', 'query.0');
    refused({ query: 'title:=:a+nope:=:1' }, 'unknown_field', 'query.1');
    refused({ query: 'title:~:a' }, 'invalid_query', 'query.0');
    refused({ query: 'title:>:a' }, 'operator_not_allowed', 'query.0');
    refused({ query: 'price:regex:1' }, 'operator_not_allowed', 'query.0');
    refused({ query: 'live:>:true' }, 'operator_not_allowed', 'query.0');
    refused({ query: 'phone:=:123' }, 'operator_not_allowed', 'query.0');
    refused({ query: 'extra:=:1' }, 'operator_not_allowed', 'query.0');
    refused({ query: 'cover:=:1' }, 'operator_not_allowed', 'query.0');
    refused({ query: 'place:=:1' }, 'operator_not_allowed', 'query.0');
    refused({ query: 'title:within:1,2,3' }, 'operator_not_allowed', 'query.0');
    refused({ query: 'parts:=:1' }, 'unknown_field', 'query.0');
  });
  it('refuses malformed terms and values', () => {
    refused({ query: 'title' }, 'invalid_query', 'query.0');
    refused({ query: 'title:=' }, 'invalid_query', 'query.0');
    refused({ query: 'price:=:abc' }, 'invalid_query', 'query.0');
    refused({ query: 'price:>:' }, 'invalid_query', 'query.0');
    refused({ query: 'live:=:yes' }, 'invalid_query', 'query.0');
    refused({ query: 'when:>:yesterday' }, 'invalid_query', 'query.0');
    refused({ query: 'place:within:1,2' }, 'invalid_query', 'query.0');
    refused({ query: 'place:within:91,2,5' }, 'invalid_query', 'query.0');
    refused({ query: 'place:within:50,0,40,10' }, 'invalid_query', 'query.0');
    refused({ query: 'authors.itemRefID:=:' }, 'invalid_query', 'query.0');
    refused({ query: Array.from({ length: 51 }, () => 'title:=:a').join('+') }, 'invalid_query', 'query');
    // Values the database could not even read are refused here, not failed there.
    refused({ query: 'title:=:a\u0000b' }, 'invalid_query', 'query.0');
    refused({ query: 'title:=:\ud800' }, 'invalid_query', 'query.0');
    refused({ query: 'authors.itemRefID:=:\u0000' }, 'invalid_query', 'query.0');
    refused({ query: 'when:>:-99999999999' }, 'invalid_query', 'query.0');
    refused({ query: 'when:>:99999999999999999' }, 'invalid_query', 'query.0');
    refused({ find: JSON.stringify({ title: 'a\u0000' }) }, 'invalid_query', 'find');
    refused({ aggregationPipeline: JSON.stringify([{ $group: { _id: null } }, { $match: { x: '\ud800' } }]) }, 'invalid_query', 'aggregationPipeline');
    refused({ search: 'a\u0000' }, 'invalid_query', 'search');
  });
});

describe('regex safety', () => {
  it('accepts the common subset', () => {
    for (const p of ['^ab', 'a.c$', '[a-z]+', '(ab|cd)*', 'x{2,5}', '\\d\\w\\s', '\\.', '(?:ab)+', '[]a]', '[^]a]']) expect(checkRegex(p, 'q')).toBe(p);
  });
  it.each([
    ['(a)\\1', 'back-reference'],
    ['(?=a)', 'look-ahead'],
    ['(?<=a)b', 'look-behind'],
    ['(?i)a', 'embedded options'],
    ['a{1000}', 'huge repetition'],
    ['a{5,2}', 'reversed bounds'],
    ['(a{1,255}){1,255}', 'counted repetition counted again'],
    ['((a{2})b){3}', 'counted repetition counted again, deeper'],
    ['a{', 'lone brace'],
    ['[[:alpha:]]', 'POSIX class'],
    ['(ab', 'unbalanced'],
    ['[ab', 'unclosed class'],
    ['a\\', 'trailing backslash'],
    ['\\bword', 'word boundary (differs between engines)'],
    ['x'.repeat(257), 'too long'],
  ])('refuses %s (%s)', (pattern) => {
    refused({ query: `title:regex:${pattern}` }, 'invalid_regex', 'query.0');
  });
});

describe('filter (the console filter state)', () => {
  it('reads one Filter entity or a list of them', () => {
    expect(parse({ filter: JSON.stringify({ fieldName: 'Title', key: 'title', operator: 'regex', filterValue: 'ab' }) }).where).toMatchObject({ k: 'regex', pattern: 'ab' });
    const q = parse({
      filter: JSON.stringify([
        { fieldName: 'Price', key: 'price', operator: '>', filterValue: 3 },
        { key: 'live', operator: '=', filterValue: true },
        { key: 'when', operator: '<', filterValue: 1700000000 },
        { key: 'authors', operator: '=', refFilterVal: [{ itemRefID: hex(1), value: 'Ada' }, hex(2)] },
        { fieldName: '', key: '', operator: '', filterValue: '' },
      ]),
    });
    expect(q.where).toMatchObject({ k: 'and', of: [{ v: 3 }, { v: true }, { t: { key: 'when' } }, { k: 'refs', ids: [hex(1), hex(2)] }] });
  });
  it('refuses a value without a field and operator, and bad entries', () => {
    expect(refused({ filter: JSON.stringify([{ filterValue: 'x' }]) }, 'invalid_query', 'filter.0').message).toContain('Please select a field and operator');
    refused({ filter: '[{' }, 'malformed_json', 'filter');
    refused({ filter: JSON.stringify([{ key: 'nope', operator: '=', filterValue: 1 }]) }, 'unknown_field', 'filter.0');
    refused({ filter: JSON.stringify([{ key: 'price', operator: 'regex', filterValue: '1' }]) }, 'operator_not_allowed', 'filter.0');
    refused({ filter: JSON.stringify([{ key: 'price', operator: '=', filterValue: { a: 1 } }]) }, 'invalid_query', 'filter.0.filterValue');
    refused({ filter: JSON.stringify([{ key: 'price', operator: '=', filterValue: 1, extra: 1 }]) }, 'invalid_query', 'filter.0.extra');
    refused({ filter: '3' }, 'invalid_query', 'filter.0');
  });
});

describe('find', () => {
  it('reads the safe MongoDB subset', () => {
    const q = parse({
      find: JSON.stringify({
        title: 'a',
        price: { $gte: 1, $lt: 5 },
        $or: [{ live: true }, { size: { $in: ['s'] } }, { site: { $regex: '^HT', $options: 'i' } }],
        when: { $gt: 'Date(2024-01-01)' },
        body: { $exists: false },
        'authors.itemRefID': { $nin: [hex(3)] },
        parts: { $elemMatch: { qty: { $gt: 2 }, label: { $ne: 'x' } } },
        _id: { $ne: hex(4) },
      }),
    });
    expect(q.where).toMatchObject({ k: 'and' });
    const text = JSON.stringify(q.where, (key, value) => (key === 'parent' || key === 'child' || key === 't' ? undefined : value));
    expect(text).toContain('"k":"elem"');
    expect(text).toContain('"ci":true');
    expect(text).toContain('2024-01-01T00:00:00.000Z');
  });
  it('treats $eq null as "not set" and $ne null as "set"', () => {
    expect(parse({ find: '{"price": null}' }).where).toMatchObject({ k: 'exists', yes: false });
    expect(parse({ find: '{"price": {"$ne": null}}' }).where).toMatchObject({ k: 'exists', yes: true });
  });
  it.each([
    ['{"title": ', 'malformed_json', 'find'],
    ['[1]', 'invalid_query', 'find'],
    ['{"nope": 1}', 'unknown_field', 'find.nope'],
    ['{"title": {"$gt": "a"}}', 'operator_not_allowed', 'find.title.$gt'],
    ['{"price": {"$where": "1"}}', 'invalid_query', 'find.price.$where'],
    ['{"$where": "sleep(1)"}', 'invalid_query', 'find.$where'],
    ['{"$or": []}', 'invalid_query', 'find.$or'],
    ['{"$or": [{"nope": 1}]}', 'unknown_field', 'find.$or.0.nope'],
    ['{"price": {"$in": 3}}', 'invalid_query', 'find.price.$in'],
    ['{"price": {"$gt": "x"}}', 'invalid_query', 'find.price.$gt'],
    ['{"title": {"$regex": "(a)\\\\1"}}', 'invalid_regex', 'find.title.$regex'],
    ['{"title": {"$regex": "a", "$options": "x"}}', 'invalid_query', 'find.title.$options'],
    ['{"title": {"$options": "i"}}', 'invalid_query', 'find.title.$options'],
    ['{"title": {"$exists": 1}}', 'invalid_query', 'find.title.$exists'],
    ['{"title": {"$gt": 1, "b": 2}}', 'invalid_query', 'find.title'],
    ['{"parts": {"label": "x"}}', 'invalid_query', 'find.parts'],
    ['{"parts": {"$elemMatch": {"nope": 1}}}', 'unknown_field', 'find.parts.$elemMatch.nope'],
    ['{"title": {"$elemMatch": {}}}', 'invalid_query', 'find.title.$elemMatch'],
    ['{"place": {"$eq": 1}}', 'operator_not_allowed', 'find.place.$eq'],
  ])('refuses %s', (find, errorCode, path) => {
    refused({ find }, errorCode, path);
  });
  it('bounds depth, size and conditions', () => {
    let deep: unknown = { title: 'a' };
    for (let i = 0; i < 12; i++) deep = { $and: [deep] };
    refused({ find: JSON.stringify(deep) }, 'invalid_query', `find${'.$and.0'.repeat(9)}`);
    refused({ find: JSON.stringify({ title: 'x'.repeat(30_000) }) }, 'invalid_query', 'find');
    refused({ find: JSON.stringify({ $or: Array.from({ length: 250 }, () => ({ title: 'a' })) }) }, 'invalid_query', 'find.$or.199.title');
  });
});

describe('search', () => {
  it('splits terms on | and matches _id, text fields, numbers and linked items', () => {
    const q = parse({ search: 'ab | 12 |' });
    const kinds = JSON.stringify(q.where, (key, value) => (key === 't' ? value.key : value));
    expect(kinds).toContain('"k":"contains","t":"title"');
    expect(kinds).toContain('"k":"contains","t":"body"');
    expect(kinds).toContain('"k":"contains","t":"phone"');
    expect(kinds).toContain('"k":"contains","t":"site"');
    expect(kinds).toContain('"k":"refValue","t":"authors"');
    expect(kinds).toContain('"k":"cmp","t":"price","op":"=","v":12');
    expect(kinds).toContain('"k":"cmp","t":"_id","op":"=","v":"ab"');
    expect(kinds).not.toContain('"t":"price","op":"=","v":"ab"');
    expect(parse({ search: ' | ' }).where).toBeUndefined();
  });
  it('refuses long searches', () => {
    refused({ search: 'x'.repeat(257) }, 'invalid_query', 'search');
    refused({ search: Array.from({ length: 17 }, (_, i) => `t${i}`).join('|') }, 'invalid_query', 'search');
  });
});

describe('projection', () => {
  it('keeps or drops named keys', () => {
    expect(parse({ projectOn: 'title, price,parts' }).projection).toEqual({ on: ['title', 'price', 'parts'] });
    expect(parse({ projectOff: 'body,_rank' }).projection).toEqual({ off: ['body', '_rank'] });
  });
  it('refuses unknown keys and both at once', () => {
    refused({ projectOn: 'title,nope' }, 'unknown_field', 'projectOn');
    refused({ projectOff: 'nope' }, 'unknown_field', 'projectOff');
    refused({ projectOn: 'title', projectOff: 'body' }, 'invalid_query', 'projectOn');
  });
});

describe('aggregationPipeline', () => {
  it('reads the supported stages; leading $match/$sort run on items', () => {
    const q = parse({
      aggregationPipeline: JSON.stringify([
        { $match: { price: { $gt: 1 } } },
        { $sort: { price: -1 } },
        { $limit: 10 },
        { $match: { live: true } },
        { $group: { _id: '$size._id', total: { $sum: '$price' }, n: { $sum: 1 }, avg: { $avg: '$price' }, lo: { $min: '$price' }, hi: { $max: '$price' } } },
        { $project: { total: 1 } },
        { $count: 'groups' },
      ]),
    });
    expect(q.pipeline!.map((s) => s.kind)).toEqual(['match', 'sort', 'limit', 'docMatch', 'group', 'project', 'count']);
  });
  it.each([
    ['[{"$lookup": {}}]', 'unsupported_stage', 'aggregationPipeline.0', '$lookup'],
    ['[{"$match": {}}, {"$out": "x"}]', 'unsupported_stage', 'aggregationPipeline.1', '$out'],
    ['{"$match": {}}', 'invalid_query', 'aggregationPipeline', ''],
    ['[{"$match": {}, "$sort": {}}]', 'invalid_query', 'aggregationPipeline.0', ''],
    ['[{"$match": {"nope": 1}}]', 'unknown_field', 'aggregationPipeline.0.$match.nope', ''],
    ['[{"$sort": {"body": 1}}]', 'invalid_query', 'aggregationPipeline.0.$sort.body', ''],
    ['[{"$limit": -1}]', 'invalid_query', 'aggregationPipeline.0.$limit', ''],
    ['[{"$group": {"_id": null, "x": {"$push": "$a"}}}]', 'invalid_query', 'aggregationPipeline.0.$group.x.$push', ''],
    ['[{"$project": {"a": {"$concat": []}}}]', 'invalid_query', 'aggregationPipeline.0.$project.a', ''],
    ['[{"$count": ""}]', 'invalid_query', 'aggregationPipeline.0.$count', ''],
    ['[{"$match"', 'malformed_json', 'aggregationPipeline', ''],
  ])('refuses %s', (pipeline, errorCode, path, named) => {
    const error = refused({ aggregationPipeline: pipeline }, errorCode, path);
    if (named) expect(error.message).toContain(named);
  });
});
