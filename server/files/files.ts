/**
 * The registry of stored files (table `stored_files`, migration 0011) and the sweeper that
 * deletes files whose owner is gone, so no file outlives its item, collection or project.
 *
 * Why a registry and a sweeper rather than deleting inside each write: item, collection, field and
 * project deletions happen in many places (and cascade through nested tables and a drop trigger),
 * none of which needs to know about files. Instead the registry row is written *before* the bytes,
 * so every stored file is findable; a file is live while the item it was uploaded to exists and
 * its field still holds the file's address (assets: while their project exists). After every
 * content write the request's item (or collection, or project) is swept at once; a periodic sweep
 * of every row catches what a crash between a commit and its sweep left behind. A crash never
 * leaves a file no sweep will reach.
 */
import { createReadStream } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/index.ts';
import { acceptsFile, thumbnailSizes } from '../../definitions/files.ts';
import { badRequest, unsupportedMediaType as unsupported } from '../lib/errors.ts';
import type { FileStorage } from './storage.ts';
import { sniffFile, type Sniffed } from './sniff.ts';
import type { Spooled } from './spool.ts';
import type { ContentEvent } from '../live/events.ts';
import type { ContentDrop } from '../content/drops.ts';

/** Where item writes are heard: the content events recorded with each write (server/live/hub.ts). */
export interface ContentEventSource {
  watch(watcher: (event: ContentEvent) => void): () => void;
  /** Resolves once every event committed so far has been handed out. */
  caughtUp(): Promise<void>;
}

export type FileState = 'pending' | 'attached' | 'asset';

/** A registry row. */
export interface FileRow {
  key: string;
  projectId: string;
  collectionId: string | null;
  rootItemId: string | null;
  itemTable: string | null;
  itemId: string | null;
  fieldColumn: string | null;
  state: FileState;
  contentType: string;
  name: string;
  size: number;
  createdAt: Date;
}

/** The owner of an item file: the item's table and id, the top-level item it sits under, and its field's column. */
export interface ItemOwner {
  projectId: string;
  collectionId: string;
  rootItemId: string;
  itemTable: string;
  itemId: string;
  fieldColumn: string;
}

/** The thumbnail keys of a file (cached renditions, deleted with it). */
export const thumbnailKey = (key: string, size: number) => `${key}.w${size}`;

/** The address a stored file is served at (`GET /files/{key}`, server/files/download-routes.ts). */
export const fileUrl = (publicUrl: string, key: string) => `${publicUrl}/files/${key}`;

/** An upload stored: its key and its real type. */
export interface StoredFile {
  key: string;
  type: Sniffed;
}

type RawRow = Record<string, unknown>;

const toRow = (r: RawRow): FileRow => ({
  key: String(r.key),
  projectId: String(r.project_id),
  collectionId: (r.collection_id as string | null) ?? null,
  rootItemId: (r.root_item_id as string | null) ?? null,
  itemTable: (r.item_table as string | null) ?? null,
  itemId: (r.item_id as string | null) ?? null,
  fieldColumn: (r.field_column as string | null) ?? null,
  state: r.state as FileState,
  contentType: String(r.content_type),
  name: String(r.name),
  size: Number(r.size),
  createdAt: r.created_at instanceof Date ? r.created_at : new Date(String(r.created_at)),
});

async function rows(db: Db, statement: ReturnType<typeof sql>): Promise<RawRow[]> {
  const result = (await db.execute(statement)) as unknown as { rows: RawRow[] };
  return result.rows;
}

const sweepBatch = 500;

export class FileService {
  /** Sweeps started by requests and not finished yet (tests and shutdown wait for them). */
  private readonly running = new Set<Promise<unknown>>();
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  private events: ContentEventSource | undefined;

  constructor(
    private readonly db: Db,
    readonly storage: FileStorage,
    private readonly options: { pendingGraceS: number; sweepIntervalS: number; log: FastifyBaseLogger },
  ) {}

  /** Records a file about to be stored, before its bytes are written. */
  async register(key: string, owner: ItemOwner | { projectId: string }, file: { contentType: string; name: string; size: number }): Promise<void> {
    const item = 'itemId' in owner ? owner : undefined;
    await this.db.execute(sql`
      insert into stored_files (key, project_id, collection_id, root_item_id, item_table, item_id, field_column, state, content_type, name, size)
      values (${key}, ${owner.projectId}, ${item?.collectionId ?? null}, ${item?.rootItemId ?? null}, ${item?.itemTable ?? null},
              ${item?.itemId ?? null}, ${item?.fieldColumn ?? null}, ${item ? 'pending' : 'asset'}, ${file.contentType}, ${file.name}, ${file.size})`);
  }

  /**
   * Checks a spooled upload against its real type and the accept list, records it (the registry row
   * before the bytes) and stores it under `keyBase`; a failed write takes its row with it.
   */
  async store(upload: Spooled, accept: string, owner: ItemOwner | { projectId: string }, keyBase: string): Promise<StoredFile> {
    const sniffed = await sniffFile(upload.file, upload.name, upload.size);
    if (!sniffed.ok) throw sniffed.code === 'empty_file' ? badRequest('empty_file', sniffed.message) : unsupported('type_mismatch', sniffed.message);
    if (!acceptsFile(accept, sniffed.type.mime, `x.${sniffed.type.ext}`)) {
      throw unsupported('type_not_accepted', `This field accepts ${accept}; the file is ${sniffed.type.mime}.`);
    }
    const key = `${keyBase}/${randomBytes(16).toString('hex')}.${sniffed.type.ext}`;
    await this.register(key, owner, { contentType: sniffed.type.mime, name: upload.name.slice(0, 255), size: upload.size });
    try {
      await this.storage.put(key, createReadStream(upload.file), { size: upload.size, contentType: sniffed.type.mime });
    } catch (error) {
      await this.remove(key);
      throw error;
    }
    return { key, type: sniffed.type };
  }

  /**
   * Stores a call's uploads as files of the project (assets, of any type), in order; when one is
   * refused or fails, the ones stored before it go too, so a call stores all of its files or none.
   */
  async storeAssets(projectId: string, uploads: readonly Spooled[]): Promise<(StoredFile & { upload: Spooled })[]> {
    const stored: (StoredFile & { upload: Spooled })[] = [];
    try {
      for (const upload of uploads) stored.push({ ...(await this.store(upload, '*/*', { projectId }, `p/${projectId}/a`)), upload });
      return stored;
    } catch (error) {
      for (const { key } of stored) await this.remove(key);
      throw error;
    }
  }

  /** The item holding the file's address has committed: from now on the file dies with the address. */
  async markAttached(key: string): Promise<void> {
    await this.db.execute(sql`update stored_files set state = 'attached' where key = ${key} and state = 'pending'`);
  }

  /**
   * Copies a stored file to a new key owned by `owner` (pending until its item write commits),
   * keeping its type and uploaded name. False when the source is gone (nothing is left behind).
   */
  async copy(source: string, target: string, owner: ItemOwner): Promise<boolean> {
    const row = await this.find(source);
    if (!row) return false;
    await this.register(target, owner, { contentType: row.contentType, name: row.name, size: row.size });
    try {
      const found = await this.storage.get(source);
      if (!found) {
        await this.remove(target);
        return false;
      }
      await this.storage.put(target, found.body, { size: found.stat.size, contentType: row.contentType });
      return true;
    } catch (error) {
      await this.remove(target);
      throw error;
    }
  }

  async find(key: string): Promise<FileRow | undefined> {
    const [row] = await rows(this.db, sql`select * from stored_files where key = ${key}`);
    return row ? toRow(row) : undefined;
  }

  /** Deletes a file, its thumbnails and then its row (in that order: a crash in between leaves the row, and the sweep retries). */
  async remove(key: string): Promise<void> {
    await this.storage.delete(key);
    for (const size of thumbnailSizes) await this.storage.delete(thumbnailKey(key, size));
    await this.db.execute(sql`delete from stored_files where key = ${key}`);
  }

  /**
   * Whether the file's owner still holds it. An item file is live while its item exists and its
   * field's value contains the file's key; a pending one is also live while young (its upload is
   * still writing the item). An asset lives as long as its project.
   */
  private async isLive(row: FileRow): Promise<boolean> {
    const [project] = await rows(this.db, sql`select 1 as found from projects where id = ${row.projectId}`);
    if (!project) return false;
    if (row.state === 'asset') return true;
    if (!row.itemTable || !row.itemId || !row.fieldColumn || !row.collectionId) return false;
    const [collection] = await rows(this.db, sql`select 1 as found from content_collections where id = ${row.collectionId}`);
    if (!collection) return false;
    const [table] = await rows(this.db, sql`select to_regclass(${row.itemTable}) is not null as found`);
    if (!table?.found) return false;
    // to_jsonb of the whole row: a dropped field's column is simply absent (null), never an error.
    const [item] = await rows(
      this.db,
      sql`select coalesce(position(${row.key} in (to_jsonb(t) -> ${row.fieldColumn})::text), 0) > 0 as holds
          from ${sql.identifier(row.itemTable)} t where ${sql.identifier('_id')} = ${row.itemId}`,
    );
    if (!item) return false;
    if (item.holds) return true;
    return row.state === 'pending' && Date.now() - row.createdAt.getTime() < this.options.pendingGraceS * 1000;
  }

  /** Checks the given rows and deletes the files no owner holds any more; returns how many went. */
  private async sweepRows(list: FileRow[]): Promise<number> {
    let removed = 0;
    for (const row of list) {
      if (await this.isLive(row)) continue;
      await this.remove(row.key);
      removed++;
    }
    return removed;
  }

  /** The files of one top-level item and everything nested in it. */
  async sweepItem(collectionId: string, rootItemId: string): Promise<number> {
    const list = await rows(this.db, sql`select * from stored_files where collection_id = ${collectionId} and root_item_id = ${rootItemId}`);
    return this.sweepRows(list.map(toRow));
  }

  /** Every file of one collection (after a field or schema change), in batches. */
  async sweepCollection(collectionId: string): Promise<number> {
    return this.sweepWhere(sql`collection_id = ${collectionId}`);
  }

  /** Every file of one project (after a collection or project deletion), in batches. */
  async sweepProject(projectId: string): Promise<number> {
    return this.sweepWhere(sql`project_id = ${projectId}`);
  }

  /** Every file of projects that no longer exist (after a project or organization deletion). */
  async sweepOrphanedProjects(): Promise<number> {
    return this.sweepWhere(sql`not exists (select 1 from projects p where p.id = stored_files.project_id)`);
  }

  /** Every file (the periodic sweep). */
  async sweepAll(): Promise<number> {
    return this.sweepWhere(sql`true`);
  }

  private async sweepWhere(condition: ReturnType<typeof sql>): Promise<number> {
    let removed = 0;
    let after = '';
    for (;;) {
      const batch = (await rows(this.db, sql`select * from stored_files where ${condition} and key > ${after} order by key limit ${sweepBatch}`)).map(toRow);
      if (batch.length === 0) return removed;
      removed += await this.sweepRows(batch);
      after = batch[batch.length - 1]!.key;
      if (this.closed) return removed;
    }
  }

  /** Runs a sweep after the response, logging failures (the periodic sweep retries what fails). */
  schedule(sweep: () => Promise<unknown>): void {
    if (this.closed) return;
    const run = sweep()
      .catch((error: unknown) => this.options.log.error({ err: error }, 'file sweep failed'))
      .finally(() => this.running.delete(run));
    this.running.add(run);
  }

  /**
   * After an item is changed or deleted (its content event, whichever process wrote it), the files
   * it no longer holds go at once; a created item holds only what it was given.
   */
  follow(events: ContentEventSource): () => void {
    this.events = events;
    return events.watch((event) => {
      // Creates and imports only add items: nothing they held can have been let go.
      if (event.trigger === 'create' || event.trigger === 'import') return;
      this.schedule(() => this.sweepItem(event.collectionId, event.rootItemId ?? event.itemId));
    });
  }

  /** After a change took content away without an item write (server/content/drops.ts), the files it held go at once. */
  dropped(drop: ContentDrop): void {
    if ('collectionId' in drop) this.schedule(() => this.sweepCollection(drop.collectionId));
    else if ('projectId' in drop) this.schedule(() => this.sweepProject(drop.projectId));
    else this.schedule(() => this.sweepOrphanedProjects());
  }

  /** Resolves when the item writes committed so far have been heard and every sweep started so far has finished. */
  async idle(): Promise<void> {
    if (!this.closed) await this.events?.caughtUp();
    await this.settled();
  }

  private async settled(): Promise<void> {
    while (this.running.size) await Promise.all([...this.running]);
  }

  /** Starts the periodic sweep (the first one right away: it catches up after a crash). */
  start(): void {
    if (this.options.sweepIntervalS <= 0) return;
    this.schedule(() => this.sweepAll());
    this.timer = setInterval(() => this.schedule(() => this.sweepAll()), this.options.sweepIntervalS * 1000);
    this.timer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.settled();
  }
}
