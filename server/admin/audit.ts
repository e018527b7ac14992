/**
 * The audit log of the platform admin area (docs/admin.md "Audit log"): every admin action, from
 * the console or the command line, is one row — who, what, when, and the target before and after.
 * An action records itself in the transaction that makes the change, so a change without its
 * entry (or an entry without its change) cannot be committed.
 */
import { and, count, desc, eq, type SQL } from 'drizzle-orm';
import type { AuditAction, AuditTargetKind } from '../../definitions/admin.ts';
import type { AuditEntry, AuditPage, AuditQuery } from '../../definitions/schemas/admin.ts';
import type { Db } from '../db/index.ts';
import { adminAudit } from '../db/schema.ts';
import { newId } from '../lib/ids.ts';

/** Who acts: a signed-in super-admin (`id`, and their e-mail as `name`) or the command line (`id` null). */
export interface AuditActor {
  id: string | null;
  name: string;
}

export interface AuditRecord {
  action: AuditAction;
  targetKind: AuditTargetKind;
  targetId: string | null;
  before?: unknown;
  after?: unknown;
}

type Executor = Pick<Db, 'insert'>;

export class AuditLog {
  constructor(private readonly db: Db) {}

  /** Records one action; pass the transaction that makes the change. */
  async record(tx: Executor, actor: AuditActor, entry: AuditRecord): Promise<void> {
    await tx.insert(adminAudit).values({
      // Time first, so ids sort as the entries were made within the same millisecond's order.
      id: `${Date.now().toString(16).padStart(12, '0')}${newId().slice(0, 12)}`,
      actorId: actor.id,
      actor: actor.name,
      action: entry.action,
      targetKind: entry.targetKind,
      targetId: entry.targetId,
      before: entry.before ?? null,
      after: entry.after ?? null,
    });
  }

  /** Newest first, filtered by action and target. */
  async list(query: AuditQuery): Promise<AuditPage> {
    const page = query.page ?? 1;
    const perPage = query.perPage ?? 50;
    const filters: SQL[] = [];
    if (query.action) filters.push(eq(adminAudit.action, query.action));
    if (query.targetKind) filters.push(eq(adminAudit.targetKind, query.targetKind));
    if (query.targetID) filters.push(eq(adminAudit.targetId, query.targetID));
    const where = filters.length ? and(...filters) : undefined;
    const [rows, [total]] = await Promise.all([
      this.db
        .select()
        .from(adminAudit)
        .where(where)
        .orderBy(desc(adminAudit.at), desc(adminAudit.id))
        .limit(perPage)
        .offset((page - 1) * perPage),
      this.db.select({ n: count() }).from(adminAudit).where(where),
    ]);
    const entries: AuditEntry[] = rows.map((row) => ({
      id: row.id,
      at: row.at.toISOString(),
      actorID: row.actorId,
      actor: row.actor,
      action: row.action as AuditAction,
      targetKind: row.targetKind,
      targetID: row.targetId,
      before: row.before,
      after: row.after,
    }));
    return { entries, total: total?.n ?? 0, page, perPage };
  }
}
