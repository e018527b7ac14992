/**
 * What the export and search handlers read of an instance's collection: its row (the instance
 * keeps the collection's row id, docs/integrations.md "Instances"), and all its top-level items
 * as the public API answers them, in keyset pages of `_id` (each page its own short read, so
 * nothing is held between pages and memory stays flat at any size).
 */
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/index.ts';
import { contentCollections } from '../../db/schema.ts';
import { levelOf, type CollectionRow } from '../../content/collections.ts';
import { guarded } from '../../content/query/engine.ts';
import type { SchemaLevel } from '../../content/schema-tree.ts';
import { itemJson, query } from '../../content/storage.ts';
import { RunFailure, type RunInput } from './types.ts';

/** The instance's one top-level collection; the run fails (no retry) when it is gone. */
export async function instanceCollection(db: Db, input: RunInput): Promise<{ row: CollectionRow; level: SchemaLevel }> {
  const id = input.instance.collections[0]?.split('.')[0];
  const [row] = id ? await db.select().from(contentCollections).where(and(eq(contentCollections.projectId, input.instance.projectId), eq(contentCollections.id, id))) : [];
  if (!row) throw new RunFailure('The collection of this integration no longer exists: choose another in its settings.', false);
  return { row, level: levelOf(row) };
}

/** The items of a level's top list, `size` at a time, each as the JSON text the public API sends. */
export async function* itemPages(db: Db, level: SchemaLevel, size = 1000): AsyncGenerator<{ id: string; json: string }[]> {
  const table = sql.identifier(level.table);
  const idColumn = sql.identifier('_id');
  let after: string | undefined;
  for (;;) {
    const from = after;
    const rows = await guarded(db, (executor) =>
      query<{ id: string; json: string }>(
        executor,
        sql`select ${idColumn} as id, ${itemJson(level)} as json from ${table}
            where ${from === undefined ? sql`true` : sql`${idColumn} > ${from}::text`} order by ${idColumn} limit ${size}`,
      ),
    );
    if (!rows.length) return;
    yield rows;
    if (rows.length < size) return;
    after = rows[rows.length - 1]!.id;
  }
}
