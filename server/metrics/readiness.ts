/**
 * Readiness (`GET /api/health/ready`, docs/monitoring.md "Liveness and readiness"): 200 when the
 * database answers and has every migration this code carries (drizzle/meta/_journal.json), else
 * 503 `not_ready`. A load balancer sends traffic only to a ready process; liveness (`/api/health`)
 * is a separate question. No authentication and no rate limit: probes call it often.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { sql } from 'drizzle-orm';
import { databaseCode, migrationsFolder, type Database } from '../db/index.ts';
import { query } from '../content/storage.ts';
import { AppError } from '../lib/errors.ts';
import { responses } from '../lib/schemas.ts';

const lacking = 'The database lacks migrations this version needs (they are applied at start).';

/** A database that has not answered within this long is not ready. */
const answerWithinMs = 5000;

/** The migrations this code carries: how many, and the journal time (`when`) of the newest. */
function carriedMigrations(): { count: number; newest: number } {
  const journal = JSON.parse(readFileSync(path.join(migrationsFolder, 'meta/_journal.json'), 'utf8')) as { entries: { when: number }[] };
  return { count: journal.entries.length, newest: Math.max(0, ...journal.entries.map((e) => e.when)) };
}

/**
 * Why the database is not ready, or null. Drizzle's bookkeeping (`drizzle.__drizzle_migrations`,
 * created_at = the journal's `when`) applies migrations in order, so the newest applied one tells
 * whether all are.
 */
async function notReadyReason(database: Database, newest: number): Promise<string | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), answerWithinMs);
  });
  const read = query<{ newest: string | null }>(database.db, sql`select max(created_at)::text as newest from drizzle.__drizzle_migrations`);
  try {
    const answer = await Promise.race([read, late]);
    if (answer === 'late') return `The database did not answer within ${answerWithinMs / 1000} s.`;
    if (Number(answer[0]?.newest ?? 0) < newest) return lacking;
    return null;
  } catch (error) {
    // 42P01: no bookkeeping table, a database never migrated.
    return databaseCode(error) === '42P01' ? lacking : 'The database does not answer.';
  } finally {
    clearTimeout(timer);
    read.catch(() => undefined);
  }
}

export function readinessRoute(fastify: FastifyInstance): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const carried = carriedMigrations();
  app.get(
    '/api/health/ready',
    {
      schema: {
        summary: 'Readiness: the database answers and has every migration',
        tags: ['system'],
        response: responses({ 200: Type.Object({ status: Type.Literal('ready'), db: Type.String(), migrations: Type.Integer() }) }),
      },
    },
    async function ready() {
      const { database } = app.ctx;
      const reason = await notReadyReason(database, carried.newest);
      if (reason) throw new AppError(503, 'not_ready', reason);
      return { status: 'ready' as const, db: database.kind, migrations: carried.count };
    },
  );
}
