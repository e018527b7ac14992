/**
 * `larder project import` (docs/cli.md "Projects"): an archive made by `larder project export`
 * becomes a new project of an organization, on this installation or another. All or nothing:
 * the archive is read and checked whole first (format, version, every entry's size and hash,
 * schemas, webhooks, groups), the files are then copied into this installation's storage under
 * new keys, and every row — project, collections with their tables, items, file registry rows,
 * groups, webhooks, the audit entry — is written in one transaction. When anything fails the
 * transaction leaves nothing and the copied files are deleted again.
 *
 * What is kept and what is new: the project, the collections' storage and the fields get new
 * ids (they name tables and columns, which must be unique in the installation); collection ids
 * (slugs), item ids, ranks, positions, dates, option ids and every value are kept. Addresses of
 * the archived files inside values are rewritten to the copies.
 */
import { createReadStream } from 'node:fs';
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { randomBytes, createHash } from 'node:crypto';
import { eq, sql, type SQL } from 'drizzle-orm';
import * as tar from 'tar';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { collectionIdProblem, contentLimits, isItemId, metadataField } from '../../definitions/content.ts';
import { fieldType, type SchemaField } from '../../definitions/field-types/index.ts';
import { platform } from '../../definitions/platform.ts';
import { readRichTextSettings } from '../../definitions/rich-text.ts';
import { webhookLimits, webhookMethods, webhookTriggers } from '../../definitions/webhooks.ts';
import { contentCollections, organizations, projects, userGroups, webhooks } from '../db/schema.ts';
import type { Db } from '../db/index.ts';
import { storageTablesOf } from '../content/collections.ts';
import { prepareSchema } from '../content/field-input.ts';
import { sanitizeRichText } from '../content/sanitize.ts';
import { allLevels, columnFields, fieldColumn, topLevel, type SchemaLevel } from '../content/schema-tree.ts';
import { addFieldStorage, columnTypeOf, createLevelTable, encodeValue, query } from '../content/storage.ts';
import { fileUrl } from '../files/files.ts';
import { isSafeKey } from '../files/storage.ts';
import { newId, newSecret } from '../lib/ids.ts';
import { CliError, type OperationContext } from '../cli/operation.ts';
import {
  archiveFormat,
  archiveVersion,
  collectionEntry,
  digestFile,
  fileBytesEntry,
  filesEntry,
  groupsEntry,
  itemsEntry,
  manifestEntry,
  projectEntry,
  webhooksEntry,
  type ArchivedCollection,
  type ArchivedFile,
  type ArchivedGroup,
  type ArchivedProject,
  type ArchivedWebhook,
  type Manifest,
} from './format.ts';

export interface ImportInput {
  file: string;
  organizationId: string;
  /** The new project's name (default: the archived project's). */
  name?: string | undefined;
}

export interface ImportResult {
  project: { id: string; name: string };
  organizationID: string;
  source: { id: string; name: string; organizationID: string };
  counts: Manifest['counts'];
  /** The imported webhooks, disabled, with their new signing secrets (shown only here). */
  webhooks: { id: string; name: string; secret: string; enabled: false }[];
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const id = (name: string) => sql.identifier(name);
const systemKeys = new Set(['_id', '_createdDate', '_lastUpdatedDate', '_order', '_rank', '_parentID']);
const rankMax = 1024;
/** What one insert statement may carry (PostgreSQL takes at most 65,535 parameters). */
const parameterBudget = 30_000;

/** A refusal of the archive itself: nothing has been written when it is thrown. */
const badArchive = (message: string) => new CliError(`The archive cannot be imported: ${message}. Nothing was written.`, 1, 'bad_archive');

export async function importProject(context: OperationContext, input: ImportInput): Promise<ImportResult> {
  const db = context.database.db;
  const [organization] = await db.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, input.organizationId));
  if (!organization) throw new CliError(`There is no organization ${input.organizationId}. Nothing was written.`, 1, 'organization_not_found');
  const fileStat = await stat(input.file).catch(() => undefined);
  if (!fileStat?.isFile()) throw new CliError(`There is no archive file ${input.file}.`, 1, 'file_not_found');

  const dir = await mkdtemp(path.join(tmpdir(), 'larder-import-'));
  const copied: string[] = [];
  try {
    const archive = await readArchive(input.file, dir);
    const plan = planImport(archive, input);
    await copyFiles(context, archive, plan, copied);
    const result = await db.transaction(async (tx) => writeRows(context, tx, archive, plan));
    return result;
  } catch (error) {
    for (const key of copied) await context.storage.delete(key).catch(() => undefined);
    if (error instanceof CliError) throw error;
    throw new CliError(`The archive could not be imported: ${error instanceof Error ? error.message : String(error)}. Nothing was written.`, 1, 'import_failed');
  } finally {
    // An extraction refused midway may still be closing its files: retried until they are gone.
    await rm(dir, { recursive: true, force: true, maxRetries: 10, retryDelay: 50 });
  }
}

interface Archive {
  dir: string;
  manifest: Manifest;
  project: ArchivedProject;
  collections: ArchivedCollection[];
  files: ArchivedFile[];
  webhooks: ArchivedWebhook[];
  groups: ArchivedGroup[];
}

/** Unpacks the archive and checks it whole: format, version, and every entry against the manifest. */
async function readArchive(file: string, dir: string): Promise<Archive> {
  try {
    // strict: a warning (a truncated or damaged stream, a bad header) is an error.
    await tar.extract({ file, cwd: dir, strict: true, filter: (_path, entry) => 'type' in entry && (entry.type === 'File' || entry.type === 'OldFile') });
  } catch (error) {
    throw badArchive(`it is not a complete project archive (${error instanceof Error ? error.message : String(error)})`);
  }
  const manifest = await readJson<Manifest>(dir, manifestEntry).catch(() => {
    throw badArchive('it has no readable manifest.json (not a project archive, or truncated)');
  });
  if (manifest?.format !== archiveFormat) throw badArchive(`it is not a Larder project archive (format ${JSON.stringify(manifest?.format)})`);
  if (!Number.isInteger(manifest.formatVersion) || manifest.formatVersion < 1) throw badArchive('its manifest has no valid format version');
  if (manifest.formatVersion > archiveVersion) {
    throw badArchive(`it was written in format ${manifest.formatVersion} by a newer Larder; this one reads format ${archiveVersion} and older`);
  }
  if (!isObject(manifest.entries)) throw badArchive('its manifest lists no entries');
  for (const [entry, expected] of Object.entries(manifest.entries)) {
    const where = path.resolve(dir, entry);
    if (!where.startsWith(dir + path.sep)) throw badArchive(`its manifest names an entry outside the archive (${entry})`);
    const found = await digestFile(where).catch(() => undefined);
    if (!found) throw badArchive(`the entry ${entry} is missing (truncated archive?)`);
    if (found.size !== expected.size || found.sha256 !== expected.sha256) throw badArchive(`the entry ${entry} does not match its hash in the manifest (corrupted or changed)`);
  }
  for (const entry of await listFiles(dir)) {
    if (entry !== manifestEntry && !(entry in manifest.entries)) throw badArchive(`the entry ${entry} is not listed in the manifest`);
  }
  const project = await readJson<ArchivedProject>(dir, projectEntry);
  const collections: ArchivedCollection[] = [];
  for (const c of Array.isArray(manifest.collections) ? manifest.collections : []) {
    const problem = collectionIdProblem(String(c?.id));
    if (problem) throw badArchive(`collection "${String(c?.id)}": id ${problem}`);
    collections.push(await readJson<ArchivedCollection>(dir, collectionEntry(String(c.id))));
  }
  const files: ArchivedFile[] = [];
  for await (const line of lines(path.join(dir, filesEntry))) files.push(JSON.parse(line) as ArchivedFile);
  return {
    dir,
    manifest,
    project,
    collections,
    files,
    webhooks: await readJson<ArchivedWebhook[]>(dir, webhooksEntry),
    groups: await readJson<ArchivedGroup[]>(dir, groupsEntry),
  };
}

async function readJson<T>(dir: string, entry: string): Promise<T> {
  try {
    return JSON.parse(await readFile(path.join(dir, entry), 'utf8')) as T;
  } catch {
    throw badArchive(`the entry ${entry} is missing or not JSON`);
  }
}

async function listFiles(dir: string): Promise<string[]> {
  const found = await readdir(dir, { recursive: true, withFileTypes: true });
  return found.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
}

async function* lines(file: string): AsyncGenerator<string> {
  const reader = createInterface({ input: createReadStream(file), crlfDelay: Infinity });
  for await (const line of reader) if (line.trim()) yield line;
}

/** One collection as it will be made: its new storage id and schema, and its levels by nested path. */
interface PlannedCollection {
  archived: ArchivedCollection;
  rowId: string;
  schema: SchemaField[];
  levels: Map<string, SchemaLevel>;
}

interface Plan {
  projectId: string;
  organizationId: string;
  name: string;
  settings: Record<string, unknown>;
  collections: PlannedCollection[];
  /** Old file key → new key. */
  keys: Map<string, string>;
  groups: { name: string; roles: Record<string, unknown>[] }[];
  webhooks: ArchivedWebhook[];
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Checks the archive's project, schemas, groups and webhooks and decides every new id; writes nothing. */
function planImport(archive: Archive, input: ImportInput): Plan {
  const projectId = newId();
  const name = (input.name ?? archive.project?.name ?? '').trim();
  if (!name || name.length > platform.limits.projectNameMax) throw badArchive(`the project name must be 1 to ${platform.limits.projectNameMax} characters`);
  const richText = readRichTextSettings(archive.project?.settings);
  if (archive.collections.length > contentLimits.collectionsPerProject) throw badArchive(`a project holds at most ${contentLimits.collectionsPerProject} collections`);

  const slugs = archive.collections.map((c) => String(c?.id));
  if (new Set(slugs).size !== slugs.length) throw badArchive('two collections have the same id');
  const collections = archive.collections.map((archived): PlannedCollection => {
    const slug = String(archived.id);
    const problem = collectionIdProblem(slug);
    if (problem) throw badArchive(`collection "${slug}": id ${problem}`);
    if (typeof archived.name !== 'string' || !archived.name.trim()) throw badArchive(`collection "${slug}" has no name`);
    // The same checks as a collection made through the API, and new field ids throughout (fields name columns and tables).
    const prepared = prepareSchema(archived.schema, { siblings: [], depth: 0, prefix: '', context: { collectionID: slug, collectionIDs: slugs, newId, scriptsEnabled: richText.scriptsEnabled } });
    if (prepared.problems.length) throw badArchive(`collection "${slug}" has a schema this installation refuses (${prepared.problems.map((p) => `${p.path}: ${p.message}`).join('; ')})`);
    const schema = withMetadataWhereItWas(prepared.fields, archived.schema);
    const rowId = newId();
    const levels = new Map(allLevels(topLevel(rowId, schema)).map((level) => [level.path.join('.'), level]));
    return { archived, rowId, schema, levels };
  });
  // Every items entry must belong to a level of its collection.
  for (const entry of Object.keys(archive.manifest.entries)) {
    const match = /^collections\/([^/]+)\/(?:items\.jsonl|nested\/(.+)\.jsonl)$/.exec(entry);
    if (!match) continue;
    const planned = collections.find((c) => c.archived.id === match[1]);
    if (!planned || !planned.levels.has(match[2] ?? '')) throw badArchive(`the entry ${entry} belongs to no collection level of the archive`);
  }

  const keys = new Map<string, string>();
  const taken = new Set<string>();
  for (const file of archive.files) {
    const segment = String(file?.key ?? '').split('/').pop() ?? '';
    if (!isSafeKey(segment) || !/^[0-9a-f]{64}$/.test(String(file.sha256))) throw badArchive(`a stored file has an unusable key or hash (${JSON.stringify(file?.key)})`);
    const bytes = archive.manifest.entries[fileBytesEntry(file.sha256)];
    if (!bytes || bytes.size !== file.size) throw badArchive(`the bytes of the stored file ${file.key} are not in the archive`);
    let base: string;
    if (file.kind === 'asset') base = `p/${projectId}/a`;
    else {
      const planned = collections.find((c) => c.archived.id === file.collection);
      const level = planned?.levels.get(file.path ?? '');
      if (!planned || !level || !columnFields(level).some((f) => f.slug === file.field) || !isItemId(file.item) || !isItemId(file.rootItem)) {
        throw badArchive(`the stored file ${file.key} belongs to no field of the archive`);
      }
      const root = isSafeKey(file.rootItem!) ? file.rootItem! : `x${createHash('sha256').update(file.rootItem!).digest('hex').slice(0, 24)}`;
      base = `p/${projectId}/c/${planned.rowId}/i/${root}`;
    }
    let key = `${base}/${segment}`;
    if (taken.has(key)) key = `${base}/${randomBytes(16).toString('hex')}${/\.[a-z0-9]+$/.exec(segment)?.[0] ?? ''}`;
    taken.add(key);
    keys.set(file.key, key);
  }

  if (!Array.isArray(archive.groups) || !Array.isArray(archive.webhooks)) throw badArchive('groups.json and webhooks.json must be lists');
  const groupNames = new Set<string>();
  const groups = archive.groups.map((group) => {
    const groupName = typeof group?.name === 'string' ? group.name.trim() : '';
    if (!groupName || groupName.length > 100 || groupNames.has(groupName.toLowerCase())) throw badArchive(`a user group has no name, a name over 100 characters or the name of another (${JSON.stringify(group?.name)})`);
    groupNames.add(groupName.toLowerCase());
    if (!Array.isArray(group.permissions) || group.permissions.some((p) => !isObject(p) || typeof p.collection !== 'string' || !p.collection.trim())) {
      throw badArchive(`the permissions of user group "${groupName}" are not a list of roles naming collections`);
    }
    const roles = (group.permissions as Record<string, unknown>[]).map((p) => ({
      collection: String(p.collection).trim(),
      create: p.create === true,
      read: p.read === true,
      update: p.update === true,
      delete: p.delete === true,
      associatedOnly: p.associatedOnly === true,
    }));
    return { name: groupName, roles };
  });

  for (const hook of archive.webhooks) {
    const label = JSON.stringify(hook?.name);
    let address: URL | undefined;
    try {
      address = new URL(String(hook?.webhookURI));
    } catch {
      address = undefined;
    }
    if (
      typeof hook?.name !== 'string' ||
      !hook.name.trim() ||
      hook.name.length > webhookLimits.nameMax ||
      !address ||
      !['http:', 'https:'].includes(address.protocol) ||
      String(hook.webhookURI).length > webhookLimits.uriMax ||
      !(webhookMethods as readonly string[]).includes(hook.method) ||
      !(webhookTriggers as readonly string[]).includes(hook.trigger) ||
      !Array.isArray(hook.collections) ||
      hook.collections.some((c) => typeof c !== 'string')
    ) {
      throw badArchive(`webhook ${label} is not valid (name, http(s) address, method, trigger and collections)`);
    }
  }

  return { projectId, organizationId: input.organizationId, name, settings: { richText }, collections, keys, groups, webhooks: archive.webhooks };
}

/** prepareSchema puts the metadata entry last; the archived schema may have had it elsewhere (a reordered schema). */
function withMetadataWhereItWas(prepared: SchemaField[], archived: unknown[]): SchemaField[] {
  const at = Array.isArray(archived) ? archived.findIndex((f) => isObject(f) && f.type === metadataField.type) : -1;
  const fields = prepared.map((field, i) => {
    const source = Array.isArray(archived) ? archived.filter((f) => !(isObject(f) && f.type === metadataField.type))[i] : undefined;
    return field.nestedCollectionSchema && isObject(source) && Array.isArray(source.nestedCollectionSchema)
      ? { ...field, nestedCollectionSchema: withMetadataWhereItWas(field.nestedCollectionSchema, source.nestedCollectionSchema) }
      : field;
  });
  if (at < 0) return fields;
  const metadata = fields.filter((f) => f.type === metadataField.type);
  const rest = fields.filter((f) => f.type !== metadataField.type);
  return [...rest.slice(0, at), ...metadata, ...rest.slice(at)];
}

/** Copies every archived file into the storage under its new key (before the rows: a failure removes them). */
async function copyFiles(context: OperationContext, archive: Archive, plan: Plan, copied: string[]) {
  const progress = context.progress('files', archive.files.length);
  try {
    for (const file of archive.files) {
      const key = plan.keys.get(file.key)!;
      copied.push(key);
      await context.storage.put(key, createReadStream(path.join(archive.dir, fileBytesEntry(file.sha256))), { size: file.size, contentType: String(file.contentType) });
      progress.tick();
    }
  } finally {
    progress.done();
  }
}

const validators = new Map<number, ValidateFunction>();
const ajv = new Ajv({ strict: false, allErrors: false });
addFormats.default(ajv);

function validatorOf(code: number): ValidateFunction {
  let validate = validators.get(code);
  if (!validate) {
    validate = ajv.compile(fieldType(code)!.valueSchema);
    validators.set(code, validate);
  }
  return validate;
}

/** Rewrites the addresses of archived files (any origin: the key is the file's) to the copies. */
function rewriter(keys: Map<string, string>, publicUrl: string) {
  const address = /(?:https?:\/\/[^\s"'<>()/]+)?\/files\/([a-z0-9][a-z0-9._/-]*)/g;
  const rewrite = (value: unknown): unknown => {
    if (typeof value === 'string') {
      if (!value.includes('/files/')) return value;
      return value.replace(address, (whole, key: string) => {
        const copy = keys.get(key);
        return copy ? fileUrl(publicUrl, copy) : whole;
      });
    }
    if (Array.isArray(value)) return value.map(rewrite);
    if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, rewrite(v)]));
    return value;
  };
  return keys.size ? rewrite : (value: unknown) => value;
}

/** Every row of the import, in the one transaction. */
async function writeRows(context: OperationContext, tx: Tx, archive: Archive, plan: Plan): Promise<ImportResult> {
  // The project is new here (created now); its collections keep their dates, which order them.
  await tx.insert(projects).values({
    id: plan.projectId,
    organizationId: plan.organizationId,
    name: plan.name,
    description: typeof archive.project?.description === 'string' ? archive.project.description : '',
    settings: plan.settings,
  });
  const rewrite = rewriter(plan.keys, context.config.publicUrl);
  let items = 0;
  for (const planned of plan.collections) {
    const { archived } = planned;
    const created = new Date(archived.createdDate);
    const updated = new Date(archived.updatedDate);
    await tx.insert(contentCollections).values({
      id: planned.rowId,
      projectId: plan.projectId,
      slug: archived.id,
      name: archived.name.trim(),
      singleItem: archived.singleItem === true,
      rtlDirection: archived.rtlDirection === true,
      schema: planned.schema,
      storageTables: storageTablesOf(planned.rowId, planned.schema),
      layouts: isObject(archived.layouts) ? archived.layouts : {},
      ...(Number.isNaN(created.getTime()) ? {} : { createdAt: created }),
      ...(Number.isNaN(updated.getTime()) ? {} : { updatedAt: updated }),
    });
    // The storage as CollectionService makes it for a new collection: the top table, then each field's column or tables.
    const top = planned.levels.get('')!;
    await createLevelTable(tx, top);
    for (const field of top.fields) await addFieldStorage(tx, top, field);
    for (const level of planned.levels.values()) {
      const entry = itemsEntry(archived.id, level.path);
      if (!(entry in archive.manifest.entries)) continue;
      const expected = archive.manifest.collections.find((c) => c.id === archived.id)?.items?.[level.path.join('.')];
      items += await insertLevel(context, tx, level, path.join(archive.dir, entry), `${archived.id}${level.path.length ? `.${level.path.join('.')}` : ''}`, rewrite, expected);
      await query(tx, sql`select setval(pg_get_serial_sequence(${`"${level.table}"`}, '_order'), greatest((select max(${id('_order')}) from ${id(level.table)}), 1))`);
    }
    await query(tx, sql`update content_collections set item_count = (select count(*) from ${id(top.table)}) where id = ${planned.rowId}`);
  }

  for (const file of archive.files) {
    const key = plan.keys.get(file.key)!;
    if (file.kind === 'asset') {
      await query(tx, sql`insert into stored_files (key, project_id, state, content_type, name, size) values (${key}, ${plan.projectId}, 'asset', ${String(file.contentType)}, ${String(file.name).slice(0, 255)}, ${file.size})`);
      continue;
    }
    const planned = plan.collections.find((c) => c.archived.id === file.collection)!;
    const level = planned.levels.get(file.path ?? '')!;
    const field = columnFields(level).find((f) => f.slug === file.field)!;
    await query(
      tx,
      sql`insert into stored_files (key, project_id, collection_id, root_item_id, item_table, item_id, field_column, state, content_type, name, size)
          values (${key}, ${plan.projectId}, ${planned.rowId}, ${file.rootItem!}, ${level.table}, ${file.item!}, ${fieldColumn(field.id)}, 'attached', ${String(file.contentType)}, ${String(file.name).slice(0, 255)}, ${file.size})`,
    );
  }

  for (const group of plan.groups) await tx.insert(userGroups).values({ id: newId(), projectId: plan.projectId, name: group.name, roles: group.roles });

  const madeHooks: ImportResult['webhooks'] = [];
  for (const hook of plan.webhooks) {
    const secret = `whsec_${newSecret()}`;
    const hookId = newId();
    // Disabled: a copied project must not start calling the original's receivers, which also do not know the new secret.
    await tx.insert(webhooks).values({
      id: hookId,
      projectId: plan.projectId,
      organizationId: plan.organizationId,
      name: hook.name.trim(),
      uri: hook.webhookURI.trim(),
      method: hook.method,
      trigger: hook.trigger,
      collections: hook.collections,
      secret,
      disabledAt: new Date(),
      disabledReason: 'Imported with a new signing secret: give it to the receiver, then enable the webhook.',
    });
    madeHooks.push({ id: hookId, name: hook.name.trim(), secret, enabled: false });
  }

  const counts = { ...archive.manifest.counts, collections: plan.collections.length, items, files: archive.files.length, webhooks: madeHooks.length, groups: plan.groups.length };
  await context.audit.record(tx, { id: null, name: context.actor }, {
    action: 'project.import',
    targetKind: 'project',
    targetId: plan.projectId,
    after: { organizationID: plan.organizationId, name: plan.name, source: archive.manifest.project, counts },
  });
  return {
    project: { id: plan.projectId, name: plan.name },
    organizationID: plan.organizationId,
    source: { ...archive.manifest.project, organizationID: archive.manifest.organizationID },
    counts,
    webhooks: madeHooks,
  };
}

/**
 * Inserts one level's archived items in multi-row statements, keeping ids, ranks, positions
 * (`overriding system value`) and dates. Each line is checked first: system keys, fields of the
 * level's schema only, each value against its type's stored shape; rich text is sanitised as
 * every write is. A nested item's parent must be in the archive (the foreign key says so).
 */
async function insertLevel(
  context: OperationContext,
  tx: Tx,
  level: SchemaLevel,
  file: string,
  label: string,
  rewrite: (value: unknown) => unknown,
  expected: number | undefined,
): Promise<number> {
  const fields = new Map(columnFields(level).map((f) => [f.slug, f]));
  const nested = Boolean(level.parentTable);
  const columns: SQL[] = [id('_id'), id('_rank'), id('_order'), id('_created_date'), id('_last_updated_date')].map((c) => sql`${c}`);
  if (nested) columns.push(sql`${id('_parent_id')}`);
  for (const field of fields.values()) columns.push(sql`${id(fieldColumn(field.id))}`);
  const perStatement = Math.max(1, Math.min(1000, Math.floor(parameterBudget / columns.length)));
  const progress = context.progress(label, typeof expected === 'number' ? expected : undefined);
  let rows: SQL[] = [];
  let count = 0;
  let lineNumber = 0;
  const flush = async () => {
    if (!rows.length) return;
    await tx.execute(sql`insert into ${id(level.table)} (${sql.join(columns, sql`, `)}) overriding system value values ${sql.join(rows, sql`, `)}`);
    progress.tick(rows.length);
    rows = [];
  };
  try {
    for await (const line of lines(file)) {
      lineNumber++;
      const where = `${path.basename(path.dirname(file)) === 'nested' ? `nested ${label}` : label} line ${lineNumber}`;
      let item: Record<string, unknown>;
      try {
        item = JSON.parse(line) as Record<string, unknown>;
      } catch {
        throw badArchive(`${where} is not JSON`);
      }
      if (!isObject(item)) throw badArchive(`${where} is not an item`);
      const created = new Date(String(item._createdDate));
      const updated = new Date(String(item._lastUpdatedDate));
      if (!isItemId(item._id)) throw badArchive(`${where}: _id is not an item id`);
      if (typeof item._rank !== 'string' || item._rank.length > rankMax) throw badArchive(`${where}: _rank is not a rank`);
      if (!Number.isSafeInteger(item._order) || (item._order as number) < 1) throw badArchive(`${where}: _order is not a position`);
      if (Number.isNaN(created.getTime()) || Number.isNaN(updated.getTime())) throw badArchive(`${where}: _createdDate and _lastUpdatedDate must be dates`);
      if (nested !== ('_parentID' in item) || (nested && !isItemId(item._parentID))) throw badArchive(`${where}: _parentID ${nested ? 'must name the parent item' : 'belongs to nested items only'}`);
      const values: SQL[] = [sql`${item._id}`, sql`${item._rank}`, sql`${item._order}::bigint`, sql`${created.toISOString()}::timestamptz`, sql`${updated.toISOString()}::timestamptz`];
      if (nested) values.push(sql`${item._parentID as string}`);
      for (const key of Object.keys(item)) {
        if (!systemKeys.has(key) && !fields.has(key)) throw badArchive(`${where}: "${key}" is not a field of this level`);
      }
      for (const field of fields.values()) {
        let value = item[field.slug];
        if (value === undefined || value === null) {
          values.push(sql`null`);
          continue;
        }
        const type = fieldType(field.type)!;
        value = rewrite(value);
        if (type.markup === 'html' && typeof value === 'string') value = sanitizeRichText(value);
        if (!validatorOf(field.type)(value)) throw badArchive(`${where}: the value of "${field.slug}" is not a ${type.name} value`);
        values.push(encodeValue(columnTypeOf(field)!, value));
      }
      rows.push(sql`(${sql.join(values, sql`, `)})`);
      count++;
      if (rows.length >= perStatement) await flush();
    }
    await flush();
  } finally {
    progress.done();
  }
  return count;
}
