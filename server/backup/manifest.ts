/**
 * What a backup archive holds (docs/cli.md "Backups and restores"): `manifest.json`, one JSON-lines
 * file of rows per table under `db/`, and every stored file under `files/<key>`. The manifest names
 * each entry with its size and SHA-256, so a restore checks every byte before it writes anything.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Raised when the archive's format changes in a way an older restore cannot read. */
export const backupFormatVersion = 1;

export const larderVersion = (): string => {
  const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../package.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
};

/** One column of a table as the catalog described it when the backup was made. */
export interface ColumnManifest {
  name: string;
  /** `format_type` of the column (`text`, `timestamp with time zone`, `numeric(10,2)`, …). */
  type: string;
  notNull: boolean;
  /** `a` generated always / `d` by default as identity, or empty. */
  identity: string;
  /** The expression of a stored generated column (not dumped: the restore computes it). */
  generated: string | null;
  default: string | null;
  /** A collation other than the type's (`"C"` on `_rank`), quoted. */
  collation: string | null;
}

export interface TableManifest {
  name: string;
  columns: ColumnManifest[];
  /** `alter table … add constraint` bodies: primary key, unique, check, exclusion, then foreign keys. */
  constraints: { name: string; kind: string; definition: string; references: string | null }[];
  /** `create index` statements of the indexes no constraint owns. */
  indexes: string[];
  /** `create trigger` statements of the table's own triggers. */
  triggers: string[];
  rows: number;
  /** The rows' entry: `db/<n>.jsonl`, one `row_to_json` document a line. */
  entry: string;
  bytes: number;
  sha256: string;
}

export interface SequenceManifest {
  name: string;
  /** The column that owns it (serial or identity), if any: the restore finds its sequence by it. */
  table: string | null;
  column: string | null;
  lastValue: string | null;
}

export interface FileManifest {
  key: string;
  size: number;
  sha256: string;
}

export interface BackupManifest {
  format: 'larder-backup';
  formatVersion: number;
  larderVersion: string;
  createdAt: string;
  database: 'pglite' | 'postgres';
  /** The migrations the database had, oldest first: journal tag and the `when` drizzle keys them by. */
  migrations: { tag: string | null; createdAt: number; hash: string }[];
  tables: TableManifest[];
  /** Tables left out (rebuilt or of no use in another installation): see docs/cli.md. */
  skippedTables: string[];
  sequences: SequenceManifest[];
  files: FileManifest[];
  /** Files the database named but the storage no longer had when they were read (deleted meanwhile). */
  missingFiles: string[];
}

/** Tables a backup leaves out: counters of the running processes, not data (docs/cli.md "Backups and restores"). */
export const skippedTables: readonly string[] = ['rate_limits', 'usage_live_processes'];

/** The archive entry of a stored file. */
export const fileEntry = (key: string) => `files/${key}`;
