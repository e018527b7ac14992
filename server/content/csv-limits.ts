/**
 * How a CSV export reads and writes its batches. Not settings: the app holds its own copy in
 * `config.csv` (server/config.ts), which tests change on their app to exercise small batches and
 * each way of writing.
 */
export interface CsvLimits {
  /** Rows read per batch. */
  batchSize: number;
  /** A batch written by the database stops after the row that reaches this many bytes (a text value is at most 1 GB). */
  batchBytes: number;
  /** Whether the database writes the cells (false: every batch is read as rows and written by the JavaScript codecs). */
  sql: boolean;
  /** Whether PostgreSQL writes batches with COPY (false: as one text value each). */
  copy: boolean;
  /** Rows per COPY batch (fewer when rows are big: a batch is held whole, at most `batchBytes`). */
  copyBatchSize: number;
  /** Parts of a COPY batch written at once, each by its own connection (and PostgreSQL process). */
  copyParts: number;
}

export const defaultCsvLimits: Readonly<CsvLimits> = {
  batchSize: 5000,
  batchBytes: 16 * 1024 * 1024,
  sql: true,
  copy: true,
  copyBatchSize: 10000,
  copyParts: 2,
};
