/**
 * What the console knows of an item import before sending it (docs/content-storage.md "Importing
 * items"): the formats, how a file's name names its format (the console's and the command line's rule), the
 * Content-Type each is sent with, and the most bytes the server takes.
 */
import type { Static } from '@sinclair/typebox';
import type { ImportFormat as ImportFormatSchema, ImportRowError } from './schemas/import.ts';

export type ImportFormat = Static<typeof ImportFormatSchema>;
export type ImportRowProblem = Static<typeof ImportRowError>;

export const importFormatList: readonly ImportFormat[] = ['csv', 'json', 'ndjson'];

/** The most bytes an import may have: the server answers 413 past it (server/content/import-request.ts `importLimits`). */
export const importMaxBytes = 2 * 1024 ** 3;

const byExtension: Record<string, ImportFormat> = { csv: 'csv', json: 'json', ndjson: 'ndjson', jsonl: 'ndjson' };

/** The file picker's `accept`: the extensions `importFormatOf` knows. */
export const importAccept = Object.keys(byExtension)
  .map((extension) => `.${extension}`)
  .join(',');

export const importContentTypes: Record<ImportFormat, string> = {
  csv: 'text/csv',
  json: 'application/json',
  ndjson: 'application/x-ndjson',
};

/** The format a file's name says (its extension, any case), or null. */
export function importFormatOf(fileName: string): ImportFormat | null {
  const dot = fileName.lastIndexOf('.');
  return dot < 0 ? null : (byExtension[fileName.slice(dot + 1).toLowerCase()] ?? null);
}
