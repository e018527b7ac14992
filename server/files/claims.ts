/**
 * A file belongs to exactly one item field (docs/files.md "Who owns a file"). An
 * item write whose image values name a stored file that another item (or another field of the
 * same item) holds gets a copy of that file of its own, and its value is rewritten to the copy's
 * address before the write: a duplicate, or an item made through an API from another item's
 * values, keeps its files when the original is deleted and swept.
 *
 * The item service reaches the file service through this registry, keyed by the database, so
 * every ItemService of the process (console, public API, CSV, users) copies the same way without
 * being handed the file service.
 */
import { randomBytes } from 'node:crypto';
import { fieldType, type SchemaField } from '../../definitions/field-types/index.ts';
import { isPlainObject } from '../../definitions/field-types/support.ts';
import type { FileService, ItemOwner } from './files.ts';
import { isSafeKey } from './storage.ts';

interface Claimer {
  files: FileService;
  /** `PUBLIC_URL/files/`: the addresses of this server's files start with it. */
  prefix: string;
}

const claimers = new WeakMap<object, Claimer>();

/** Makes writes through this database copy the files they name (called once the file service is up). */
export function registerFileClaimer(db: object, files: FileService, publicUrl: string): void {
  claimers.set(db, { files, prefix: `${publicUrl}/files/` });
}

/** The fields of a write's body whose values may name stored files, and those values. */
function imageValues(fields: readonly SchemaField[], body: Record<string, unknown>) {
  return fields.filter((field) => fieldType(field.type)?.files !== undefined && field.slug in body);
}

/** The stored file an image entry's address names, when it is one of this server's. */
function keyOf(entry: unknown, prefix: string): string | undefined {
  if (!isPlainObject(entry) || typeof entry.imageURL !== 'string' || !entry.imageURL.startsWith(prefix)) return undefined;
  const key = entry.imageURL.slice(prefix.length).split(/[?#]/)[0]!;
  return isSafeKey(key) ? key : undefined;
}

/** Cheap test run on every write: does any value of the body hold an address of this server's files? */
export function mayNameFiles(db: object, body: Record<string, unknown>): boolean {
  const claimer = claimers.get(db);
  if (!claimer) return false;
  for (const value of Object.values(body)) {
    if (Array.isArray(value) ? value.some((entry) => keyOf(entry, claimer.prefix)) : keyOf(value, claimer.prefix)) return true;
  }
  return false;
}

/** Where the written item is: its owner for each field is this plus the field's column. */
export type ClaimTarget = Omit<ItemOwner, 'fieldColumn'>;

export interface Claimed {
  /** The body with the copies' addresses. */
  body: Record<string, unknown>;
  /** The copies made (pending in the registry): attach them once the write commits, remove them if it fails. */
  keys: string[];
}

/**
 * Copies every file the body names that is held by another owner (same project, not an asset)
 * and answers the body rewritten to the copies. A file of another project or one no longer
 * stored is left as the address it is (a link, like any other outside address).
 */
export async function claimFiles(db: object, target: ClaimTarget, fields: readonly SchemaField[], columnOf: (field: SchemaField) => string, body: Record<string, unknown>): Promise<Claimed> {
  const claimer = claimers.get(db);
  const keys: string[] = [];
  if (!claimer) return { body, keys };
  const { files, prefix } = claimer;
  const out = { ...body };
  try {
    for (const field of imageValues(fields, body)) {
      const owner: ItemOwner = { ...target, fieldColumn: columnOf(field) };
      const claim = async (entry: unknown) => {
        const key = keyOf(entry, prefix);
        if (!key) return entry;
        const row = await files.find(key);
        if (!row || row.state === 'asset' || row.projectId !== owner.projectId) return entry;
        if (row.itemTable === owner.itemTable && row.itemId === owner.itemId && row.fieldColumn === owner.fieldColumn) return entry;
        const ext = /\.([a-z0-9]+)$/.exec(key)?.[1];
        const copy = `p/${owner.projectId}/c/${owner.collectionId}/i/${owner.rootItemId}/${randomBytes(16).toString('hex')}${ext ? `.${ext}` : ''}`;
        if (!(await files.copy(key, copy, owner))) return entry;
        keys.push(copy);
        const image = entry as Record<string, unknown>;
        return {
          ...image,
          imageURL: prefix + copy,
          imageName: copy.split('/').pop()!,
          fileName: typeof image.fileName === 'string' && image.fileName ? image.fileName : row.name,
          ...(typeof image.extension === 'string' && image.extension ? {} : ext ? { extension: ext } : {}),
        };
      };
      const value = body[field.slug];
      out[field.slug] = Array.isArray(value) ? await Promise.all(value.map(claim)) : await claim(value);
    }
  } catch (error) {
    await release(db, keys);
    throw error;
  }
  return { body: out, keys };
}

/** The write holding the copies committed: they now live and die with their item. */
export async function attachClaimed(db: object, keys: readonly string[]): Promise<void> {
  const claimer = claimers.get(db);
  if (claimer) for (const key of keys) await claimer.files.markAttached(key);
}

/** The write failed: its copies go at once (the sweep would also take them after the pending grace). */
export async function release(db: object, keys: readonly string[]): Promise<void> {
  const claimer = claimers.get(db);
  if (claimer) for (const key of keys) await claimer.files.remove(key);
}
