/**
 * The kanban's Unset column lists `{"$or":[{"stage":{"$exists":false}},{"stage._id":{"$nin":[…offered ids]}}]}`.
 * Counting those rows scans the whole table (no index serves `not in`; 180–280 ms at a million
 * items, bench/layouts.ts), so its total is the collection's item count minus the offered choices'
 * kept counts (compile.ts keptOptionTotal). Here: the total stays equal to the items listed while
 * items come, change and go, also for a choice no longer offered, and it reads no item table.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldTypes } from '../../definitions/field-types/index.ts';
import { levelOf } from '../../server/content/collections.ts';
import { parseListQuery } from '../../server/content/query/index.ts';
import { keptOptionTotal } from '../../server/content/query/compile.ts';
import { fieldColumn, type SchemaLevel } from '../../server/content/schema-tree.ts';
import { contentCollections } from '../../server/db/schema.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { contentFixture, createCollection, createItem, type ContentFixture } from './support/content.ts';

const code = (name: string) => fieldTypes.find((t) => t.name === name)!.code;

describe.each(databaseKinds)('the kanban Unset total on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let level: SchemaLevel;
  let ids: Record<string, string>;
  const made: Record<string, string[]> = {};

  /** The Unset column as the kanban asks for it, offering `offered` of the choices. */
  const unsetFind = (offered: string[]) => JSON.stringify({ $or: [{ stage: { $exists: false } }, { 'stage._id': { $nin: offered.map((value) => ids[value]) } }] });
  async function unset(offered: string[]) {
    const response = await f.call('GET', `collection/tasks/item?perPage=100&find=${encodeURIComponent(unsetFind(offered))}`);
    expect(response.statusCode, response.body).toBe(200);
    return { total: Number(response.headers['item-count']), ids: json<{ _id: string }[]>(response).map((item) => item._id).sort() };
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await contentFixture(t);
    await createCollection(f, {
      id: 'tasks',
      name: 'Tasks',
      schema: [
        { name: 'Title', slug: 'title', type: code('PlainText'), primaryField: true },
        { name: 'Stage', slug: 'stage', type: code('Option'), options: [{ value: 'todo' }, { value: 'doing' }, { value: 'done' }] },
      ],
    });
    const [row] = await t.database.db.select().from(contentCollections).where(sql`${contentCollections.slug} = 'tasks'`);
    level = levelOf(row!);
    ids = Object.fromEntries(level.fields.find((field) => field.slug === 'stage')!.options!.map((option) => [option.value, option._id]));
    for (const [stage, n] of [['todo', 3], ['doing', 2], ['done', 1], ['', 4]] as const) {
      made[stage] = [];
      for (let i = 0; i < n; i += 1) made[stage].push((await createItem(f, 'tasks', { title: `${stage || 'unset'} ${i}`, ...(stage ? { stage: { _id: ids[stage] } } : {}) }))._id as string);
    }
  });
  afterAll(() => t?.close());

  it('equals the items listed: those without a stage, and those of a choice no longer offered', async () => {
    expect(await unset(['todo', 'doing', 'done'])).toEqual({ total: 4, ids: [...made['']!].sort() });
    expect(await unset(['todo', 'doing'])).toEqual({ total: 5, ids: [...made['']!, ...made.done!].sort() });
    // $nin alone holds the items without a stage too.
    const alone = await f.call('GET', `collection/tasks/item?perPage=100&find=${encodeURIComponent(JSON.stringify({ 'stage._id': { $nin: [ids.todo] } }))}`);
    expect(Number(alone.headers['item-count'])).toBe(7);
    expect(json<unknown[]>(alone)).toHaveLength(7);
  });

  it('follows items as they come, change and go', async () => {
    const extra = (await createItem(f, 'tasks', { title: 'later' }))._id as string;
    const stage = sql.identifier(fieldColumn(level.fields.find((field) => field.slug === 'stage')!.id));
    // A stage cleared (the count triggers see the update), an unset item deleted.
    await t.database.db.execute(sql`update ${sql.identifier(level.table)} set ${stage} = null where _id = ${made.todo![0]!}`);
    const gone = await f.call('DELETE', `collection/tasks/item/${made['']![0]!}`);
    expect(gone.statusCode, gone.body).toBeLessThan(300);
    const expected = [...made['']!.slice(1), extra, made.todo![0]!].sort();
    expect(await unset(['todo', 'doing', 'done'])).toEqual({ total: expected.length, ids: expected });
  });

  it('is read from the kept counts, not by counting the item table', async () => {
    const total = keptOptionTotal(level, parseListQuery(level, { find: unsetFind(['todo', 'doing', 'done']) }).where);
    expect(total).toBeDefined();
    const plan = (await t.database.db.execute(sql`explain ${total!}`)) as unknown as { rows: Record<string, string>[] };
    const text = plan.rows.map((row) => Object.values(row).join(' ')).join('\n');
    expect(text).not.toContain(level.table);
    // Anything else or-ed in is counted as before.
    const other = parseListQuery(level, { find: JSON.stringify({ $or: [{ stage: { $exists: false } }, { title: 'unset 1' }] }) }).where;
    expect(keptOptionTotal(level, other)).toBeUndefined();
  });
});
