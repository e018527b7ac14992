/**
 * The total of a list filtered by one Option choice comes from the counts kept per choice
 * (migration 0010), which must equal counting the rows after every kind of write: creations,
 * updates, deletions, many-row statements, concurrent writers, the folding of delta rows, a
 * field's removal, and tables made before the migration.
 */
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldTypes } from '../../definitions/field-types/index.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { contentFixture, createCollection, createItem, type ContentFixture } from './support/content.ts';

const code = (name: string) => fieldTypes.find((t) => t.name === name)!.code;

describe.each(databaseKinds)('kept option counts on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let table: string;
  let collectionId: string;
  let column: string;
  let choices: Record<string, string>;

  const rows = async <T,>(statement: ReturnType<typeof sql>) => ((await t.database.db.execute(statement)) as unknown as { rows: T[] }).rows;

  /** The item-count of `status = choice` (the kept count) and the count of the rows themselves. */
  async function totals(choice: string) {
    const listed = await f.call('GET', `collection/posts/item?perPage=1&query=${encodeURIComponent(`status:=:${choices[choice]}`)}`);
    expect(listed.statusCode, listed.body).toBe(200);
    const [row] = await rows<{ n: number }>(sql`select count(*)::integer as n from ${sql.identifier(table)} where ${sql.identifier(column)} ->> '_id' = ${choices[choice]!}`);
    return { kept: Number(listed.headers['item-count']), counted: row!.n };
  }
  async function expectExact() {
    for (const choice of Object.keys(choices)) {
      const { kept, counted } = await totals(choice);
      expect(kept, choice).toBe(counted);
    }
  }

  beforeAll(async () => {
    // Pages are not kept in memory here: the tests write kept counts by hand, which no item write announces.
    t = await createTestApp(kind, { LIST_PAGE_CACHE_MB: '0' });
    f = await contentFixture(t);
    const created = await createCollection(f, {
      id: 'posts',
      name: 'Posts',
      schema: [
        { name: 'Title', slug: 'title', type: code('PlainText'), primaryField: true },
        { name: 'Status', slug: 'status', type: code('Option'), options: [{ value: 'draft' }, { value: 'published' }, { value: 'archived' }] },
      ],
    });
    const [row] = await rows<{ id: string; schema: { slug: string; id: string; options?: { _id: string; value: string }[] }[] }>(
      sql`select id, schema from content_collections where project_id = ${f.project} and slug = 'posts'`,
    );
    collectionId = row!.id;
    table = `content_${collectionId}`;
    const status = row!.schema.find((x) => x.slug === 'status')!;
    column = `f_${status.id}`;
    choices = Object.fromEntries(status.options!.map((o) => [o.value, o._id]));
    expect(created.id).toBe('posts');
  });
  afterAll(async () => {
    await t?.close();
  });

  it('serves the total of a list filtered by one choice from the kept counts, exactly, through creations, updates and deletions', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 12; i += 1) {
      const status = ['draft', 'published', 'archived'][i % 3]!;
      ids.push((await createItem(f, 'posts', { title: `post ${i}`, ...(i % 4 === 3 ? {} : { status: { _id: choices[status], value: status } }) }))._id);
    }
    await expectExact();
    expect((await totals('published')).kept).toBeGreaterThan(0);
    // The total is read from the kept counts, not counted: a stray delta row shows in it.
    await t.database.db.execute(sql`insert into item_option_counts values (${collectionId}, ${column}, ${choices.published!}, 1000)`);
    expect((await totals('published')).kept).toBe((await totals('published')).counted + 1000);
    await t.database.db.execute(sql`delete from item_option_counts where n = 1000`);

    // Updates: change the choice, unset it, set it again, touch only another field.
    const put = async (id: string, body: Record<string, unknown>) => {
      const response = await f.call('PUT', `collection/posts/item/${id}`, body);
      expect(response.statusCode, response.body).toBe(200);
    };
    await put(ids[0]!, { status: { _id: choices.published, value: 'published' } });
    await put(ids[1]!, { status: null });
    await put(ids[3]!, { status: { _id: choices.archived, value: 'archived' } });
    await put(ids[2]!, { title: 'renamed' });
    await expectExact();
    for (const id of ids.slice(0, 5)) expect((await f.call('DELETE', `collection/posts/item/${id}`)).statusCode).toBe(204);
    await expectExact();

    // Statements of many rows (an import), and the same choice named twice in a `find` $in.
    await t.database.db.execute(
      sql`insert into ${sql.identifier(table)} (_id, _rank, _created_date, _last_updated_date, ${sql.identifier(column)})
          select 'bulk' || g, 'b' || lpad(g::text, 4, '0'), now(), now(), jsonb_build_object('_id', ${choices.draft!}::text, 'value', 'draft') from generate_series(1, 40) g`,
    );
    await t.database.db.execute(sql`update ${sql.identifier(table)} set ${sql.identifier(column)} = jsonb_build_object('_id', ${choices.archived!}::text, 'value', 'archived') where _id like 'bulk1%'`);
    await expectExact();
    const find = encodeURIComponent(JSON.stringify({ 'status._id': { $in: [choices.draft, choices.draft, choices.archived] } }));
    const both = await f.call('GET', `collection/posts/item?perPage=1&find=${find}`);
    expect(Number(both.headers['item-count'])).toBe((await totals('draft')).counted + (await totals('archived')).counted);
  });

  it('folds the delta rows once a field has gathered many, and stays exact', async () => {
    // 1,100 single-row statements: more than the 1,024 rows that trigger a fold.
    for (let i = 0; i < 1100; i += 1) {
      const status = i % 2 ? 'published' : 'draft';
      await t.database.db.execute(
        sql`insert into ${sql.identifier(table)} (_id, _rank, _created_date, _last_updated_date, ${sql.identifier(column)})
            values (${`fold${i}`}, ${`c${String(i).padStart(5, '0')}`}, now(), now(), jsonb_build_object('_id', ${choices[status]!}::text, 'value', ${status}::text))`,
      );
    }
    const [kept] = await rows<{ n: number }>(sql`select count(*)::integer as n from item_option_counts where collection_id = ${collectionId}`);
    expect(kept!.n).toBeLessThan(1024);
    await expectExact();
  });

  it.runIf(kind === 'postgres')('stays exact under concurrent writers on their own connections', async () => {
    const pool = new pg.Pool({ connectionString: t.database.url!, max: 8 });
    try {
      const ids = (await rows<{ _id: string }>(sql`select _id from ${sql.identifier(table)} where _id like 'fold%' order by _id limit 200`)).map((r) => r._id);
      const values = Object.entries(choices);
      await Promise.all(
        ids.map(async (id, i) => {
          const [value, choice] = values[i % values.length]!;
          const client = await pool.connect();
          try {
            await client.query('begin');
            await client.query(`update "${table}" set "${column}" = jsonb_build_object('_id', $1::text, 'value', $2::text) where _id = $3`, [choice, value, id]);
            if (i % 5 === 0) await client.query(`delete from "${table}" where _id = $1`, [ids[(i + 7) % ids.length]]);
            // Some writers give up: their deltas must vanish with them.
            await client.query(i % 7 === 0 ? 'rollback' : 'commit');
          } finally {
            client.release();
          }
        }),
      );
    } finally {
      await pool.end();
    }
    await expectExact();
  });

  it('forgets a removed field and its counts; a new Option field starts counting', async () => {
    const statusId = column.slice(2);
    const removed = await f.call('DELETE', `collection/posts/field/${statusId}`);
    expect(removed.statusCode, removed.body).toBe(204);
    expect(await rows(sql`select 1 from item_option_counts where collection_id = ${collectionId}`)).toEqual([]);
    // Writes after the column is gone must not trip over its triggers.
    await createItem(f, 'posts', { title: 'after' });
    const added = json(await f.call('POST', 'collection/posts/field', { name: 'Stage', slug: 'stage', type: code('Option'), options: [{ value: 'one' }, { value: 'two' }] }));
    const stage = added as { id: string; options: { _id: string; value: string }[] };
    const one = stage.options[0]!;
    await createItem(f, 'posts', { title: 'staged', stage: one });
    const listed = await f.call('GET', `collection/posts/item?perPage=0&query=${encodeURIComponent(`stage:=:${one._id}`)}`);
    expect(listed.headers['item-count']).toBe('1');
    const [kept] = await rows<{ n: number }>(sql`select coalesce(sum(n), 0)::integer as n from item_option_counts where collection_id = ${collectionId} and option_id = ${one._id}`);
    expect(kept!.n).toBe(1);
  });

  it('gives tables made before migration 0010 their triggers and counts', async () => {
    const before = await createCollection(f, {
      id: 'older',
      name: 'Older',
      schema: [{ name: 'Kind', slug: 'kind', type: code('Option'), options: [{ value: 'a' }, { value: 'b' }] }],
    });
    const kindField = (before.schema as { slug: string; id: string; options: { _id: string; value: string }[] }[]).find((x) => x.slug === 'kind')!;
    for (const option of [0, 0, 1, 0]) await createItem(f, 'older', { kind: kindField.options[option] });
    const [row] = await rows<{ id: string }>(sql`select id from content_collections where project_id = ${f.project} and slug = 'older'`);
    const older = `content_${row!.id}`;
    // As before the migration: no triggers, no counts.
    for (const suffix of ['ci', 'cu', 'cd']) await t.database.db.execute(sql`drop trigger ${sql.identifier(`${older}_${kindField.id}_${suffix}`)} on ${sql.identifier(older)}`);
    await t.database.db.execute(sql`delete from item_option_counts where collection_id = ${row!.id}`);
    // The migration's last statement brings every table up to date (and may run again).
    const migration = readFileSync('drizzle/0010_option_counts.sql', 'utf8').split('--> statement-breakpoint');
    await t.database.db.execute(sql.raw(migration[migration.length - 1]!));
    await t.database.db.execute(sql.raw(migration[migration.length - 1]!));
    const count = async (option: number) =>
      Number((await f.call('GET', `collection/older/item?perPage=0&query=${encodeURIComponent(`kind:=:${kindField.options[option]!._id}`)}`)).headers['item-count']);
    expect([await count(0), await count(1)]).toEqual([3, 1]);
    await createItem(f, 'older', { kind: kindField.options[1] });
    expect(await count(1)).toBe(2);
  });
});
