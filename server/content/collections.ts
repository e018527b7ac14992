/**
 * Collections and their schemas. Every change of a collection takes its
 * row's lock, changes the schema and the storage (DDL is transactional in PostgreSQL) and saves
 * the row in one transaction, so items are never written against a half-changed schema.
 */
import { and, asc, eq, sql } from 'drizzle-orm';
import { collectionIdProblem, contentLimits, isItemId, metadataField, slugify } from '../../definitions/content.ts';
import type { SchemaField, SettingProblem, SettingsContext } from '../../definitions/field-types/index.ts';
import { unstorableText } from '../../definitions/field-types/support.ts';
import type { Db } from '../db/index.ts';
import { contentCollections, projects } from '../db/schema.ts';
import { readRichTextSettings } from '../../definitions/rich-text.ts';
import { AppError, badRequest, conflict, notFound } from '../lib/errors.ts';
import { newId } from '../lib/ids.ts';
import type { SharedCache } from '../lib/shared-cache.ts';
import { prepareFieldUpdate, prepareNewField, prepareSchema } from './field-input.ts';
import { allLevels, findField, levelAt, replaceLevelFields, topLevel, type SchemaLevel } from './schema-tree.ts';
import { dropKeptSearches } from './query/kept-search.ts';
import { addFieldStorage, createLevelTable, dropFieldStorage, hasDuplicates, setUnique, tablesOfField, type Executor } from './storage.ts';
import { stopIndexBuilds } from './field-indexes.ts';
import type { Collection } from '../../definitions/schemas/collection.ts';
import { contentDropped } from './drops.ts';

export type CollectionRow = typeof contentCollections.$inferSelect;
/** A collection row as reads use it: everything but the item counter, which changes with every write. */
export type SchemaRow = Omit<CollectionRow, 'itemCount'>;

/**
 * Per-process caches of schema rows, by database (set by buildApp). A trigger (migration 0006)
 * invalidates an entry in every process when the collection changes, its counter aside.
 */
const schemaCaches = new WeakMap<Db, SharedCache<SchemaRow>>();

export function cacheCollectionSchemas(db: Db, cache: SharedCache<SchemaRow>) {
  schemaCaches.set(db, cache);
}
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

export const toCollectionView = (row: CollectionRow): Collection => ({
  id: row.slug,
  name: row.name,
  schema: row.schema as SchemaField[],
  singleItem: row.singleItem,
  rtlDirection: row.rtlDirection,
  itemCount: row.itemCount,
  createdDate: row.createdAt.toISOString(),
});

/** A 400 listing every refused attribute. */
export const invalid = (problems: SettingProblem[], detail = 'Some values are not valid.') =>
  new AppError(400, 'validation_failed', `${detail} ${problems.map((p) => `${p.path || 'body'}: ${p.message}`).join('; ')}`.trim(), {
    errors: problems.map(({ path, message, code, params }) => ({ path, message, ...(code ? { code } : {}), ...(params ? { params } : {}) })),
  });

export const levelOf = (row: SchemaRow): SchemaLevel => topLevel(row.id, row.schema as SchemaField[]);

/** Every table of a collection: its own and one per nested collection, top first. */
export const storageTablesOf = (rowId: string, schema: SchemaField[]) => allLevels(topLevel(rowId, schema)).map((level) => level.table);

/**
 * The schema level a nestedID or nestedSlug names. Schema calls accept the nested slugs alone
 * (`chapters.paragraphs`) or the item chain of the item calls (`chapters.<id>.paragraphs`): a part
 * that names a nested collection of the level reached is taken as that collection, and one item id
 * may follow each collection (item ids are chosen by callers too, docs/public-api.md "Item ids").
 */
export function schemaLevel(row: CollectionRow, nested: string | undefined): SchemaLevel {
  let level = levelOf(row);
  if (!nested) return level;
  let idMayFollow = false;
  for (const part of nested.split('.')) {
    const next = levelAt(level, [part]);
    if (next) {
      level = next;
      idMayFollow = true;
    } else if (idMayFollow && isItemId(part)) idMayFollow = false;
    else throw notFound('nested_collection_not_found', `There is no nested collection "${part}" in ${level.path.join('.') || 'this collection'}.`);
  }
  return level;
}

interface CreateInput {
  id?: string | undefined;
  name: string;
  singleItem?: boolean | undefined;
  rtlDirection?: boolean | undefined;
  schema?: unknown;
}

/** One collection by its slug; `lock` takes its row for the rest of the transaction. */
export async function collectionRow(executor: Db | Tx, projectId: string, slug: string, lock?: 'update' | 'share'): Promise<CollectionRow> {
  const base = executor
    .select()
    .from(contentCollections)
    .where(and(eq(contentCollections.projectId, projectId), eq(contentCollections.slug, slug)));
  const [row] = lock ? await base.for(lock === 'update' ? 'update' : 'share') : await base;
  if (!row) throw notFound('collection_not_found', `There is no collection "${slug}" in this project.`, { collection: slug });
  return row;
}

export class CollectionService {
  /** `lazyIndexes`: a new field's indexes are made when a list first needs them (server/content/field-indexes.ts). */
  constructor(
    private readonly db: Db,
    readonly lazyIndexes = false,
  ) {}

  async list(projectId: string, executor: Db | Tx = this.db): Promise<CollectionRow[]> {
    return executor.select().from(contentCollections).where(eq(contentCollections.projectId, projectId)).orderBy(asc(contentCollections.createdAt), asc(contentCollections.slug));
  }

  /** One collection; `lock` takes its row for the rest of the transaction. */
  async row(projectId: string, slug: string, executor: Db | Tx = this.db, lock?: 'update' | 'share'): Promise<CollectionRow> {
    return collectionRow(executor, projectId, slug, lock);
  }

  /**
   * One collection for reading its items: schema, storage, settings, from this process's cache
   * when it has it. Not its item count (use `row`), and never for a write (which must lock `row`).
   */
  async schemaRow(projectId: string, slug: string): Promise<SchemaRow> {
    const load = async (): Promise<SchemaRow> => {
      const [row] = await this.db
        .select()
        .from(contentCollections)
        .where(and(eq(contentCollections.projectId, projectId), eq(contentCollections.slug, slug)));
      // Not found is not kept (a load that throws stores nothing): a collection made next is seen at once.
      if (!row) throw notFound('collection_not_found', `There is no collection "${slug}" in this project.`, { collection: slug });
      const { itemCount: _count, ...rest } = row;
      return rest;
    };
    const cache = schemaCaches.get(this.db);
    return cache ? cache.get(`${projectId}:${slug}`, load) : load();
  }

  private async settingsContext(executor: Db | Tx, projectId: string, collectionID: string): Promise<SettingsContext> {
    const rows = await executor.select({ slug: contentCollections.slug }).from(contentCollections).where(eq(contentCollections.projectId, projectId));
    const [project] = await executor.select({ settings: projects.settings }).from(projects).where(eq(projects.id, projectId));
    const { scriptsEnabled } = readRichTextSettings(project?.settings);
    return { collectionID, collectionIDs: [...new Set([...rows.map((r) => r.slug), collectionID])], newId, scriptsEnabled };
  }

  async create(projectId: string, input: CreateInput): Promise<Collection> {
    const problems: SettingProblem[] = [];
    const name = input.name.trim();
    const nameProblem = name ? unstorableText(name) : 'is required';
    if (nameProblem) problems.push({ path: 'name', message: nameProblem });
    const slug = input.id ?? slugify(name);
    const idProblem = collectionIdProblem(slug);
    if (idProblem) problems.push({ path: 'id', message: idProblem });
    if (problems.length) throw invalid(problems);

    return this.db.transaction(async (tx) => {
      const context = await this.settingsContext(tx, projectId, slug);
      if (context.collectionIDs.length - 1 >= contentLimits.collectionsPerProject) {
        throw invalid([{ path: 'id', message: `a project may hold at most ${contentLimits.collectionsPerProject} collections` }]);
      }
      const prepared = prepareSchema(input.schema, { siblings: [], depth: 0, context, prefix: 'schema.' });
      if (prepared.problems.length) throw invalid(prepared.problems);
      return toCollectionView(await this.insert(tx, projectId, { slug, name, singleItem: input.singleItem ?? false, rtlDirection: input.rtlDirection ?? false }, prepared.fields));
    });
  }

  /** Inserts a collection row with a prepared schema and makes its storage. */
  private async insert(
    tx: Tx,
    projectId: string,
    base: { slug: string; name: string; singleItem: boolean; rtlDirection: boolean; createdAt?: Date },
    schema: SchemaField[],
  ): Promise<CollectionRow> {
    const id = newId();
    // The unique index settles a race between two creations of one id: the loser gets the 409.
    const [row] = await tx
      .insert(contentCollections)
      .values({ id, projectId, ...base, schema, storageTables: storageTablesOf(id, schema) })
      .onConflictDoNothing()
      .returning();
    if (!row) throw conflict('collection_exists', 'CollectionID already exists');
    // A new collection names its project to every process at commit (what changes of one name are
    // the triggers of migration 0006): caches of a project's collections drop it (server/studio/documents.ts).
    await tx.execute(sql`select larder_invalidate('project', ${projectId})`);
    const top = levelOf(row);
    await createLevelTable(tx, top, this.lazyIndexes);
    for (const field of top.fields) await addFieldStorage(tx, top, field, this.lazyIndexes);
    return row;
  }

  async update(projectId: string, slug: string, input: { name?: string | undefined; rtlDirection?: boolean | undefined; singleItem?: boolean | undefined }): Promise<Collection> {
    return this.db.transaction(async (tx) => {
      const row = await this.row(projectId, slug, tx, 'update');
      const changes: Partial<CollectionRow> = { updatedAt: new Date() };
      if (input.name !== undefined) {
        const nameProblem = input.name.trim() ? unstorableText(input.name) : 'is required';
        if (nameProblem) throw invalid([{ path: 'name', message: nameProblem }]);
        changes.name = input.name.trim();
      }
      if (input.rtlDirection !== undefined) changes.rtlDirection = input.rtlDirection;
      if (input.singleItem !== undefined) {
        if (input.singleItem && !row.singleItem && row.itemCount > 1) {
          throw conflict('single_item_too_many', 'This collection must have no more than one item to become a single item collection.');
        }
        changes.singleItem = input.singleItem;
      }
      const [saved] = await tx.update(contentCollections).set(changes).where(eq(contentCollections.id, row.id)).returning();
      return toCollectionView(saved!);
    });
  }

  async delete(projectId: string, slug: string): Promise<void> {
    await this.db.transaction(async (tx) => {
      const row = await this.row(projectId, slug, tx, 'update');
      for (const other of await this.list(projectId, tx)) {
        if (other.id === row.id) continue;
        for (const level of allLevels(levelOf(other))) {
          const referring = level.fields.find((f) => f.referenceCollectionID === slug);
          if (referring) {
            throw conflict('collection_referenced', `Field "${referring.name}" of collection "${other.slug}" refers to this collection; change or delete it first.`, {
              field: referring.name,
              collection: other.slug,
            });
          }
        }
      }
      // The row's trigger drops every table of the collection in this transaction.
      if (this.lazyIndexes) await stopIndexBuilds(tx, row.storageTables ?? []);
      await tx.delete(contentCollections).where(eq(contentCollections.id, row.id));
    });
    contentDropped(this.db, { projectId });
  }

  async schema(projectId: string, slug: string, nestedID?: string): Promise<SchemaField[]> {
    return schemaLevel(await this.row(projectId, slug), nestedID).fields;
  }

  /** Runs a schema change under the row lock and saves the schema it returns. */
  private async change(projectId: string, slug: string, apply: (tx: Tx, row: CollectionRow, context: SettingsContext) => Promise<SchemaField[]>): Promise<CollectionRow> {
    const saved = await this.db.transaction(async (tx) => {
      const row = await this.row(projectId, slug, tx, 'update');
      const context = await this.settingsContext(tx, projectId, slug);
      const schema = await apply(tx, row, context);
      // Kept search totals test the old schema's columns (query/kept-search.ts).
      await dropKeptSearches(tx, row.id, levelOf(row).table);
      const [saved] = await tx
        .update(contentCollections)
        .set({ schema, storageTables: storageTablesOf(row.id, schema), updatedAt: new Date() })
        .where(eq(contentCollections.id, row.id))
        .returning();
      return saved!;
    });
    contentDropped(this.db, { collectionId: saved.id });
    return saved;
  }

  /** Adds a field to the level `nested` names (the top when absent); returns the new field. */
  async addField(projectId: string, slug: string, input: Record<string, unknown>, nested?: string): Promise<SchemaField> {
    let added!: SchemaField;
    await this.change(projectId, slug, async (tx, row, context) => {
      const level = schemaLevel(row, nested);
      if (level.fields.length >= contentLimits.fieldsPerSchema) {
        throw invalid([{ path: '', message: `a schema may hold at most ${contentLimits.fieldsPerSchema - 1} fields` }]);
      }
      const prepared = prepareNewField(input, { siblings: level.fields, depth: level.depth, context, prefix: '' });
      if (prepared.problems.length) throw invalid(prepared.problems);
      added = prepared.field;
      const fields = withPrimary([...withoutMetadata(level.fields), added, ...level.fields.filter(isMetadata)], added);
      if (this.lazyIndexes) await stopIndexBuilds(tx, [level.table]);
      await addFieldStorage(tx, level, added, this.lazyIndexes);
      return replaceLevelFields(row.schema as SchemaField[], level.path, fields);
    });
    return added;
  }

  /** Adds a field to the nested schema of the nested-collection field `parentFieldId`. */
  async addNestedField(projectId: string, slug: string, parentFieldId: string, input: Record<string, unknown>, nestedSlug?: string): Promise<SchemaField> {
    const row = await this.row(projectId, slug);
    const found = findField(levelOf(row), parentFieldId);
    if (!found || !found.field.nestedCollectionSchema) throw notFound('field_not_found', 'There is no nested-collection field with this id in the collection.');
    const path = [...found.level.path, found.field.slug].join('.');
    if (nestedSlug !== undefined && nestedSlug !== '' && nestedSlug !== path && nestedSlug !== found.field.slug) {
      throw notFound('field_not_found', `The field is not the nested collection "${nestedSlug}".`);
    }
    return this.addField(projectId, slug, input, path);
  }

  /** Changes a field anywhere in the schema; `nested`, when given, must name the level that holds it. */
  async updateField(projectId: string, slug: string, fieldId: string, input: Record<string, unknown>, nested?: string): Promise<SchemaField> {
    let updated!: SchemaField;
    await this.change(projectId, slug, async (tx, row, context) => {
      const level = this.levelOfField(row, fieldId, nested);
      const previous = level.fields.find((f) => f.id === fieldId)!;
      updated = await this.applyUpdate(tx, level, previous, input, context, '');
      const fields = withPrimary(
        level.fields.map((f) => (f.id === fieldId ? updated : f)),
        updated,
      );
      return replaceLevelFields(row.schema as SchemaField[], level.path, fields);
    });
    return updated;
  }

  private levelOfField(row: CollectionRow, fieldId: string, nested?: string): SchemaLevel {
    if (fieldId === metadataField.id) throw badRequest('metadata_field', 'The metadata entry cannot be changed or deleted.');
    const found = findField(levelOf(row), fieldId);
    if (!found) throw notFound('field_not_found', 'There is no field with this id in the collection.');
    if (nested !== undefined && nested !== '' && schemaLevel(row, nested).table !== found.level.table) {
      throw notFound('field_not_found', `The field is not in the nested collection "${nested}".`);
    }
    return found.level;
  }

  private async applyUpdate(tx: Tx, level: SchemaLevel, previous: SchemaField, input: Record<string, unknown>, context: SettingsContext, prefix: string): Promise<SchemaField> {
    const siblings = level.fields.filter((f) => f.id !== previous.id);
    const prepared = prepareFieldUpdate(previous, input, { siblings, depth: level.depth, context, prefix });
    if (prepared.problems.length) throw invalid(prepared.problems);
    const field = prepared.field;
    if (Boolean(field.unique) !== Boolean(previous.unique)) {
      if (field.unique && (await hasDuplicates(tx, level, field))) {
        throw invalid([{ path: `${prefix}unique`, message: 'stored items repeat values of this field; make them unique first' }]);
      }
      if (this.lazyIndexes) await stopIndexBuilds(tx, [level.table]);
      await setUnique(tx, level, field, Boolean(field.unique));
    }
    return field;
  }

  async deleteField(projectId: string, slug: string, fieldId: string, nested?: string): Promise<void> {
    await this.change(projectId, slug, async (tx, row) => {
      const level = this.levelOfField(row, fieldId, nested);
      const field = level.fields.find((f) => f.id === fieldId)!;
      if (this.lazyIndexes) await stopIndexBuilds(tx, [level.table, ...tablesOfField(level, field)]);
      await dropFieldStorage(tx, level, field);
      return replaceLevelFields(
        row.schema as SchemaField[],
        level.path,
        level.fields.filter((f) => f.id !== fieldId),
      );
    });
  }

  /**
   * Replaces a level's schema as a whole: the same fields (the metadata entry included) in a new
   * order, each with changed attributes. Adding or removing fields has calls of its own.
   */
  async replaceSchema(projectId: string, slug: string, input: unknown[], nested?: string): Promise<SchemaField[]> {
    const row = await this.change(projectId, slug, async (tx, current, context) => {
      const level = schemaLevel(current, nested);
      const ids = input.map((entry) => (isObject(entry) ? entry.id : undefined));
      assertPermutation(level, ids, '');
      const fields: SchemaField[] = [];
      for (const [i, entry] of input.entries()) {
        const previous = level.fields.find((f) => f.id === ids[i])!;
        if (isMetadata(previous)) {
          fields.push(previous);
          continue;
        }
        fields.push(await this.applyUpdate(tx, level, previous, entry as Record<string, unknown>, context, `${i}.`));
      }
      const primaries = fields.filter((f) => f.primaryField);
      if (primaries.length > 1) throw invalid([{ path: `${fields.indexOf(primaries[1]!)}.primaryField`, message: 'only one field can be the primary field' }]);
      return replaceLevelFields(current.schema as SchemaField[], level.path, fields);
    });
    return schemaLevel(row, nested).fields;
  }

  /** Puts a level's fields in a new order, given as their ids (or the fields themselves). */
  async reorder(projectId: string, slug: string, order: unknown[], nested?: string): Promise<SchemaField[]> {
    const row = await this.change(projectId, slug, async (_tx, current) => {
      const level = schemaLevel(current, nested);
      const ids = order.map((entry) => (typeof entry === 'string' ? entry : isObject(entry) ? entry.id : undefined));
      assertPermutation(level, ids, 'collectionSchema');
      return replaceLevelFields(
        current.schema as SchemaField[],
        level.path,
        ids.map((fieldId) => level.fields.find((f) => f.id === fieldId)!),
      );
    });
    return schemaLevel(row, nested).fields;
  }

  /** Copies a project's collections and schemas (not items) into another project: templates. */
  async copyProject(tx: Tx, fromProjectId: string, toProjectId: string): Promise<void> {
    const start = Date.now();
    for (const [i, source] of (await this.list(fromProjectId, tx)).entries()) {
      // One transaction gives every row the same now(): distinct times keep the template's order.
      const createdAt = new Date(start + i);
      await this.insert(tx, toProjectId, { slug: source.slug, name: source.name, singleItem: source.singleItem, rtlDirection: source.rtlDirection, createdAt }, renewIds(source.schema as SchemaField[]));
    }
  }

  /** The current item count of every collection of a project (for views). */
  async counts(executor: Executor, projectId: string): Promise<Map<string, number>> {
    const rows = (await executor.execute(sql`select slug, item_count::integer as n from content_collections where project_id = ${projectId}`)) as unknown as {
      rows: { slug: string; n: number }[];
    };
    return new Map(rows.rows.map((r) => [r.slug, r.n]));
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isMetadata = (field: SchemaField) => field.id === metadataField.id;
const withoutMetadata = (fields: SchemaField[]) => fields.filter((f) => !isMetadata(f));

/** One primary field per level: making a field primary takes the flag from the others. */
function withPrimary(fields: SchemaField[], changed: SchemaField): SchemaField[] {
  if (!changed.primaryField) return fields;
  return fields.map((f) => (f.id !== changed.id && f.primaryField ? { ...f, primaryField: false } : f));
}

function assertPermutation(level: SchemaLevel, ids: unknown[], path: string) {
  const known = new Set(level.fields.map((f) => f.id));
  const given = new Set(ids);
  if (ids.length !== level.fields.length || given.size !== ids.length || ids.some((fieldId) => typeof fieldId !== 'string' || !known.has(fieldId))) {
    throw invalid([{ path, message: 'must list every field of the schema (metadata entry included) exactly once, by id' }]);
  }
}

/** A schema with new field ids throughout (so copies get tables of their own); option ids stay. */
function renewIds(schema: SchemaField[]): SchemaField[] {
  return schema.map((field) =>
    isMetadata(field)
      ? field
      : { ...field, id: newId(), ...(field.nestedCollectionSchema ? { nestedCollectionSchema: renewIds(field.nestedCollectionSchema) } : {}) },
  );
}

export type { Tx };
