/**
 * `larder project export` (docs/cli.md "Projects"): one project written as a portable archive —
 * collections and schemas, items of every level with their ids, ranks, positions and dates, stored
 * files with their bytes, webhooks without their secrets, user groups. Everything is read in one
 * read-only REPEATABLE READ transaction, so the archive is one consistent moment of the project;
 * items are read in keyset batches and written to disk as they come, so memory stays flat
 * whatever the size of a collection.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { chmod, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { once } from 'node:events';
import { pipeline } from 'node:stream/promises';
import type { Writable } from 'node:stream';
import { and, asc, eq, sql, type SQL } from 'drizzle-orm';
import * as tar from 'tar';
import type { SchemaField } from '../../definitions/field-types/index.ts';
import { readRichTextSettings } from '../../definitions/rich-text.ts';
import { contentCollections, projects, userGroups, webhooks } from '../db/schema.ts';
import type { Db } from '../db/index.ts';
import { levelOf, type CollectionRow } from '../content/collections.ts';
import { allLevels, columnFields, fieldColumn, type SchemaLevel } from '../content/schema-tree.ts';
import { query, rowToItem, selectList } from '../content/storage.ts';
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
  pretty,
  projectEntry,
  webhooksEntry,
  type ArchivedCollection,
  type ArchivedFile,
  type ArchivedGroup,
  type ArchivedProject,
  type ArchivedWebhook,
  type Manifest,
  type ManifestCollection,
} from './format.ts';

export interface ExportInput {
  organizationId: string;
  projectId: string;
  file: string;
  /** gzip the archive (the default); false writes a plain tar, whose text entries diff well in git. */
  gzip: boolean;
}

export interface ExportResult {
  file: string;
  bytes: number;
  sha256: string;
  project: { id: string; name: string };
  counts: Manifest['counts'];
  /** Stored files the registry lists whose bytes the storage no longer has (left out). */
  missingFiles: number;
}

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** Rows read per statement. */
const batchSize = 1000;
/** Fixed entry metadata, so the same project gives the same bytes. */
const fixedTime = new Date(0);

const id = (name: string) => sql.identifier(name);

export async function exportProject(context: OperationContext, input: ExportInput): Promise<ExportResult> {
  const db = context.database.db;
  const staging = await mkdtemp(path.join(tmpdir(), 'larder-export-'));
  const target = path.resolve(input.file);
  const partial = `${target}.${randomBytes(6).toString('hex')}.partial`;
  try {
    const written = await db.transaction((tx) => stage(context, tx, input, staging), { isolationLevel: 'repeatable read', accessMode: 'read only' });
    const paths = [manifestEntry, ...Object.keys(written.manifest.entries)];
    // Entry modes come from the files: the same on every machine whatever its umask.
    for (const entry of paths) await chmod(path.join(staging, entry), 0o644);
    await mkdir(path.dirname(target), { recursive: true });
    await tar.create({ file: partial, cwd: staging, gzip: input.gzip, portable: true, mtime: fixedTime, noDirRecurse: true }, paths);
    await rename(partial, target);
    const digest = await digestFile(target);
    await context.audit.record(db, { id: null, name: context.actor }, {
      action: 'project.export',
      targetKind: 'project',
      targetId: input.projectId,
      after: { organizationID: input.organizationId, file: path.basename(target), sha256: digest.sha256, counts: written.manifest.counts },
    });
    return { file: target, bytes: digest.size, sha256: digest.sha256, project: written.manifest.project, counts: written.manifest.counts, missingFiles: written.missingFiles };
  } catch (error) {
    await rm(partial, { force: true });
    throw error;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Writes every entry into `staging` and returns the manifest (itself written there too). */
async function stage(context: OperationContext, tx: Tx, input: ExportInput, staging: string) {
  const [project] = await tx
    .select()
    .from(projects)
    .where(and(eq(projects.id, input.projectId), eq(projects.organizationId, input.organizationId)));
  if (!project) throw new CliError(`There is no project ${input.projectId} in organization ${input.organizationId}.`, 1, 'project_not_found');

  const entries: Manifest['entries'] = {};
  const writeEntry = async (entry: string, text: string) => {
    const file = path.join(staging, entry);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
    entries[entry] = { size: Buffer.byteLength(text), sha256: createHash('sha256').update(text).digest('hex') };
  };

  // The rich-text switches travel; a restricted view names people of the source organization, so it does not.
  const archivedProject: ArchivedProject = {
    name: project.name,
    description: project.description,
    createdDate: project.createdAt.toISOString(),
    settings: { richText: readRichTextSettings(project.settings) },
  };
  await writeEntry(projectEntry, pretty(archivedProject));

  const collections: CollectionRow[] = await tx
    .select()
    .from(contentCollections)
    .where(eq(contentCollections.projectId, project.id))
    .orderBy(asc(contentCollections.createdAt), asc(contentCollections.slug));
  /** Where each item table is: its collection and nested path (stored files name their table). */
  const tables = new Map<string, { slug: string; level: SchemaLevel }>();
  const manifestCollections: ManifestCollection[] = [];
  let totalItems = 0;
  for (const row of collections) {
    const archived: ArchivedCollection = {
      id: row.slug,
      name: row.name,
      singleItem: row.singleItem,
      rtlDirection: row.rtlDirection,
      createdDate: row.createdAt.toISOString(),
      updatedDate: row.updatedAt.toISOString(),
      schema: row.schema as SchemaField[],
      layouts: (row.layouts ?? {}) as Record<string, unknown>,
    };
    await writeEntry(collectionEntry(row.slug), pretty(archived));
    const counts: Record<string, number> = {};
    for (const level of allLevels(levelOf(row))) {
      tables.set(level.table, { slug: row.slug, level });
      const entry = itemsEntry(row.slug, level.path);
      // The top level's total is kept (the counter row, read in this snapshot); a nested level's is not known before.
      const total = level.path.length ? undefined : row.itemCount;
      const count = await writeItems(context, tx, level, path.join(staging, entry), `${row.slug}${level.path.length ? `.${level.path.join('.')}` : ''}`, total);
      entries[entry] = count.digest;
      counts[level.path.join('.')] = count.items;
      totalItems += count.items;
    }
    manifestCollections.push({ id: row.slug, items: counts });
  }

  const files = await writeFiles(context, tx, project.id, tables, staging, entries);

  // Secrets are never exported: the importing side makes new ones.
  const hooks = await tx.select().from(webhooks).where(eq(webhooks.projectId, project.id)).orderBy(asc(webhooks.createdAt), asc(webhooks.id));
  const slugOfRow = new Map(collections.map((c) => [c.id, c.slug]));
  const archivedHooks: ArchivedWebhook[] = hooks.map((hook) => ({
    name: hook.name,
    webhookURI: hook.uri,
    method: hook.method,
    trigger: hook.trigger,
    // A webhook may name a collection by its storage id, which the importing side renews: by slug here.
    collections: (hook.collections as string[]).map((entry) => {
      const [head, ...tail] = entry.split('.');
      const slug = slugOfRow.get(head!);
      return slug ? [slug, ...tail].join('.') : entry;
    }),
    enabled: hook.disabledAt === null,
  }));
  await writeEntry(webhooksEntry, pretty(archivedHooks));

  const groups = await tx.select().from(userGroups).where(eq(userGroups.projectId, project.id)).orderBy(asc(sql`lower(${userGroups.name})`), asc(userGroups.id));
  const archivedGroups: ArchivedGroup[] = groups.map((group) => ({ name: group.name, permissions: group.roles as unknown[] }));
  await writeEntry(groupsEntry, pretty(archivedGroups));

  const sorted = Object.fromEntries(Object.keys(entries).sort().map((key) => [key, entries[key]!]));
  const manifest: Manifest = {
    format: archiveFormat,
    formatVersion: archiveVersion,
    project: { id: project.id, name: project.name },
    organizationID: project.organizationId,
    counts: {
      collections: collections.length,
      items: totalItems,
      files: files.count,
      fileBytes: files.bytes,
      webhooks: archivedHooks.length,
      groups: archivedGroups.length,
    },
    collections: manifestCollections,
    entries: sorted,
  };
  await writeFile(path.join(staging, manifestEntry), pretty(manifest));
  return { manifest, missingFiles: files.missing };
}

/** Waits for room in a stream. */
async function put(out: Writable, text: string) {
  if (!out.write(text)) await once(out, 'drain');
}

/**
 * One level's items as JSON lines in a stable order (top level by position, nested ones grouped
 * by parent), each line the item as the API gives it plus `_parentID` for nested items. Read in
 * keyset batches on the `(_order, _id)` indexes, written as read.
 */
async function writeItems(context: OperationContext, tx: Tx, level: SchemaLevel, file: string, label: string, total: number | undefined) {
  await mkdir(path.dirname(file), { recursive: true });
  const out = createWriteStream(file);
  const hash = createHash('sha256');
  let size = 0;
  let items = 0;
  const progress = context.progress(label, total);
  try {
    const nested = Boolean(level.parentTable);
    let after: { parent: string; order: number } | undefined;
    for (;;) {
      const where: SQL = !after ? sql`true` : nested ? sql`(${id('_parent_id')}, ${id('_order')}) > (${after.parent}, ${after.order})` : sql`${id('_order')} > ${after.order}`;
      const order = nested ? sql`${id('_parent_id')}, ${id('_order')}` : sql`${id('_order')}`;
      const parent = nested ? sql`, ${id('_parent_id')}` : sql``;
      const rows = await query(tx, sql`select ${selectList(level)}${parent} from ${id(level.table)} where ${where} order by ${order} limit ${batchSize}`);
      for (const row of rows) {
        const item: Record<string, unknown> = rowToItem(level, row);
        if (nested) item._parentID = row._parent_id;
        const line = `${JSON.stringify(item)}\n`;
        hash.update(line);
        size += Buffer.byteLength(line);
        await put(out, line);
      }
      items += rows.length;
      progress.tick(rows.length);
      if (rows.length < batchSize) break;
      const last = rows[rows.length - 1]!;
      after = { parent: String(last._parent_id ?? ''), order: Number(last._order) };
    }
  } finally {
    progress.done();
    out.end();
    await once(out, 'close');
  }
  return { items, digest: { size, sha256: hash.digest('hex') } };
}

/**
 * The project's stored files (assets, and files held by item fields) with their bytes, by key.
 * Pending uploads (their item write not committed) are left out; so is a file whose bytes are gone.
 */
async function writeFiles(
  context: OperationContext,
  tx: Tx,
  projectId: string,
  tables: Map<string, { slug: string; level: SchemaLevel }>,
  staging: string,
  entries: Manifest['entries'],
) {
  const listFile = path.join(staging, filesEntry);
  const out = createWriteStream(listFile);
  const listHash = createHash('sha256');
  let listSize = 0;
  let count = 0;
  let bytes = 0;
  let missing = 0;
  const progress = context.progress('files');
  try {
    let after = '';
    for (;;) {
      const rows = await query<Record<string, unknown>>(
        tx,
        sql`select key, state, item_table, item_id, root_item_id, field_column, content_type, name from stored_files
            where project_id = ${projectId} and state in ('attached', 'asset') and key > ${after} order by key limit ${batchSize}`,
      );
      for (const row of rows) {
        const key = String(row.key);
        const described = describe(row, tables);
        if (!described) continue;
        const found = await context.storage.get(key);
        if (!found) {
          missing++;
          continue;
        }
        const temp = path.join(staging, `.file-${randomBytes(8).toString('hex')}`);
        const hash = createHash('sha256');
        let size = 0;
        found.body.on('data', (chunk: Buffer) => {
          hash.update(chunk);
          size += chunk.length;
        });
        await pipeline(found.body, createWriteStream(temp));
        const sha256 = hash.digest('hex');
        const entry = fileBytesEntry(sha256);
        await mkdir(path.dirname(path.join(staging, entry)), { recursive: true });
        await rename(temp, path.join(staging, entry));
        entries[entry] = { size, sha256 };
        const archived: ArchivedFile = { key, sha256, size, contentType: String(row.content_type), name: String(row.name), ...described };
        const line = `${JSON.stringify(archived)}\n`;
        listHash.update(line);
        listSize += Buffer.byteLength(line);
        await put(out, line);
        count++;
        bytes += size;
        progress.tick();
      }
      if (rows.length < batchSize) break;
      after = String(rows[rows.length - 1]!.key);
    }
  } finally {
    progress.done();
    out.end();
    await once(out, 'close');
  }
  entries[filesEntry] = { size: listSize, sha256: listHash.digest('hex') };
  if (missing) context.note(`${missing} stored file(s) of the project are listed but missing from the storage; they are not in the archive.`);
  return { count, bytes, missing };
}

/** Where a file belongs, by names that survive the move (collection slug, nested path, field slug). */
function describe(row: Record<string, unknown>, tables: Map<string, { slug: string; level: SchemaLevel }>): Pick<ArchivedFile, 'kind' | 'collection' | 'path' | 'item' | 'rootItem' | 'field'> | undefined {
  if (row.state === 'asset') return { kind: 'asset' };
  const place = tables.get(String(row.item_table));
  if (!place) return undefined;
  const field = columnFields(place.level).find((f) => fieldColumn(f.id) === row.field_column);
  // A file of a field since deleted: nothing holds it any more (the sweep takes it).
  if (!field) return undefined;
  return { kind: 'item', collection: place.slug, path: place.level.path.join('.'), item: String(row.item_id), rootItem: String(row.root_item_id ?? row.item_id), field: field.slug };
}
