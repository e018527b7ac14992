/**
 * Repeated reads as named prepared statements (server/db/index.ts queryText): on both databases a
 * named statement gives what the same text run unnamed gives, with any parameters, after errors
 * and alongside transactions; on PGlite (pglitePrepared, its own wire-protocol sequence) a
 * statement that fails to parse is not taken as parsed, and a failing call leaves the backend
 * ready for the next one.
 */
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryText, type Database } from '../../server/db/index.ts';
import { databaseKinds, openTestDatabase } from './support/test-app.ts';

describe.each(databaseKinds)('named statements on %s', (kind) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(kind);
    await database.db.execute(sql`create table named_probe (id integer primary key, title text, price double precision, at timestamptz, tags jsonb)`);
    await database.db.execute(
      sql`insert into named_probe select g, 'title ' || g, g * 1.5, timestamptz '2026-01-01' + g * interval '1 day', jsonb_build_array(g, 'x') from generate_series(1, 40) g`,
    );
  });
  afterAll(async () => {
    await database?.close();
  });

  const text = `select id, title, price, at, tags, (select count(*) from named_probe)::integer as total from named_probe where id > $1 and title <> $2 order by id limit $3`;

  it('gives what the unnamed statement gives, call after call, with other parameters each time', async () => {
    for (const [from, limit] of [
      [0, 5],
      [10, 3],
      [38, 10],
      [40, 5],
    ] as const) {
      const named = await queryText(database.read, text, [from, 'none', limit], true);
      const plain = await queryText(database.read, text, [from, 'none', limit], false);
      expect(named).toEqual(plain);
      expect(named.length).toBe(Math.min(limit, 40 - from));
    }
    const [row] = await queryText<{ id: number; at: Date; tags: unknown; price: number }>(database.read, text, [0, 'none', 1], true);
    expect(row).toMatchObject({ id: 1, price: 1.5, tags: [1, 'x'] });
    expect(row!.at).toBeInstanceOf(Date);
  });

  it('stays usable after a call that fails, and a text that does not parse is not kept as parsed', async () => {
    await expect(queryText(database.read, text, ['not a number', 'none', 1], true)).rejects.toThrow();
    expect(await queryText(database.read, text, [1, 'none', 2], true)).toHaveLength(2);
    const broken = `select nope from named_probe where id > $1`;
    await expect(queryText(database.read, broken, [1], true)).rejects.toThrow(/nope/);
    await expect(queryText(database.read, broken, [1], true)).rejects.toThrow(/nope/);
    // Other statements and transactions go on as before.
    await database.db.transaction(async (tx) => {
      await tx.execute(sql`update named_probe set title = 'changed' where id = 2`);
    });
    const [row] = await queryText<{ title: string }>(database.read, text, [1, 'none', 1], true);
    expect(row!.title).toBe('changed');
  });

  it('waits for a transaction in progress instead of running inside it', async () => {
    let inside!: () => void;
    const held = new Promise<void>((resolve) => (inside = resolve));
    const transaction = database.db.transaction(async (tx) => {
      await tx.execute(sql`update named_probe set title = 'uncommitted' where id = 3`);
      inside();
      await new Promise((resolve) => setTimeout(resolve, 100));
      throw new Error('rolled back');
    });
    await held;
    const [row] = await queryText<{ title: string }>(database.read, text, [2, 'none', 1], true);
    await expect(transaction).rejects.toThrow('rolled back');
    expect(row!.title).toBe('title 3');
  });
});
