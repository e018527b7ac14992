/**
 * SimultaneousLive across server processes (docs/billing.md "Usage metering"): two app instances on one
 * database stand for two processes; streams open in both count together (the sum, not the larger
 * of the two), a process that is gone or silent for three heartbeats counts for nothing, a closed
 * process takes its rows away, and opening a stream stays free of I/O.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { sql } from 'drizzle-orm';
import { buildApp, type App } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import type { Database, Db } from '../../server/db/index.ts';
import { UsageMeter } from '../../server/usage/usage.ts';
import { databaseKinds, json, openTestDatabase, testEnv } from './support/test-app.ts';
import { bearer } from './support/flows.ts';
import { contentFixture, type ContentFixture } from './support/content.ts';

describe('UsageMeter sharing live counts, without a database', () => {
  it('opening and closing a stream does no I/O', () => {
    const execute = vi.fn(async () => ({ rows: [] }));
    const touched: string[] = [];
    const db = new Proxy({ execute } as Record<string, unknown>, {
      get(target, property) {
        touched.push(String(property));
        return target[property as string];
      },
    }) as unknown as Db;
    const meter = new UsageMeter(db, { shareLive: true });
    const release = meter.openLive('org-a');
    meter.openLive('org-a');
    release();
    expect(meter.liveCount('org-a')).toBe(1);
    expect(touched).toEqual([]);
  });
});

describe.each(databaseKinds)('SimultaneousLive over processes on %s', (kind) => {
  let database: Database;
  let first: App;
  let second: App;
  let f: ContentFixture;
  let dataDir: string;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
    dataDir = mkdtempSync(path.join(tmpdir(), 'larder-usage-live-'));
    const config = loadConfig({ ...testEnv, FILES_SWEEP_INTERVAL_S: '0', DATA_DIR: dataDir });
    first = await buildApp({ config, database, logger: false });
    second = await buildApp({ config, database, logger: false });
    await first.ready();
    await second.ready();
    f = await contentFixture({ app: first, config, database, close: async () => {} } as never);
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await database?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const newOrg = async () => {
    const created = await first.inject({ method: 'POST', url: '/api/organization', headers: bearer(f.access), payload: { name: 'Live metered' } });
    expect(created.statusCode, created.body).toBe(201);
    return json(created).id as string;
  };
  const simultaneous = async (app: App, org: string) => (await app.ctx.usage.read(org)).usage.find((line) => line.name === 'SimultaneousLive')!.amount;
  const rowsOf = async (org: string) =>
    ((await database.db.execute(sql`select process_id, open from usage_live_processes where organization_id = ${org} order by process_id`)) as unknown as {
      rows: { process_id: string; open: number }[];
    }).rows.map((row) => [row.process_id, Number(row.open)]);

  it('sums the streams open in every process', async () => {
    const org = await newOrg();
    const inFirst = [first.ctx.usage.openLive(org), first.ctx.usage.openLive(org)];
    const inSecond = [second.ctx.usage.openLive(org), second.ctx.usage.openLive(org), second.ctx.usage.openLive(org)];
    await first.ctx.usage.flush();
    await second.ctx.usage.flush();
    // Each process alone saw at most 3; together 5 were open.
    expect(await simultaneous(first, org)).toBe(5);
    expect(await simultaneous(second, org)).toBe(5);
    expect((await rowsOf(org)).sort()).toEqual([[first.ctx.usage.processId, 2], [second.ctx.usage.processId, 3]].sort());

    // Streams that close leave the peak as it was, and their rows follow the counts.
    for (const release of inSecond) release();
    inFirst[0]!();
    await second.ctx.usage.flush();
    await first.ctx.usage.flush();
    expect(await rowsOf(org)).toEqual([[first.ctx.usage.processId, 1]]);
    expect(await simultaneous(first, org)).toBe(5);
    inFirst[1]!();
    await first.ctx.usage.flush();
    expect(await rowsOf(org)).toEqual([]);
  });

  it('a process not heard from within three heartbeats counts for nothing; a closed one removes its rows', async () => {
    const org = await newOrg();
    // A process that died with 100 streams open a minute ago (heartbeats every 10 s).
    await database.db.execute(sql`insert into usage_live_processes (process_id, organization_id, open, heartbeat_at) values ('gone', ${org}, 100, now() - interval '1 minute')`);
    // And one that is still there with 4.
    await database.db.execute(sql`insert into usage_live_processes (process_id, organization_id, open, heartbeat_at) values ('alive', ${org}, 4, now())`);
    const release = first.ctx.usage.openLive(org);
    await first.ctx.usage.flush();
    expect(await simultaneous(first, org)).toBe(5);
    release();
    await first.ctx.usage.flush();

    // A process that closes takes its rows away.
    const meter = new UsageMeter(database.db, { shareLive: true });
    meter.openLive(org);
    meter.openLive(org);
    await meter.flush();
    expect(await rowsOf(org)).toContainEqual([meter.processId, 2]);
    expect(await simultaneous(first, org)).toBe(6);
    await meter.close();
    expect((await rowsOf(org)).map(([processId]) => processId).sort()).toEqual(['alive', 'gone']);
  });
});
