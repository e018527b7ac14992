/**
 * Soft launch (docs/admin.md "Soft launch"): while it is on, billing — the runs' charges, the
 * statuses and the usage limits — applies only to the organizations on its whitelist. The switch
 * is the settings row `softLaunch` (`{enabled}`), the list the table `soft_launch_whitelist`;
 * migration 0028's triggers drop the cached billing accounts in every process when either
 * changes, so enforcement follows at once (server/billing/enforcement.ts).
 */
import { asc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { SoftLaunch, SoftLaunchWhitelist } from '../../definitions/schemas/admin.ts';
import { organizations, settings, softLaunchWhitelist } from '../db/schema.ts';
import type { Db } from '../db/index.ts';
import { notFound } from '../lib/errors.ts';
import { softLaunchKey } from '../billing/enforcement.ts';
import type { AuditActor } from './audit.ts';
import type { AdminDeps } from './deps.ts';

type Reader = Pick<Db, 'select'>;

export class SoftLaunchService {
  constructor(private readonly deps: AdminDeps) {}

  private get db(): Db {
    return this.deps.ctx.database.db;
  }

  /** The switch (off when never set). */
  async get(executor: Reader = this.db): Promise<SoftLaunch> {
    const [row] = await executor.select({ value: settings.value }).from(settings).where(eq(settings.key, softLaunchKey));
    return { enabled: (row?.value as { enabled?: unknown } | undefined)?.enabled === true };
  }

  /**
   * Turns soft launch on or off (audited `softLaunch.set`). Setting what is already set writes
   * and records nothing (as for the users' actions, docs/admin.md "Users"), nor drops every
   * process's cached billing accounts.
   */
  async set(enabled: boolean, actor: AuditActor): Promise<SoftLaunch> {
    return this.db.transaction(async (tx) => {
      // The row locked (when there is one), so two switches at once record the true "before".
      await tx.execute(sql`select 1 from settings where key = ${softLaunchKey} for update`);
      const before = await this.get(tx);
      if (before.enabled === enabled) return before;
      await tx
        .insert(settings)
        .values({ key: softLaunchKey, value: { enabled } })
        .onConflictDoUpdate({ target: settings.key, set: { value: { enabled } } });
      await this.deps.audit.record(tx, actor, { action: 'softLaunch.set', targetKind: 'softLaunch', targetId: null, before, after: { enabled } });
      return { enabled };
    });
  }

  /** The whitelist, in the order organizations were added. */
  async whitelist(executor: Reader = this.db): Promise<SoftLaunchWhitelist> {
    const rows = await executor
      .select({ id: softLaunchWhitelist.organizationId })
      .from(softLaunchWhitelist)
      .orderBy(asc(softLaunchWhitelist.addedAt), asc(softLaunchWhitelist.organizationId));
    return { organizationIDs: rows.map((row) => row.id) };
  }

  /**
   * Replaces the whitelist (audited `softLaunch.setWhitelist`, the lists before and after). An id
   * of no organization is 404 `organization_not_found` and nothing is written; the list it
   * already is writes and records nothing.
   */
  async setWhitelist(organizationIds: readonly string[], actor: AuditActor): Promise<SoftLaunchWhitelist> {
    const wanted = [...new Set(organizationIds)];
    return this.db.transaction(async (tx) => {
      if (wanted.length) {
        // Locks the organizations named, so none is deleted between this check and the insert.
        const found = new Set((await tx.select({ id: organizations.id }).from(organizations).where(inArray(organizations.id, wanted)).for('share')).map((r) => r.id));
        const missing = wanted.filter((id) => !found.has(id));
        if (missing.length) throw notFound('organization_not_found', `There is no organization ${missing.slice(0, 5).join(', ')}${missing.length > 5 ? ', …' : ''}.`);
      }
      // One replacement at a time: the list read as "before" is the one replaced.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('larder soft launch whitelist'))`);
      const before = await this.whitelist(tx);
      if (before.organizationIDs.length === wanted.length && wanted.every((id) => before.organizationIDs.includes(id))) return before;
      if (wanted.length) await tx.delete(softLaunchWhitelist).where(notInArray(softLaunchWhitelist.organizationId, wanted));
      else await tx.delete(softLaunchWhitelist);
      if (wanted.length) await tx.insert(softLaunchWhitelist).values(wanted.map((organizationId) => ({ organizationId }))).onConflictDoNothing();
      const after = await this.whitelist(tx);
      await this.deps.audit.record(tx, actor, { action: 'softLaunch.setWhitelist', targetKind: 'softLaunch', targetId: null, before, after });
      return after;
    });
  }
}
