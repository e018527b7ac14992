/**
 * A project's functions (docs/functions.md "Functions and versions", "The invocation log"): made,
 * changed and deleted; each saved source a new version (compiled first: a source that does not
 * compile saves nothing); one version deployed; every run logged with the project's secrets taken
 * out; project secrets sealed with the secrets key and never answered.
 */
import { and, count, desc, eq, inArray, isNull, lt, max, ne, sql } from 'drizzle-orm';
import {
  functionLimits,
  type FunctionInput,
  type FunctionInvocationPage,
  type FunctionInvocationView,
  type FunctionUpdate,
  type FunctionVersionView,
  type FunctionView,
} from '../../definitions/schemas/functions.ts';
import type { Db } from '../db/index.ts';
import type { Executor } from '../content/storage.ts';
import { apiTokens, functionInvocations, functionRuns, functions, functionVersions, projectFunctionSecrets } from '../db/schema.ts';
import { AppError, conflict, notFound } from '../lib/errors.ts';
import { newId } from '../lib/ids.ts';
import { collectionNames, nextRun, projectSlugs, resolveCollections } from '../lib/subscribers.ts';
import type { SecretBox } from '../lib/secrets.ts';
import type { SharedCache } from '../lib/shared-cache.ts';
import { compileFunction } from './compile.ts';
import type { InvocationResult, SandboxLimits, SandboxPool } from './sandbox.ts';

type FunctionRow = typeof functions.$inferSelect;
type VersionRow = typeof functionVersions.$inferSelect;
type InvocationRow = typeof functionInvocations.$inferSelect;

/** Rows the retention sweep deletes a statement. */
const SWEEP_BATCH = 1000;
/** What replaces a secret's value in the log and in answers. */
export const hiddenSecret = '[secret]';

export const functionNotFound = () => notFound('function_not_found', 'There is no such function.');
const invalid = (errors: { path: string; message: string }[]) => new AppError(400, 'function_invalid', errors.map((e) => `${e.path}: ${e.message}`).join('; '), { errors });

export interface FunctionsConfig {
  memoryBytes: number;
  timeoutMs: number;
  concurrencyPerProject: number;
  logRetentionDays: number;
}

/** What a run needs of the host: its host calls (fetch, data), given the function. */
export type HostFor = (fn: FunctionRow) => { host: (name: string, args: unknown[]) => Promise<unknown>; end(): void };

export interface RunOutcome {
  result: InvocationResult;
  invocation: FunctionInvocationView;
}

/** Replaces every stored secret's value in a text (values shorter than 4 characters are left: they would hide ordinary words). */
export function hideSecretValues(text: string, values: string[]): string {
  let out = text;
  for (const value of values) if (value.length >= 4) out = out.split(value).join(hiddenSecret);
  return out;
}

/** The start of a text within `bytes` bytes of UTF-8, not cut inside a character. */
function cutBytes(text: string, bytes: number): string {
  if (Buffer.byteLength(text) <= bytes) return text;
  return Buffer.from(text).subarray(0, bytes).toString().replace(/\uFFFD$/, '');
}

export type InvocationInsert = typeof functionInvocations.$inferInsert;

export class FunctionService {
  /** Runs of each project under way in this process (FUNCTION_CONCURRENCY_PER_PROJECT). */
  private readonly running = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
    /** The sandbox pool, made on first use unless the app made it at start (server/functions/index.ts). */
    private readonly pool: () => SandboxPool,
    private readonly config: FunctionsConfig,
    private readonly hostFor: HostFor,
    /**
     * Per-process caches for the HTTP trigger's hot path: a function's row by project and name, and
     * the project's opened secrets, dropped in every process at commit of a change (migration 0035).
     */
    private readonly caches?: { functions: SharedCache<FunctionRow>; secrets: SharedCache<Record<string, string>> },
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Versions by id: they never change, so any process may keep them (a few hundred at most). */
  private readonly keptVersions = new Map<string, VersionRow>();

  get limits(): SandboxLimits {
    return { memoryBytes: this.config.memoryBytes, timeoutMs: this.config.timeoutMs, maxOutputBytes: 1024 * 1024, maxLogBytes: 64 * 1024 };
  }

  private async numbers(functionIds: string[]): Promise<Map<string, { latest: number | null; ids: Map<string, number> }>> {
    const out = new Map<string, { latest: number | null; ids: Map<string, number> }>();
    if (!functionIds.length) return out;
    const rows = await this.db.select({ id: functionVersions.id, functionId: functionVersions.functionId, number: functionVersions.number }).from(functionVersions).where(inArray(functionVersions.functionId, functionIds));
    for (const row of rows) {
      const entry = out.get(row.functionId) ?? { latest: null, ids: new Map() };
      entry.ids.set(row.id, row.number);
      entry.latest = Math.max(entry.latest ?? 0, row.number);
      out.set(row.functionId, entry);
    }
    return out;
  }

  private view(row: FunctionRow, numbers: { latest: number | null; ids: Map<string, number> } | undefined, slugs: ReadonlyMap<string, string>): FunctionView {
    return {
      id: row.id,
      name: row.name,
      language: row.language,
      public: row.public,
      apiTokenID: row.apiTokenId,
      deployedVersionID: row.deployedVersionId,
      deployedVersion: row.deployedVersionId ? (numbers?.ids.get(row.deployedVersionId) ?? null) : null,
      latestVersion: numbers?.latest ?? null,
      events: row.events,
      collections: collectionNames(row.collections, slugs),
      schedule: row.schedule,
      nextRunDate: row.nextRunAt?.toISOString() ?? null,
      createdDate: row.createdAt.toISOString(),
      updatedDate: row.updatedAt.toISOString(),
    };
  }

  async row(projectId: string, name: string): Promise<FunctionRow> {
    const [row] = await this.db.select().from(functions).where(and(eq(functions.projectId, projectId), eq(functions.name, name)));
    if (!row) throw functionNotFound();
    return row;
  }

  /** `row` through the per-process cache (the HTTP trigger); a missing function is not cached. */
  async hotRow(projectId: string, name: string): Promise<FunctionRow> {
    if (!this.caches) return this.row(projectId, name);
    return this.caches.functions.get(`${projectId}:${name}`, () => this.row(projectId, name));
  }

  async list(projectId: string): Promise<FunctionView[]> {
    const rows = await this.db.select().from(functions).where(eq(functions.projectId, projectId)).orderBy(functions.name);
    const numbers = await this.numbers(rows.map((r) => r.id));
    const slugs = await projectSlugs(this.db, projectId);
    return rows.map((row) => this.view(row, numbers.get(row.id), slugs));
  }

  async get(projectId: string, name: string): Promise<FunctionView> {
    const row = await this.row(projectId, name);
    return this.view(row, (await this.numbers([row.id])).get(row.id), await projectSlugs(this.db, projectId));
  }

  /**
   * The triggers as sent, checked: events, the lists they listen to (kept by row id), and a cron
   * schedule with its next time. Changing the events or lists starts listening afresh: events
   * committed before are not the function's (docs/functions.md "Event and schedule triggers").
   */
  private async checkTriggers(projectId: string, input: FunctionUpdate, row?: FunctionRow) {
    const errors: { path: string; message: string }[] = [];
    const events = input.events === undefined ? (row?.events ?? []) : [...new Set(input.events)];
    let collections = row?.collections ?? [];
    if (input.collections !== undefined) {
      const checked = await resolveCollections(this.db, projectId, input.collections);
      for (const message of checked.errors) errors.push({ path: 'collections', message });
      collections = checked.resolved;
    }
    let schedule = row?.schedule ?? null;
    let nextRunAt = row?.nextRunAt ?? null;
    if (input.schedule !== undefined) {
      const wanted = input.schedule?.trim() || null;
      if (wanted !== schedule || !nextRunAt) {
        schedule = wanted;
        nextRunAt = null;
        if (wanted) {
          const next = nextRun(wanted, this.now());
          if ('error' in next) errors.push({ path: 'schedule', message: next.error });
          else nextRunAt = next.next;
        }
      }
    }
    if (errors.length) throw invalid(errors);
    const listening = JSON.stringify([events, collections]) !== JSON.stringify([row?.events ?? [], row?.collections ?? []]);
    return {
      events,
      collections,
      schedule,
      nextRunAt,
      ...(listening || !row ? { triggersSnapshot: sql`pg_current_snapshot()::text` } : {}),
    };
  }

  /** The token must be one of the project's own API tokens (not a Studio token). */
  private async checkToken(projectId: string, tokenId: string | null | undefined) {
    if (!tokenId) return;
    const [row] = await this.db.select({ id: apiTokens.id }).from(apiTokens).where(and(eq(apiTokens.id, tokenId), eq(apiTokens.projectId, projectId), isNull(apiTokens.temporaryFor)));
    if (!row) throw invalid([{ path: 'apiTokenID', message: 'is not an API token of this project' }]);
  }

  async create(scope: { organizationId: string; projectId: string; userId: string }, input: FunctionInput): Promise<FunctionView> {
    // `…/functions/secrets` is the project's secrets.
    if (input.name === 'secrets') throw invalid([{ path: 'name', message: '"secrets" is a reserved name' }]);
    await this.checkToken(scope.projectId, input.apiTokenID);
    const triggers = await this.checkTriggers(scope.projectId, input);
    const [{ n } = { n: 0 }] = await this.db.select({ n: count() }).from(functions).where(eq(functions.projectId, scope.projectId));
    if (n >= functionLimits.perProject) throw conflict('function_limit', `A project may have at most ${functionLimits.perProject} functions.`, { max: functionLimits.perProject });
    const [row] = await this.db
      .insert(functions)
      .values({
        id: newId(),
        projectId: scope.projectId,
        organizationId: scope.organizationId,
        name: input.name,
        language: input.language ?? 'ts',
        public: input.public ?? false,
        apiTokenId: input.apiTokenID ?? null,
        createdBy: scope.userId,
        ...triggers,
      })
      .onConflictDoNothing()
      .returning();
    if (!row) throw conflict('function_exists', `The project already has a function named "${input.name}".`);
    return this.view(row, undefined, await projectSlugs(this.db, scope.projectId));
  }

  async update(projectId: string, name: string, input: FunctionUpdate): Promise<FunctionView> {
    const row = await this.row(projectId, name);
    if (input.apiTokenID !== undefined) await this.checkToken(projectId, input.apiTokenID);
    const triggers = await this.checkTriggers(projectId, input, row);
    const [updated] = await this.db
      .update(functions)
      .set({
        ...(input.language ? { language: input.language } : {}),
        ...(input.public !== undefined ? { public: input.public } : {}),
        ...(input.apiTokenID !== undefined ? { apiTokenId: input.apiTokenID } : {}),
        ...triggers,
        updatedAt: new Date(),
      })
      .where(eq(functions.id, row.id))
      .returning();
    return this.view(updated!, (await this.numbers([row.id])).get(row.id), await projectSlugs(this.db, projectId));
  }

  async remove(projectId: string, name: string): Promise<void> {
    const row = await this.row(projectId, name);
    await this.db.delete(functions).where(eq(functions.id, row.id));
  }

  /** Compiles and saves a new version; a source that does not compile is 400 with each error's line and column, and nothing is saved. */
  async saveSource(projectId: string, name: string, source: string, userId: string): Promise<FunctionVersionView> {
    const row = await this.row(projectId, name);
    const compiled = await compileFunction(source, row.language);
    if ('errors' in compiled) {
      const errors = compiled.errors.map((e) => ({ path: 'source', message: `${e.line}:${e.column}: ${e.message}`, params: { line: e.line, column: e.column } }));
      throw new AppError(400, 'function_compile_failed', errors.map((e) => `line ${e.params.line}, column ${e.params.column}: ${e.message.replace(/^\d+:\d+: /, '')}`).join('; '), { errors });
    }
    const version = await this.db.transaction(async (tx) => {
      // The function's row is held while the next number is taken: two saves at once get 1 and 2.
      await tx.select({ id: functions.id }).from(functions).where(eq(functions.id, row.id)).for('update');
      const [{ top } = { top: null }] = await tx.select({ top: max(functionVersions.number) }).from(functionVersions).where(eq(functionVersions.functionId, row.id));
      const [made] = await tx
        .insert(functionVersions)
        .values({ id: newId(), functionId: row.id, number: (top ?? 0) + 1, source, code: compiled.code, createdBy: userId })
        .returning();
      await tx.update(functions).set({ updatedAt: new Date() }).where(eq(functions.id, row.id));
      return made!;
    });
    return this.versionView(version, row.deployedVersionId);
  }

  private versionView(row: VersionRow, deployedId: string | null): FunctionVersionView {
    return { id: row.id, number: row.number, deployed: row.id === deployedId, source: row.source, createdDate: row.createdAt.toISOString() };
  }

  async versions(projectId: string, name: string): Promise<FunctionVersionView[]> {
    const row = await this.row(projectId, name);
    const rows = await this.db.select().from(functionVersions).where(eq(functionVersions.functionId, row.id)).orderBy(desc(functionVersions.number));
    return rows.map((v) => this.versionView(v, row.deployedVersionId));
  }

  /** Deploys any saved version: a newer one, or an older one to roll back to. */
  async deploy(projectId: string, name: string, versionId: string): Promise<FunctionView> {
    const row = await this.row(projectId, name);
    const [version] = await this.db.select({ id: functionVersions.id }).from(functionVersions).where(and(eq(functionVersions.id, versionId), eq(functionVersions.functionId, row.id)));
    if (!version) throw notFound('function_version_not_found', 'There is no such version of this function.');
    await this.db.update(functions).set({ deployedVersionId: version.id, updatedAt: new Date() }).where(eq(functions.id, row.id));
    return this.get(projectId, name);
  }

  async version(functionId: string, versionId: string | null | 'latest'): Promise<VersionRow | undefined> {
    if (versionId === null) return undefined;
    const kept = versionId === 'latest' ? undefined : this.keptVersions.get(versionId);
    if (kept?.functionId === functionId) return kept;
    const where = versionId === 'latest' ? eq(functionVersions.functionId, functionId) : and(eq(functionVersions.functionId, functionId), eq(functionVersions.id, versionId));
    const [row] = await this.db.select().from(functionVersions).where(where).orderBy(desc(functionVersions.number)).limit(1);
    if (row) {
      if (this.keptVersions.size >= 500) this.keptVersions.delete(this.keptVersions.keys().next().value!);
      this.keptVersions.set(row.id, row);
    }
    return row;
  }

  // Secrets ------------------------------------------------------------------------------------

  async secretNames(projectId: string): Promise<{ name: string; updatedDate: string }[]> {
    const rows = await this.db.select({ name: projectFunctionSecrets.name, updatedAt: projectFunctionSecrets.updatedAt }).from(projectFunctionSecrets).where(eq(projectFunctionSecrets.projectId, projectId)).orderBy(projectFunctionSecrets.name);
    return rows.map((r) => ({ name: r.name, updatedDate: r.updatedAt.toISOString() }));
  }

  async putSecret(projectId: string, name: string, value: string): Promise<void> {
    const existing = await this.secretNames(projectId);
    if (!existing.some((s) => s.name === name) && existing.length >= functionLimits.secretsPerProject) {
      throw invalid([{ path: 'name', message: `a project may have at most ${functionLimits.secretsPerProject} secrets` }]);
    }
    const sealed = this.box.seal(value);
    await this.db
      .insert(projectFunctionSecrets)
      .values({ projectId, name, valueEncrypted: sealed })
      .onConflictDoUpdate({ target: [projectFunctionSecrets.projectId, projectFunctionSecrets.name], set: { valueEncrypted: sealed, updatedAt: new Date() } });
  }

  async deleteSecret(projectId: string, name: string): Promise<void> {
    const gone = await this.db.delete(projectFunctionSecrets).where(and(eq(projectFunctionSecrets.projectId, projectId), eq(projectFunctionSecrets.name, name))).returning({ name: projectFunctionSecrets.name });
    if (!gone.length) throw notFound('function_secret_not_found', 'There is no such secret.');
  }

  /** The project's secrets opened (those the secrets key cannot open are left out); cached per process. */
  async secrets(projectId: string): Promise<Record<string, string>> {
    if (!this.caches) return this.openSecrets(projectId);
    return this.caches.secrets.get(projectId, () => this.openSecrets(projectId));
  }

  private async openSecrets(projectId: string): Promise<Record<string, string>> {
    const rows = await this.db.select().from(projectFunctionSecrets).where(eq(projectFunctionSecrets.projectId, projectId));
    const out: Record<string, string> = {};
    for (const row of rows) {
      const plain = this.box.open(row.valueEncrypted);
      if (plain !== null) out[row.name] = plain;
    }
    return out;
  }

  // Runs ---------------------------------------------------------------------------------------

  /**
   * Runs a version of a function and logs the run. 429 function_busy when the project already runs
   * FUNCTION_CONCURRENCY_PER_PROJECT functions in this process.
   */
  async run(fn: FunctionRow, version: VersionRow, event: unknown, trigger: InvocationRow['trigger']): Promise<RunOutcome> {
    const executed = await this.execute(fn, version, event, trigger);
    const [row] = await this.db.transaction((tx) => this.logInvocations(tx, [executed.log]));
    return { result: executed.result, invocation: this.invocationView(row!) };
  }

  /**
   * Runs a version of a function: its result (secrets hidden) and its log row, not yet written
   * (logInvocations). 429 function_busy as `run`.
   */
  async execute(fn: FunctionRow, version: VersionRow, event: unknown, trigger: InvocationRow['trigger'], of?: { runId: string; attempt: number }): Promise<{ result: InvocationResult; log: InvocationInsert }> {
    const busy = this.running.get(fn.projectId) ?? 0;
    if (busy >= this.config.concurrencyPerProject) {
      throw new AppError(429, 'function_busy', `This project is already running ${this.config.concurrencyPerProject} functions at once; try again in a moment.`, { headers: { 'retry-after': '1' } });
    }
    this.running.set(fn.projectId, busy + 1);
    let result: InvocationResult;
    let secretValues: string[] = [];
    try {
      const secrets = await this.secrets(fn.projectId);
      secretValues = Object.values(secrets).sort((a, b) => b.length - a.length);
      const host = this.hostFor(fn);
      try {
        result = await this.pool().run({ code: version.code, event, limits: this.limits, secrets, host: host.host });
      } finally {
        host.end();
      }
    } finally {
      const left = (this.running.get(fn.projectId) ?? 1) - 1;
      if (left > 0) this.running.set(fn.projectId, left);
      else this.running.delete(fn.projectId);
    }
    const hide = (text: string) => hideSecretValues(text, secretValues);
    const error = result.error ? { name: hide(result.error.name), message: hide(result.error.message), ...(result.error.stack ? { stack: hide(result.error.stack) } : {}) } : null;
    const logs = result.logs.map((line) => ({ level: line.level, text: hide(line.text) }));
    let preview: string | null = null;
    const inJson = secretValues.map((v) => JSON.stringify(v).slice(1, -1));
    if (result.ok) preview = result.value === undefined ? null : cutBytes(hideSecretValues(JSON.stringify(result.value) ?? '', inJson), functionLimits.resultPreviewBytes);
    return {
      result: { ...result, ...(error ? { error } : {}), logs },
      log: {
        id: newId(),
        functionId: fn.id,
        versionId: version.id,
        projectId: fn.projectId,
        trigger,
        runId: of?.runId ?? null,
        attempt: of?.attempt ?? null,
        status: result.ok ? 'ok' : 'error',
        durationMs: Math.round(result.durationMs),
        memoryBytes: Math.round(result.memoryBytes),
        error,
        logs,
        resultPreview: preview,
      },
    };
  }

  /**
   * Writes invocations' log rows in the caller's transaction, without waiting for the disk
   * (synchronous_commit off for that transaction): a crash in the next moment may lose the latest
   * rows of the log, never data; waiting for the flush cost more than the run itself
   * (docs/functions.md "The invocation log").
   */
  async logInvocations(tx: Executor & Pick<Db, 'insert'>, rows: InvocationInsert[]): Promise<InvocationRow[]> {
    await tx.execute(sql`set local synchronous_commit = off`);
    return rows.length ? tx.insert(functionInvocations).values(rows).returning() : [];
  }

  /** Replaces the project's secrets in a value answered to a member (a test's result). */
  async hideInValue(projectId: string, value: unknown): Promise<unknown> {
    if (value === undefined) return null;
    const values = Object.values(await this.secrets(projectId)).sort((a, b) => b.length - a.length);
    return JSON.parse(hideSecretValues(JSON.stringify(value), values.map((v) => JSON.stringify(v).slice(1, -1))));
  }

  private invocationView(row: InvocationRow): FunctionInvocationView {
    return {
      id: row.id,
      versionID: row.versionId,
      trigger: row.trigger,
      runID: row.runId,
      attempt: row.attempt,
      status: row.status,
      durationMs: row.durationMs,
      memoryBytes: row.memoryBytes,
      error: row.error ?? null,
      logs: row.logs,
      resultPreview: row.resultPreview,
      createdDate: row.createdAt.toISOString(),
    };
  }

  /** The function's runs, newest first; `search` finds text in their errors and logs. */
  async invocations(projectId: string, name: string, page: number, search?: string): Promise<FunctionInvocationPage> {
    const row = await this.row(projectId, name);
    const perPage = functionLimits.invocationsPerPage;
    const terms = search?.trim();
    const pattern = terms ? `%${terms.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
    const where = and(
      eq(functionInvocations.functionId, row.id),
      pattern ? sql`(coalesce(${functionInvocations.error}::text, '') ilike ${pattern} or ${functionInvocations.logs}::text ilike ${pattern})` : undefined,
    );
    const rows = await this.db
      .select()
      .from(functionInvocations)
      .where(where)
      .orderBy(desc(functionInvocations.createdAt), desc(functionInvocations.id))
      .limit(perPage + 1)
      .offset((page - 1) * perPage);
    return { invocations: rows.slice(0, perPage).map((r) => this.invocationView(r)), page, hasMore: rows.length > perPage };
  }

  /** Deletes invocations, and event and schedule runs that are over, older than FUNCTION_LOG_RETENTION_DAYS, a batch a statement. */
  async sweep(now = new Date(), batch = SWEEP_BATCH): Promise<number> {
    const before = new Date(now.getTime() - this.config.logRetentionDays * 86_400_000);
    let total = 0;
    for (;;) {
      const ids = this.db.select({ id: functionInvocations.id }).from(functionInvocations).where(lt(functionInvocations.createdAt, before)).limit(batch);
      const gone = await this.db.delete(functionInvocations).where(inArray(functionInvocations.id, ids)).returning({ id: functionInvocations.id });
      total += gone.length;
      if (gone.length < batch) break;
    }
    for (;;) {
      const ids = this.db.select({ id: functionRuns.id }).from(functionRuns).where(and(lt(functionRuns.createdAt, before), ne(functionRuns.status, 'pending'))).limit(batch);
      const gone = await this.db.delete(functionRuns).where(inArray(functionRuns.id, ids)).returning({ id: functionRuns.id });
      if (gone.length < batch) return total;
    }
  }

}
