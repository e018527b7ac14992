/**
 * Ranks through the API on both databases (docs/content-storage.md "Ranks and CSV"): moves by
 * position and by neighbours, in nested lists too, only the moved item's rank changing; 20
 * concurrent moves leave unique ranks and the order a replay of the moves in the order they were
 * applied gives; initRank ranks unranked items in batches with progress; bad input is a problem
 * and changes nothing.
 */
import { sql } from 'drizzle-orm';
import { generateKeyBetween } from 'fractional-indexing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldTypes } from '../../definitions/field-types/index.ts';
import { query } from '../../server/content/storage.ts';
import { memberships } from '../../server/db/schema.ts';
import { bearer, verifiedUser } from './support/flows.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { expectProblem } from './support/assertions.ts';
import { contentFixture, createCollection, createItem, expectInvalid, type ContentFixture } from './support/content.ts';

const code = (name: string) => fieldTypes.find((t) => t.name === name)!.code;

interface Row {
  _id: string;
  _rank: string;
  _last_updated_date: unknown;
}

describe.each(databaseKinds)('ranks on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let tables: { tasks: string; steps: string; other: string };
  const ids: string[] = [];
  let parent: string;
  const stepIds: string[] = [];

  const rows = async (table: string, parentId?: string) =>
    query<Row>(
      t.database.db,
      sql`select _id, _rank, _last_updated_date from ${sql.identifier(table)} ${parentId ? sql`where _parent_id = ${parentId}` : sql``} order by _rank, _id`,
    );
  const order = async (table: string, parentId?: string) => (await rows(table, parentId)).map((r) => r._id);
  const tableOf = async (slug: string) =>
    `content_${(await query<{ id: string }>(t.database.db, sql`select id from content_collections where slug = ${slug} and project_id = ${f.project}`))[0]!.id}`;
  const move = (item: string, params: string) => f.call('PUT', `collection/tasks/item/${item}/sort?${params}`);
  const moved = async (item: string, params: string) => {
    const response = await move(item, params);
    expect(response.statusCode, response.body).toBe(200);
    return json(response);
  };
  const expectValidUnique = (list: Row[]) => {
    const ranks = list.map((r) => r._rank);
    expect(new Set(ranks).size).toBe(ranks.length);
    for (const rank of ranks) expect(() => generateKeyBetween(rank, null)).not.toThrow();
  };

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await contentFixture(t);
    await createCollection(f, {
      id: 'tasks',
      name: 'Tasks',
      schema: [
        { name: 'Title', slug: 'title', type: code('PlainText'), primaryField: true },
        { name: 'Steps', slug: 'steps', type: code('NestedCollection'), nestedCollectionSchema: [{ name: 'Text', slug: 'text', type: code('PlainText') }] },
      ],
    });
    await createCollection(f, { id: 'other', name: 'Other', schema: [{ name: 'Title', slug: 'title', type: code('PlainText') }] });
    for (let i = 0; i < 30; i++) ids.push((await createItem(f, 'tasks', { title: `T${i}` }))._id);
    parent = ids[0]!;
    for (let i = 0; i < 5; i++) stepIds.push((await createItem(f, 'tasks', { text: `S${i}` }, { item: parent, nestedID: 'steps' }))._id);
    const field = json<{ schema: { slug: string; id: string }[] }>(await f.call('GET', 'collection/tasks')).schema.find((x) => x.slug === 'steps')!;
    tables = { tasks: await tableOf('tasks'), steps: `content_${field.id}`, other: await tableOf('other') };
  });
  afterAll(() => t.close());

  it('moves by 1-based position; only the moved item changes and an update event is recorded', async () => {
    const before = await rows(tables.tasks);
    expect(before.map((r) => r._id)).toEqual(ids);
    const target = ids[5]!;
    const item = await moved(target, 'order=1');
    expect(item._id).toBe(target);
    const after = await rows(tables.tasks);
    expect(after.map((r) => r._id)).toEqual([target, ...ids.filter((x) => x !== target)]);
    // The rest keep their ranks: a move never renumbers.
    const changed = after.filter((r) => before.find((b) => b._id === r._id)!._rank !== r._rank).map((r) => r._id);
    expect(changed).toEqual([target]);
    expect(item._rank).toBe(after[0]!._rank);
    expect(Date.parse(item._lastUpdatedDate)).toBeGreaterThan(Date.parse(String(before.find((r) => r._id === target)!._last_updated_date)) - 1);
    const [event] = await query<{ trigger: string; item_id: string }>(t.database.db, sql`select trigger, item_id from item_events order by id desc limit 1`);
    expect(event).toEqual({ trigger: 'update', item_id: target });

    // To position 10 of 30, then past the end (last), then back to where it was.
    await moved(target, 'order=10');
    expect((await order(tables.tasks)).indexOf(target)).toBe(9);
    await moved(target, 'order=999');
    expect((await order(tables.tasks)).at(-1)).toBe(target);
    await moved(target, 'order=6');
    expect(await order(tables.tasks)).toEqual(ids);
    expectValidUnique(await rows(tables.tasks));
  });

  it('moving an item to where it already is writes nothing', async () => {
    const events = async () => (await query<{ n: number }>(t.database.db, sql`select count(*)::integer as n from item_events`))[0]!.n;
    const n = await events();
    const before = await rows(tables.tasks);
    await moved(ids[3]!, 'order=4');
    await moved(ids[3]!, `afterID=${ids[2]}`);
    expect(await rows(tables.tasks)).toEqual(before);
    expect(await events()).toBe(n);
  });

  it('a position counts as the list pages the list: "Move to position…" reaches any page', async () => {
    // The console's "Move to position…" sends the position a person reads in the list: the item
    // moved to position p shows on page ceil(p / perPage), at place (p - 1) % perPage.
    const perPage = 7;
    const page = async (n: number) => {
      const response = await f.call('GET', `collection/tasks/item?pageNumber=${n}&perPage=${perPage}`);
      expect(response.statusCode, response.body).toBe(200);
      return json<{ _id: string }[]>(response).map((item) => item._id);
    };
    const at = async (position: number) => (await page(Math.ceil(position / perPage)))[(position - 1) % perPage];
    const before = await order(tables.tasks);
    // From page 4 to the first place, from page 1 to page 3, and around a page edge both ways.
    for (const [from, to] of [
      [25, 1],
      [2, 18],
      [8, 7],
      [7, 8],
      [30, 15],
    ] as const) {
      const item = (await at(from))!;
      await moved(item, `order=${to}`);
      expect(await at(to)).toBe(item);
    }
    expect((await order(tables.tasks)).length).toBe(before.length);
    expectValidUnique(await rows(tables.tasks));
    // Back to the order the other tests expect, one position at a time.
    for (const [i, item] of before.entries()) await moved(item, `order=${i + 1}`);
    expect(await order(tables.tasks)).toEqual(before);
  });

  it('moves by neighbours: afterID, beforeID, or both when they are adjacent', async () => {
    const [a, b, c, d] = [ids[1]!, ids[2]!, ids[3]!, ids[20]!];
    await moved(d, `afterID=${a}`);
    let list = await order(tables.tasks);
    expect(list.slice(1, 4)).toEqual([a, d, b]);
    await moved(d, `beforeID=${a}`);
    list = await order(tables.tasks);
    expect(list.slice(0, 3)).toEqual([ids[0], d, a]);
    await moved(d, `afterID=${b}&beforeID=${c}`);
    list = await order(tables.tasks);
    expect(list.slice(1, 5)).toEqual([a, b, d, c]);
    // Neighbours that are no longer next to each other (someone moved in between): a conflict, nothing changes.
    const snapshot = await rows(tables.tasks);
    const stale = await move(ids[25]!, `afterID=${a}&beforeID=${c}`);
    expectProblem(stale, 409, 'ordering_failed');
    expect(json(stale).detail).toMatch(/^There was an error ordering the items\./);
    expect(await rows(tables.tasks)).toEqual(snapshot);
    await moved(d, `afterID=${ids[19]}`);
    expect(await order(tables.tasks)).toEqual(ids);
  });

  it('moves nested items within their parent’s list', async () => {
    const last = stepIds[4]!;
    const item = await moved(parent, `nestedID=steps.${last}&order=1`);
    expect(item._id).toBe(last);
    expect(await order(tables.steps, parent)).toEqual([last, ...stepIds.slice(0, 4)]);
    await moved(parent, `nestedID=steps.${last}&afterID=${stepIds[1]}`);
    expect(await order(tables.steps, parent)).toEqual([stepIds[0], stepIds[1], last, stepIds[2], stepIds[3]]);
    await moved(parent, `nestedID=steps.${last}&order=5`);
    expect(await order(tables.steps, parent)).toEqual(stepIds);
    const [event] = await query<{ root_item_id: string; nested_path: string; item_id: string }>(
      t.database.db,
      sql`select root_item_id, nested_path, item_id from item_events order by id desc limit 1`,
    );
    expect(event).toEqual({ root_item_id: parent, nested_path: 'steps', item_id: last });
    expect(await order(tables.tasks)).toEqual(ids);
  });

  it('keeps ranks unique under 20 concurrent moves; the order is the replay of the moves in the order they were applied', async () => {
    const start = await order(tables.tasks);
    const lastEvent = (await query<{ n: number }>(t.database.db, sql`select coalesce(max(id), 0)::integer as n from item_events`))[0]!.n;
    // 20 different items, each to a pseudo-random position, or next to another item.
    const movers = start.slice(5, 25);
    const moves = movers.map((item, i) =>
      i % 3 === 2 ? { item, afterID: start[(i * 7) % 5]! } : { item, order: ((i * 11) % 30) + 1 },
    );
    const responses = await Promise.all(moves.map((m) => move(m.item, 'order' in m ? `order=${m.order}` : `afterID=${m.afterID}`)));
    for (const r of responses) expect(r.statusCode, r.body).toBe(200);
    const final = await rows(tables.tasks);
    expectValidUnique(final);
    expect([...final.map((r) => r._id)].sort()).toEqual([...start].sort());

    // Replay the moves in commit order (the event ids: every move waited for the list's lock).
    const applied = await query<{ item_id: string }>(
      t.database.db,
      sql`select item_id from item_events where id > ${lastEvent} and trigger = 'update' order by id`,
    );
    const replay = [...start];
    for (const { item_id } of applied) {
      const m = moves.find((x) => x.item === item_id)!;
      replay.splice(replay.indexOf(m.item), 1);
      if ('order' in m) replay.splice(Math.min(m.order! - 1, replay.length), 0, m.item);
      else replay.splice(replay.indexOf(m.afterID!) + 1, 0, m.item);
    }
    // A move to where the item already was writes no event: those keep their place in the replay too.
    expect(final.map((r) => r._id)).toEqual(replay);
  });

  it('orders equal ranks by _id and separates a tie when moving next to it', async () => {
    const list = await rows(tables.tasks);
    const [a, b, c] = [list[10]!, list[11]!, list[12]!];
    // Rows written by other means with one rank: listed by _id.
    await t.database.db.execute(sql`update ${sql.identifier(tables.tasks)} set _rank = ${a._rank} where _id in (${b._id}, ${c._id})`);
    const tiedOrder = await order(tables.tasks);
    expect(tiedOrder.slice(10, 13)).toEqual([a._id, b._id, c._id].sort());
    const mover = list[0]!._id;
    const [first, second] = tiedOrder.slice(10, 12);
    await moved(mover, `afterID=${first}`);
    const after = await rows(tables.tasks);
    expectValidUnique(after);
    const ordered = after.map((r) => r._id);
    expect(ordered.indexOf(mover)).toBe(ordered.indexOf(first!) + 1);
    expect(ordered.indexOf(second!)).toBe(ordered.indexOf(mover) + 1);
  });

  it('initRank ranks unranked items in batches with progress, then is a no-op', async () => {
    const list = await order(tables.tasks);
    const unranked = list.slice(8, 28);
    await t.database.db.execute(
      sql`update ${sql.identifier(tables.tasks)} set _rank = '' where _id in (${sql.join(
        unranked.map((x) => sql`${x}`),
        sql`, `,
      )})`,
    );
    const ranked = list.filter((x) => !unranked.includes(x));
    // Unranked items sort first; a move next to them cannot compute a key.
    expectProblem(await move(ranked[3]!, 'order=2'), 409, 'ordering_failed');

    const progress: { ranked: number; remaining: number }[] = [];
    for (;;) {
      const response = await f.call('PUT', 'collection/tasks/initRank', { parentItemID: null, nestedID: null, perPage: 7 });
      expect(response.statusCode, response.body).toBe(200);
      progress.push(json(response));
      if (json(response).remaining === 0) break;
    }
    expect(progress).toEqual([
      { ranked: 7, remaining: 13 },
      { ranked: 7, remaining: 6 },
      { ranked: 6, remaining: 0 },
    ]);
    const final = await rows(tables.tasks);
    expectValidUnique(final);
    // The ranked items keep their order, the others follow in _id order.
    expect(final.map((r) => r._id)).toEqual([...ranked, ...[...unranked].sort()]);
    const again = await f.call('PUT', 'collection/tasks/initRank', { perPage: 1000 });
    expect(json(again)).toEqual({ ranked: 0, remaining: 0 });
    expect(await rows(tables.tasks)).toEqual(final);
  });

  it('initRank ranks a nested list', async () => {
    await t.database.db.execute(sql`update ${sql.identifier(tables.steps)} set _rank = '' where _parent_id = ${parent} and _id <> ${stepIds[0]}`);
    const response = await f.call('PUT', 'collection/tasks/initRank', { parentItemID: parent, nestedID: 'steps' });
    expect(json(response)).toEqual({ ranked: 4, remaining: 0 });
    const final = await rows(tables.steps, parent);
    expectValidUnique(final);
    // Unranked items listed by _id (their equal empty ranks); initRank keeps that order, after the ranked ones.
    expect(final.map((r) => r._id)).toEqual([stepIds[0], ...stepIds.slice(1).sort()]);
    const [event] = await query<{ root_item_id: string; nested_path: string; trigger: string }>(
      t.database.db,
      sql`select root_item_id, nested_path, trigger from item_events order by id desc limit 1`,
    );
    expect(event).toEqual({ root_item_id: parent, nested_path: 'steps', trigger: 'update' });
  });

  it('answers bad input with a problem and changes nothing', async () => {
    const snapshot = { tasks: await rows(tables.tasks), steps: await rows(tables.steps, parent) };
    const someone = ids[4]!;
    for (const bad of ['order=0', 'order=-1', 'order=1.5', 'order=abc', 'order=', 'order=1e3']) expectInvalid(await move(someone, bad), ['order']);
    expectInvalid(await move(someone, `order=2&afterID=${ids[1]}`), ['order']);
    expectInvalid(await move(someone, ''), ['order']);
    expectProblem(await move('0123456789abcdef01234567', 'order=1'), 404, 'item_not_found');
    expectProblem(await f.call('PUT', `collection/nope/item/${someone}/sort?order=1`), 404);
    expectProblem(await f.call('PUT', `collection/tasks/item/not.an.id/sort?order=1`), 400);
    // Neighbours from another list: a nested item, another collection's item, the item itself, an unknown id.
    const stranger = (await createItem(f, 'other', { title: 'x' }))._id as string;
    expectInvalid(await move(someone, `beforeID=${stepIds[0]}`), ['beforeID']);
    expectInvalid(await move(someone, `afterID=${stranger}`), ['afterID']);
    expectInvalid(await move(someone, `afterID=${someone}`), ['afterID']);
    expectInvalid(await move(someone, `beforeID=0123456789abcdef01234567`), ['beforeID']);
    expectInvalid(await move(parent, `nestedID=steps.${stepIds[1]}&afterID=${ids[2]}`), ['afterID']);
    // Malformed or wrong nestedID.
    expectInvalid(await move(parent, 'nestedID=steps..x&order=1'), ['nestedID']);
    expectInvalid(await move(parent, 'nestedID=steps&order=1'), ['nestedID']);
    expectProblem(await move(parent, `nestedID=nope.${stepIds[0]}&order=1`), 404, 'nested_collection_not_found');
    expectProblem(await move(ids[1]!, `nestedID=steps.${stepIds[0]}&order=1`), 404, 'item_not_found');
    expectProblem(await move(parent, 'nestedID=steps.0123456789abcdef01234567&order=1'), 404, 'item_not_found');
    // initRank.
    const init = (body: unknown) => f.call('PUT', 'collection/tasks/initRank', body);
    for (const perPage of [0, 10_001, 1.5, 'ten']) expectProblem(await init({ perPage }), 400);
    expectInvalid(await init({ nestedID: 'steps' }), ['parentItemID']);
    expectInvalid(await init({ parentItemID: parent }), ['nestedID']);
    expectInvalid(await init({ parentItemID: parent, nestedID: `steps.${stepIds[0]}` }), ['nestedID']);
    expectProblem(await init({ parentItemID: '0123456789abcdef01234567', nestedID: 'steps' }), 404, 'item_not_found');
    expect(await rows(tables.tasks)).toEqual(snapshot.tasks);
    expect(await rows(tables.steps, parent)).toEqual(snapshot.steps);
  });

  it('needs the update permission and a visible collection', async () => {
    const anonymous = await f.call('PUT', `collection/tasks/item/${ids[1]}/sort?order=1`, undefined, { access: 'nope' });
    expect(anonymous.statusCode).toBe(401);
    // A member who may read but not update: no moves, no initRank, but the CSV; one who may update moves.
    const member = async (name: string, permissions: Record<string, boolean>) => {
      const { tokens } = await verifiedUser(t.app, name);
      const me = json(await t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(tokens.access_token) }));
      await t.database.db.insert(memberships).values({ organizationId: f.org, userId: me._id, permissions });
      return tokens.access_token as string;
    };
    const reader = await member('reader', { read: true });
    const updater = await member('updater', { read: true, update: true });
    const snapshot = await rows(tables.tasks);
    expectProblem(await f.call('PUT', `collection/tasks/item/${ids[1]}/sort?order=1`, undefined, { access: reader }), 403);
    expectProblem(await f.call('PUT', 'collection/tasks/initRank', {}, { access: reader }), 403);
    expect(await rows(tables.tasks)).toEqual(snapshot);
    expect((await f.call('GET', 'collection/tasks/csv', undefined, { access: reader })).statusCode).toBe(200);
    const ok = await f.call('PUT', `collection/tasks/item/${snapshot[5]!._id}/sort?order=1`, undefined, { access: updater });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await order(tables.tasks))[0]).toBe(snapshot[5]!._id);
    const elsewhere = await f.otherProject();
    expectProblem(await elsewhere.call('PUT', `collection/tasks/item/${ids[1]}/sort?order=1`), 404);
    expectProblem(await elsewhere.call('PUT', 'collection/tasks/initRank', {}), 404);
  });
});
