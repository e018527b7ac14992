/**
 * The project archive (docs/cli.md "Projects"): a tar file, gzip-compressed unless asked not to,
 * holding one project as JSON text. Every entry but the manifest is listed in the manifest with
 * its size and SHA-256, so a truncated, altered or incomplete archive is refused before anything
 * is written. Entries are written in a fixed order with fixed metadata, so exporting an unchanged
 * project twice gives the same bytes (an archive can be kept in git).
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';

/** What the manifest says the archive is. */
export const archiveFormat = 'larder-project';
/** The format this code writes and the newest it reads. */
export const archiveVersion = 1;

export const manifestEntry = 'manifest.json';
export const projectEntry = 'project.json';
export const filesEntry = 'files.jsonl';
export const webhooksEntry = 'webhooks.json';
export const groupsEntry = 'groups.json';
export const collectionEntry = (slug: string) => `collections/${slug}/collection.json`;
/** The items of one level: `items.jsonl` at the top, `nested/<slug path>.jsonl` below it. */
export const itemsEntry = (slug: string, path: readonly string[]) => (path.length ? `collections/${slug}/nested/${path.join('.')}.jsonl` : `collections/${slug}/items.jsonl`);
/** A stored file's bytes, by their hash (the same bytes twice are kept once). */
export const fileBytesEntry = (sha256: string) => `files/${sha256}`;

export interface ManifestCollection {
  id: string;
  /** Items per level: '' for the top, else the nested slugs joined by '.'. */
  items: Record<string, number>;
}

export interface Manifest {
  format: typeof archiveFormat;
  formatVersion: number;
  project: { id: string; name: string };
  organizationID: string;
  counts: { collections: number; items: number; files: number; fileBytes: number; webhooks: number; groups: number };
  collections: ManifestCollection[];
  /** Every other entry of the archive, by path, sorted. */
  entries: Record<string, { size: number; sha256: string }>;
}

/** A collection as the archive holds it. */
export interface ArchivedCollection {
  id: string;
  name: string;
  singleItem: boolean;
  rtlDirection: boolean;
  createdDate: string;
  updatedDate: string;
  schema: unknown[];
  layouts: Record<string, unknown>;
}

/** A stored file as the archive holds it: its bytes are `files/<sha256>`. */
export interface ArchivedFile {
  /** The key it had; addresses in item values that name it are rewritten on import. */
  key: string;
  sha256: string;
  size: number;
  contentType: string;
  name: string;
  /** A project file (asset), or the file of an item's field. */
  kind: 'asset' | 'item';
  collection?: string;
  /** The nested slugs leading to the item's list ('' at the top). */
  path?: string;
  item?: string;
  rootItem?: string;
  field?: string;
}

export interface ArchivedWebhook {
  name: string;
  webhookURI: string;
  method: string;
  trigger: string;
  collections: string[];
  enabled: boolean;
}

export interface ArchivedGroup {
  name: string;
  permissions: unknown[];
}

export interface ArchivedProject {
  name: string;
  description: string;
  createdDate: string;
  settings: Record<string, unknown>;
}

/** The size and SHA-256 of a file, read as a stream. */
export async function digestFile(file: string): Promise<{ size: number; sha256: string }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const chunk of createReadStream(file)) {
    hash.update(chunk as Buffer);
    size += (chunk as Buffer).length;
  }
  return { size, sha256: hash.digest('hex') };
}

/** JSON text as the archive writes it: two-space indents and a final newline (diffs read well). */
export const pretty = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
