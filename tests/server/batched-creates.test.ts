/**
 * Top-level creates of one collection are written in batches (docs/content-storage.md: batched creates):
 * many creates at once all land, each with its own rank, the kept count and the events; a create
 * the rules refuse fails alone and the rest of its batch lands; a batch undone by the database
 * (a caller's id given twice) falls back to one create at a time, so each caller gets its own answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { fieldTypes } from '../../definitions/field-types/index.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { contentFixture, createCollection, type ContentFixture } from './support/content.ts';

const code = (name: string) => fieldTypes.find((t) => t.name === name)!.code;

describe.each(databaseKinds)('batched creates on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await contentFixture(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const list = async (collection: string) => {
    const response = await f.call('GET', `collection/${collection}/item?perPage=1000`);
    expect(response.statusCode, response.body).toBe(200);
    return { items: json(response) as Record<string, unknown>[], count: Number(response.headers['item-count']) };
  };
  const events = async (collection: string) => {
    const rows = (await t.database.db.execute(
      sql`select e.item_id from item_events e join content_collections c on c.id = e.collection_id
          where c.slug = ${collection} and e.trigger = 'create' order by e.id`,
    )) as unknown as { rows: { item_id: string }[] };
    return rows.rows.map((r) => r.item_id);
  };

  it('lands 120 creates sent at once, each once, with distinct ranks in creation order, the count and one event each', async () => {
    await createCollection(f, { id: 'notes', name: 'Notes', schema: [{ name: 'N', slug: 'n', type: code('Number'), primaryField: true }] });
    const answers = await Promise.all(Array.from({ length: 120 }, (_, n) => f.call('POST', 'collection/notes/item', { n })));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(120).fill(201));
    const ids = answers.map((a) => (json(a) as { _id: string })._id);
    expect(new Set(ids).size).toBe(120);

    const { items, count } = await list('notes');
    expect(count).toBe(120);
    expect(items).toHaveLength(120);
    const ranks = items.map((item) => String(item._rank));
    expect(new Set(ranks).size).toBe(120);
    // The list is in rank order; ranks follow the order the creates were written, as the events were.
    expect([...ranks].sort()).toEqual(ranks);
    const written = await events('notes');
    expect(written).toHaveLength(120);
    expect(items.map((item) => item._id)).toEqual(written);
    expect(new Set(items.map((item) => item.n))).toEqual(new Set(Array.from({ length: 120 }, (_, n) => n)));
    // On PostgreSQL, written in batches: fewer transactions than creates (events of one transaction
    // share its xid). PGlite has one connection, so the creates reach the queue one at a time.
    const transactions = (await t.database.db.execute(
      sql`select count(distinct e.xid::text)::int as n from item_events e join content_collections c on c.id = e.collection_id where c.slug = 'notes'`,
    )) as unknown as { rows: { n: number }[] };
    if (kind === 'postgres') expect(transactions.rows[0]!.n).toBeLessThan(60);
  });

  it('writes a batch whose creates name different fields: each keeps its own values, the rest empty or their default', async () => {
    await createCollection(f, {
      id: 'mixed',
      name: 'Mixed',
      schema: [
        { name: 'Title', slug: 'title', type: code('PlainText') },
        { name: 'Price', slug: 'price', type: code('Number') },
        { name: 'Live', slug: 'live', type: code('Bool'), defaultValue: true },
      ],
    });
    const bodies = Array.from({ length: 40 }, (_, n) => (n % 3 === 0 ? { title: `t${n}` } : n % 3 === 1 ? { price: n } : { title: `t${n}`, price: n, live: false }));
    const answers = await Promise.all(bodies.map((body) => f.call('POST', 'collection/mixed/item', body)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(40).fill(201));
    const { items } = await list('mixed');
    const byId = new Map(items.map((item) => [item._id, item]));
    answers.forEach((answer, n) => {
      const stored = byId.get((json(answer) as { _id: string })._id)!;
      const expected = n % 3 === 0 ? { title: `t${n}`, live: true } : n % 3 === 1 ? { price: n, live: true } : { title: `t${n}`, price: n, live: false };
      expect(stored).toMatchObject(expected);
      if (n % 3 === 0) expect(stored.price ?? null).toBeNull();
      if (n % 3 === 1) expect(stored.title ?? null).toBeNull();
    });
  });

  it('refuses a bad value or a taken unique value alone; the rest of the batch lands', async () => {
    await createCollection(f, {
      id: 'codes',
      name: 'Codes',
      schema: [
        { name: 'Code', slug: 'code', type: code('PlainText'), unique: true, primaryField: true },
        { name: 'Size', slug: 'size', type: code('Number') },
      ],
    });
    const bodies = Array.from({ length: 30 }, (_, n) => ({ code: `c${n}`, size: n }));
    bodies[7] = { code: 'c7', size: 'seven' as unknown as number }; // not a number
    bodies[20] = { code: 'c3', size: 20 }; // c3 again
    const answers = await Promise.all(bodies.map((body) => f.call('POST', 'collection/codes/item', body)));
    const statuses = answers.map((a) => a.statusCode);
    expect(statuses[7]).toBe(400);
    expect(answers[7]!.body).toContain('size');
    // One of the two c3 creates wins, the other is told the value is taken.
    expect([statuses[3], statuses[20]].sort()).toEqual([201, 400]);
    const loser = statuses[3] === 400 ? answers[3]! : answers[20]!;
    expect(loser.body).toContain('must be unique');
    expect(statuses.filter((s) => s === 201)).toHaveLength(28);

    const { items, count } = await list('codes');
    expect(count).toBe(28);
    expect(items).toHaveLength(28);
    expect(await events('codes')).toHaveLength(28);
  });

  it('a single-item collection gets exactly one of many creates sent at once', async () => {
    await createCollection(f, { id: 'settings', name: 'Settings', singleItem: true, schema: [{ name: 'Title', slug: 'title', type: code('PlainText') }] });
    const answers = await Promise.all(Array.from({ length: 10 }, (_, n) => f.call('POST', 'collection/settings/item', { title: `t${n}` })));
    const statuses = answers.map((a) => a.statusCode).sort();
    expect(statuses).toEqual([201, ...Array(9).fill(409)]);
    expect((await list('settings')).count).toBe(1);
  });

  it('a batch the database undoes (one id given twice) is written one create at a time: one 201, the rest of the batch lands', async () => {
    await createCollection(f, { id: 'ids', name: 'Ids', schema: [{ name: 'Title', slug: 'title', type: code('PlainText') }] });
    // The public upsert creates with the caller's id; the console API cannot, so the service is called directly.
    const { ItemService } = await import('../../server/content/items.ts');
    const service = new ItemService(t.database.db);
    const projectId = f.project;
    const results = await Promise.allSettled([
      service.create(projectId, 'ids', { title: 'first' }),
      service.create(projectId, 'ids', { title: 'dup a' }, undefined, 'fixed-id-1'),
      service.create(projectId, 'ids', { title: 'dup b' }, undefined, 'fixed-id-1'),
      service.create(projectId, 'ids', { title: 'last' }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled', 'rejected', 'fulfilled']);
    const { items: listed, count } = await list('ids');
    expect(count).toBe(3);
    expect(listed.map((item) => item.title).sort()).toEqual(['dup a', 'first', 'last']);
  });
});
