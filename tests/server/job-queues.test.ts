/**
 * Several processes starting at once on a fresh PostgreSQL database migrate it one at a time
 * (server/db/index.ts) and make the same job queues at once (server/webhooks/delivery.ts ensureQueue): pg-boss's createQueue deadlocks there (40P01)
 * and a process that lost died at start. Two pg-boss instances with pools of their own stand for
 * two processes; both must come up with every queue, whatever the order.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import PgBoss from 'pg-boss';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { query } from '../../server/content/storage.ts';
import { openDatabase } from '../../server/db/index.ts';
import { newId } from '../../server/lib/ids.ts';
import { ensureQueue } from '../../server/webhooks/delivery.ts';

const names = ['webhook-delivery', 'billing-run', 'invoice-mail', 'integration-run', 'function-run'];

describe.skipIf(!process.env.TEST_DATABASE_URL)('job queues made by processes starting at once', () => {
  it('come up in both processes on a fresh database, however their creations cross', async () => {
    const adminUrl = process.env.TEST_DATABASE_URL!;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    try {
      for (let round = 0; round < 3; round++) {
        const name = `larder_t_${newId()}`;
        await admin.query(`create database ${name}`);
        const url = new URL(adminUrl);
        url.pathname = `/${name}`;
        const bosses = [0, 1].map(() => new PgBoss({ connectionString: url.toString(), schedule: false, supervise: false }));
        for (const boss of bosses) boss.on('error', () => undefined);
        try {
          await Promise.all(bosses.map((boss) => boss.start()));
          // One makes them in order, the other in reverse: the crossing that deadlocked.
          await Promise.all(bosses.map(async (boss, i) => {
            for (const queue of i ? [...names].reverse() : names) await ensureQueue(boss, queue);
          }));
          const made = await bosses[0]!.getQueues();
          expect(made.map((q) => q.name).sort()).toEqual([...names].sort());
        } finally {
          await Promise.all(bosses.map((boss) => boss.stop({ graceful: false, wait: true }).catch(() => undefined)));
          await admin.query(`drop database if exists ${name} with (force)`);
        }
      }
    } finally {
      await admin.end();
    }
  }, 120_000);
});

describe.skipIf(!process.env.TEST_DATABASE_URL)('migrations applied by processes starting at once', () => {
  it('are applied once and both open an empty database', async () => {
    const adminUrl = process.env.TEST_DATABASE_URL!;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    const name = `larder_t_${newId()}`;
    await admin.query(`create database ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    try {
      const opened = await Promise.all([0, 1, 2].map(() => openDatabase({ databaseUrl: url.toString(), poolSize: 2 })));
      try {
        const [applied] = await query(opened[0]!.db, sql`select count(*)::int as n from drizzle.__drizzle_migrations`);
        const journal = JSON.parse(readFileSync(path.resolve('drizzle/meta/_journal.json'), 'utf8')) as { entries: unknown[] };
        expect(Number(applied!.n)).toBe(journal.entries.length);
      } finally {
        await Promise.all(opened.map((database) => database.close()));
      }
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  }, 120_000);
});
