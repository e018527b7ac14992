/**
 * A project's integration instances (docs/integrations.md "Instances"): made, changed, listed and
 * deleted, each checked against its catalogue entry (definitions/integrations/). The settings that
 * are secrets are sealed together with the secrets key and never answered; an edit that leaves a
 * secret out keeps it, `null` removes it.
 */
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { and, count, desc, eq, sql } from 'drizzle-orm';
import { formAjvOptions } from '../../definitions/forms/ajv-options.ts';
import { integration as catalogueEntry, itemEvents, type IntegrationDefinition } from '../../definitions/integrations/index.ts';
import {
  integrationLimits,
  type IntegrationInstance,
  type IntegrationInstanceInput,
  type IntegrationInstanceUpdate,
  type IntegrationRunPage,
} from '../../definitions/schemas/integrations.ts';
import type { Db } from '../db/index.ts';
import { integrationInstances, integrationRuns } from '../db/schema.ts';
import { AppError, conflict, notFound } from '../lib/errors.ts';
import { newId } from '../lib/ids.ts';
import type { SecretBox } from '../lib/secrets.ts';
import { collectionNames, nextRun, projectSlugs, resolveCollections } from '../lib/subscribers.ts';
import { OutboundError, type UrlGuard } from '../lib/url-guard.ts';

type Row = typeof integrationInstances.$inferSelect;
type Problems = { path: string; message: string }[];
type Secrets = Record<string, string>;

const invalid = (errors: Problems) => new AppError(400, 'integration_invalid', errors.map((e) => `${e.path}: ${e.message}`).join('; '), { errors });
export const integrationNotFound = () => notFound('integration_not_found', 'There is no such integration.');

const ajv = new Ajv({ ...formAjvOptions, strict: false });
addFormats(ajv);
const validators = new Map<string, ValidateFunction>();
function settingsValidator(entry: IntegrationDefinition): ValidateFunction {
  let validate = validators.get(entry.id);
  if (!validate) {
    validate = ajv.compile(entry.settings.schema);
    validators.set(entry.id, validate);
  }
  return validate;
}

export interface InstanceScope {
  organizationId: string;
  projectId: string;
  userId: string;
}

export class IntegrationInstanceService {
  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
    private readonly outbound: UrlGuard,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** An instance as answered; its collections as `collectionNames` answers them. */
  private view(row: Row, slugs: ReadonlyMap<string, string>): IntegrationInstance {
    const entry = catalogueEntry(row.integration);
    const stored = this.openSecrets(row);
    return {
      id: row.id,
      integration: row.integration,
      name: row.name,
      enabled: row.enabled,
      collections: collectionNames(row.collections, slugs),
      events: row.events as IntegrationInstance['events'],
      schedule: row.schedule,
      nextRunDate: row.nextRunAt?.toISOString() ?? null,
      settings: row.settings,
      secretsSet: Object.fromEntries((entry?.secrets ?? []).map((name) => [name, stored !== null && typeof stored[name] === 'string'])),
      lastRunDate: row.lastRunAt?.toISOString() ?? null,
      lastStatus: row.lastStatus,
      lastError: row.lastError,
      createdDate: row.createdAt.toISOString(),
      updatedDate: row.updatedAt.toISOString(),
    };
  }

  /** The stored secrets ({} without any; null when the secrets key that sealed them is gone). */
  openSecrets(row: Pick<Row, 'secretsEncrypted'>): Secrets | null {
    if (!row.secretsEncrypted) return {};
    const plain = this.box.open(row.secretsEncrypted);
    return plain === null ? null : (JSON.parse(plain) as Secrets);
  }

  private async row(projectId: string, id: string): Promise<Row> {
    const [row] = await this.db.select().from(integrationInstances).where(and(eq(integrationInstances.projectId, projectId), eq(integrationInstances.id, id)));
    if (!row) throw integrationNotFound();
    return row;
  }

  async list(projectId: string): Promise<IntegrationInstance[]> {
    const rows = await this.db.select().from(integrationInstances).where(eq(integrationInstances.projectId, projectId)).orderBy(integrationInstances.createdAt, integrationInstances.id);
    const slugs = await projectSlugs(this.db, projectId);
    return rows.map((row) => this.view(row, slugs));
  }

  async get(projectId: string, id: string): Promise<IntegrationInstance> {
    const row = await this.row(projectId, id);
    return this.view(row, await projectSlugs(this.db, projectId));
  }

  /** The instance's settings with its secrets, for its handler (server side only). */
  async forRun(id: string): Promise<{ row: Row; entry: IntegrationDefinition; settings: Record<string, unknown> } | { row: Row; error: string } | undefined> {
    const [row] = await this.db.select().from(integrationInstances).where(eq(integrationInstances.id, id));
    if (!row) return undefined;
    const entry = catalogueEntry(row.integration);
    if (!entry) return { row, error: `The integration "${row.integration}" is no longer in the catalogue.` };
    const secrets = this.openSecrets(row);
    if (secrets === null) return { row, error: 'The stored secrets cannot be read (SECRETS_KEY changed?): enter them again in the settings.' };
    return { row, entry, settings: { ...row.settings, ...secrets } };
  }

  /** Checks a whole instance (the stored one with the change applied): a clear 400 naming every problem. */
  private async check(
    projectId: string,
    entry: IntegrationDefinition,
    input: Required<Omit<IntegrationInstanceInput, 'integration' | 'enabled'>>,
    stored: Secrets,
  ): Promise<{ settings: Record<string, unknown>; secrets: Secrets; collections: string[]; events: string[]; schedule: string | null; nextRunAt: Date | null }> {
    const errors: Problems = [];
    const name = input.name.trim();
    if (!name) errors.push({ path: 'name', message: 'must not be empty' });

    // Settings: the secrets sent (a string to set, null to remove) over those stored, then the whole checked by the entry's schema.
    const secrets: Secrets = { ...stored };
    const settings: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(input.settings)) {
      if (entry.secrets.includes(key)) {
        if (value === null) delete secrets[key];
        else if (typeof value === 'string') secrets[key] = entry.settings.fields.find((f) => f.name === key)?.trim ? value.trim() : value;
        else errors.push({ path: `settings/${key}`, message: 'must be a string' });
      } else if (value !== null && value !== '') settings[key] = typeof value === 'string' && entry.settings.fields.find((f) => f.name === key)?.trim ? value.trim() : value;
    }
    for (const key of Object.keys(secrets)) if (!entry.secrets.includes(key)) delete secrets[key];
    const validate = settingsValidator(entry);
    if (!validate({ ...settings, ...secrets })) {
      for (const error of validate.errors ?? []) {
        const property = error.instancePath.split('/')[1] ?? (error.params as { missingProperty?: string; additionalProperty?: string }).missingProperty ?? (error.params as { additionalProperty?: string }).additionalProperty ?? '';
        errors.push({ path: `settings${property ? `/${property}` : ''}`, message: error.keyword === 'additionalProperties' ? 'is not a setting of this integration' : (error.message ?? 'is not valid') });
      }
    }
    for (const key of entry.requiredSecrets) if (!secrets[key]) errors.push({ path: `settings/${key}`, message: 'must be given' });
    // Addresses the runs will call: refused now when the URL guard would refuse them then (a name
    // that does not resolve yet passes; every call checks again).
    for (const key of entry.addresses) {
      const value = key in secrets ? secrets[key] : settings[key];
      if (typeof value !== 'string' || !value || errors.some((e) => e.path === `settings/${key}`)) continue;
      try {
        await this.outbound.checkResolved(value);
      } catch (error) {
        const reason = error instanceof OutboundError ? error.message : 'not an address';
        errors.push({ path: `settings/${key}`, message: `must be a public http or https address (${reason})` });
      }
    }

    // Collections: one top-level collection, or any lists (ids, slugs, nested slugs).
    const { resolved, errors: listErrors } = await resolveCollections(this.db, projectId, input.collections, entry.collections === 'one');
    for (const message of listErrors) errors.push({ path: 'collections', message });
    if (entry.collections === 'one' && new Set(input.collections.map((c) => c.trim())).size !== 1) errors.push({ path: 'collections', message: 'must name exactly one collection' });

    // Events: those the integration reacts to; a schedule when it runs on one.
    const offered = itemEvents.filter((event) => entry.events.includes(event));
    const events = [...new Set(input.events)];
    for (const event of events) if (!offered.includes(event)) errors.push({ path: 'events', message: `"${event}" is not an event this integration reacts to` });
    if (offered.length && !events.length) errors.push({ path: 'events', message: `must name at least one of ${offered.join(', ')}` });
    let schedule: string | null = null;
    let nextRunAt: Date | null = null;
    if (entry.events.includes('schedule')) {
      schedule = input.schedule?.trim() || null;
      if (!schedule) errors.push({ path: 'schedule', message: 'must be a cron expression, e.g. "0 3 * * *" (every day at 03:00 UTC)' });
      else {
        const next = nextRun(schedule, this.now());
        if ('error' in next) errors.push({ path: 'schedule', message: next.error });
        else nextRunAt = next.next;
      }
    } else if (input.schedule) errors.push({ path: 'schedule', message: 'this integration does not run on a schedule' });

    if (errors.length) throw invalid(errors);
    return { settings, secrets, collections: resolved, events, schedule, nextRunAt };
  }

  async create(scope: InstanceScope, input: IntegrationInstanceInput): Promise<IntegrationInstance> {
    const entry = catalogueEntry(input.integration);
    if (!entry) throw invalid([{ path: 'integration', message: `"${input.integration.slice(0, 64)}" is not an integration of the catalogue` }]);
    const checked = await this.check(
      scope.projectId,
      entry,
      { name: input.name, collections: input.collections ?? [], events: input.events ?? [], schedule: input.schedule ?? null, settings: input.settings ?? {} },
      {},
    );
    const enabled = input.enabled ?? true;
    const id = newId();
    const inserted = await this.db.transaction(async (tx) => {
      // Counted under the project's row lock, so two creates cannot both pass the limit.
      await tx.execute(sql`select id from projects where id = ${scope.projectId} for update`);
      const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(integrationInstances).where(eq(integrationInstances.projectId, scope.projectId));
      if (Number(n) >= integrationLimits.perProject) {
        throw conflict('integration_limit', `A project may have at most ${integrationLimits.perProject} integrations.`, { max: integrationLimits.perProject });
      }
      const [row] = await tx
        .insert(integrationInstances)
        .values({
          id,
          projectId: scope.projectId,
          organizationId: scope.organizationId,
          integration: entry.id,
          name: input.name.trim(),
          enabled,
          collections: checked.collections,
          events: checked.events,
          schedule: checked.schedule,
          nextRunAt: enabled ? checked.nextRunAt : null,
          settings: checked.settings,
          secretsEncrypted: Object.keys(checked.secrets).length ? this.box.seal(JSON.stringify(checked.secrets)) : null,
          enabledSnapshot: enabled ? sql`pg_current_snapshot()::text` : null,
          createdBy: scope.userId,
        })
        .returning();
      return row!;
    });
    return this.view(inserted, await projectSlugs(this.db, scope.projectId));
  }

  async update(projectId: string, id: string, input: IntegrationInstanceUpdate): Promise<IntegrationInstance> {
    const row = await this.row(projectId, id);
    const entry = catalogueEntry(row.integration);
    if (!entry) throw invalid([{ path: 'integration', message: `"${row.integration}" is no longer in the catalogue; delete this instance` }]);
    const stored = this.openSecrets(row) ?? {};
    // Settings not sent keep their stored values; secrets too (handled in check).
    const settings = { ...row.settings, ...(input.settings ?? {}) };
    const checked = await this.check(
      projectId,
      entry,
      {
        name: input.name ?? row.name,
        collections: input.collections ?? row.collections,
        events: (input.events ?? row.events) as IntegrationInstanceInput['events'] & object,
        schedule: input.schedule === undefined ? row.schedule : input.schedule,
        settings,
      },
      stored,
    );
    const enabled = input.enabled ?? row.enabled;
    const reEnabled = enabled && !row.enabled;
    const [updated] = await this.db
      .update(integrationInstances)
      .set({
        name: (input.name ?? row.name).trim(),
        enabled,
        collections: checked.collections,
        events: checked.events,
        schedule: checked.schedule,
        nextRunAt: enabled ? (checked.schedule === row.schedule && !reEnabled && row.nextRunAt ? row.nextRunAt : checked.nextRunAt) : null,
        settings: checked.settings,
        secretsEncrypted: Object.keys(checked.secrets).length ? this.box.seal(JSON.stringify(checked.secrets)) : null,
        ...(reEnabled ? { enabledSnapshot: sql`pg_current_snapshot()::text` } : {}),
        updatedAt: new Date(),
      })
      .where(and(eq(integrationInstances.projectId, projectId), eq(integrationInstances.id, id)))
      .returning();
    if (!updated) throw integrationNotFound();
    return this.view(updated, await projectSlugs(this.db, projectId));
  }

  async remove(projectId: string, id: string): Promise<void> {
    const gone = await this.db.delete(integrationInstances).where(and(eq(integrationInstances.projectId, projectId), eq(integrationInstances.id, id))).returning({ id: integrationInstances.id });
    if (!gone.length) throw integrationNotFound();
  }

  async runs(projectId: string, id: string, page: number): Promise<IntegrationRunPage> {
    await this.row(projectId, id);
    const perPage = integrationLimits.runsPerPage;
    const where = eq(integrationRuns.instanceId, id);
    const [rows, [total]] = await Promise.all([
      this.db.select().from(integrationRuns).where(where).orderBy(desc(integrationRuns.createdAt), desc(integrationRuns.id)).limit(perPage).offset((page - 1) * perPage),
      this.db.select({ n: count() }).from(integrationRuns).where(where),
    ]);
    return {
      runs: rows.map((run) => ({
        id: run.id,
        trigger: run.trigger,
        status: run.status,
        attempts: run.attempts,
        detail: run.detail,
        error: run.error,
        durationMs: run.durationMs,
        createdDate: run.createdAt.toISOString(),
        finishedDate: run.finishedAt?.toISOString() ?? null,
      })),
      total: Number(total?.n ?? 0),
      page,
      perPage,
    };
  }
}
