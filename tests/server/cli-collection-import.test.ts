/**
 * `larder collection import` as its own process on both databases (docs/cli.md "Collections"):
 * a file imported whole; a refused file exits 1 with its rows' problems (text: the first 20 lines;
 * --json: all of them) and writes nothing; --skip-bad-rows writes the rest.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { metadataField } from '../../definitions/content.ts';
import { openDatabase, type Database } from '../../server/db/index.ts';
import { contentCollections, organizations, projects } from '../../server/db/schema.ts';
import { topLevel } from '../../server/content/schema-tree.ts';
import { addFieldStorage, createLevelTable } from '../../server/content/storage.ts';
import { newId } from '../../server/lib/ids.ts';
import { emptyPostgresDatabase, larder, templateDataDir, type CliTarget } from './support/cli.ts';
import { databaseKinds, type DatabaseKind } from './support/test-app.ts';
import { code } from './support/every-field-type.ts';

const slow = 180_000;

describe.each(databaseKinds)('larder collection import on %s', (kind: DatabaseKind) => {
  let target: CliTarget;
  let cleanup: () => Promise<void>;
  let dir: string;
  const org = newId();
  const project = newId();
  const rowId = newId();
  const table = `content_${rowId}`;

  const open = (): Promise<Database> => openDatabase('DATA_DIR' in target ? { dataDir: target.DATA_DIR } : { databaseUrl: target.DATABASE_URL, poolSize: 2 });
  /** Items stored and the kept counter (the database opened after the command's process ended). */
  async function stored() {
    const database = await open();
    try {
      const result = (await database.db.execute(sql`select (select count(*)::integer from ${sql.identifier(table)}) as n, item_count from content_collections where id = ${rowId}`)) as unknown as { rows: { n: number; item_count: number | string }[] };
      return { rows: result.rows[0]!.n, itemCount: Number(result.rows[0]!.item_count) };
    } finally {
      await database.close();
    }
  }
  const file = (name: string, text: string) => {
    const at = path.join(dir, name);
    writeFileSync(at, text);
    return at;
  };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'larder-import-'));
    if (kind === 'pglite') {
      const dataDir = path.join(dir, 'data');
      await templateDataDir(dataDir);
      target = { DATA_DIR: dataDir };
      cleanup = async () => undefined;
    } else {
      const database = await emptyPostgresDatabase();
      target = { DATABASE_URL: database.url };
      cleanup = database.drop;
    }
    const database = await open();
    try {
      const fields = [
        { id: newId(), slug: 'title', name: 'Title', type: code('PlainText'), primaryField: true },
        { id: newId(), slug: 'n', name: 'N', type: code('Number') },
      ];
      const level = topLevel(rowId, [...fields, { ...metadataField }] as never);
      await database.db.insert(organizations).values({ id: org, name: 'CLI' });
      await database.db.insert(projects).values({ id: project, organizationId: org, name: 'CLI' });
      await database.db.insert(contentCollections).values({ id: rowId, projectId: project, slug: 'notes', name: 'Notes', schema: level.fields, storageTables: [level.table] });
      await createLevelTable(database.db, level);
      for (const field of fields) await addFieldStorage(database.db, level, field as never);
    } finally {
      await database.close();
    }
  }, slow);
  afterAll(async () => {
    await cleanup?.();
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    'imports a file, refuses one with bad rows (exit 1, rows listed, nothing written), and leaves bad rows out with --skip-bad-rows',
    async () => {
      const good = file('good.csv', 'title,n\n"multi\nline",1\nsecond,2\n');
      const done = await larder(target, ['--json', 'collection', 'import', org, project, 'notes', good]);
      expect(done.code, done.stderr + done.stdout).toBe(0);
      expect(done.json).toMatchObject({ imported: 2, skipped: 0, errors: [], format: 'csv' });

      const rows = ['title,n', ...Array.from({ length: 25 }, (_, i) => `row ${i},${i % 2 ? 'odd' : i}`)].join('\n');
      const bad = file('bad.data', rows);
      const refusedText = await larder(target, ['collection', 'import', org, project, 'notes', bad, '--format', 'csv']);
      expect(refusedText.code).toBe(1);
      const lines = refusedText.stderr.trim().split('\n');
      expect(lines[0]).toMatch(/^Error: Nothing was imported: 12 row\(s\) cannot be written/);
      expect(lines[1]).toBe('  line 3, n: must be a number');
      expect(lines.filter((line) => /^ {2}line \d+, n:/.test(line))).toHaveLength(12);

      const refusedJson = await larder(target, ['--json', 'collection', 'import', org, project, 'notes', bad, '--format', 'csv']);
      expect(refusedJson.code).toBe(1);
      expect(refusedJson.json.error).toMatchObject({ code: 'import_refused' });
      expect(refusedJson.json.error.errors.map((e: { line: number }) => e.line)).toEqual(Array.from({ length: 12 }, (_, i) => 3 + 2 * i));
      expect(await stored()).toEqual({ rows: 2, itemCount: 2 });

      const unknownFormat = await larder(target, ['--json', 'collection', 'import', org, project, 'notes', bad]);
      expect(unknownFormat).toMatchObject({ code: 2, json: { error: { code: 'invalid_input' } } });

      const skipped = await larder(target, ['collection', 'import', org, project, 'notes', bad, '--format', 'csv', '--skip-bad-rows']);
      expect(skipped.code, skipped.stderr).toBe(0);
      expect(skipped.stdout).toMatch(/^Imported 13 item\(s\) into notes from .*bad\.data \(csv, 1 batch\(es\)\)\.\nLeft out 12 bad row\(s\):\n {2}line 3, n: must be a number\n/);
      expect(await stored()).toEqual({ rows: 15, itemCount: 15 });
    },
    slow,
  );
});
