/**
 * An import whose file is a request's body (the console's and the public API's
 * `POST …/collection/{c}/import`, docs/content-storage.md "Importing items"): the body is read as
 * it arrives (the routes register a content-type parser that hands the raw stream on), so upload
 * progress is import progress; it may be up to `importLimits.maxBytes` long, counted here (413
 * past it). A client that leaves mid-upload ends the stream with an error: the import's
 * transaction rolls back and nothing is written.
 */
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Static } from '@sinclair/typebox';
import type { Db } from '../db/index.ts';
import { AppError, unsupportedMediaType } from '../lib/errors.ts';
import type { ImportQuery } from '../../definitions/schemas/import.ts';
import { importItems, type ImportFormat, type ImportResult } from './import.ts';
import { importMaxBytes } from '../../definitions/item-import.ts';

/** The most bytes one import's body may have, and the rows checked and written together (mutable, so a test may lower them). */
export const importLimits = { maxBytes: importMaxBytes, batchSize: 5000 };

const formatsByType: Record<string, ImportFormat> = {
  'text/csv': 'csv',
  'application/csv': 'csv',
  'application/json': 'json',
  'application/x-ndjson': 'ndjson',
  'application/ndjson': 'ndjson',
  'application/jsonl': 'ndjson',
  'application/x-jsonlines': 'ndjson',
};

const tooLarge = () => new AppError(413, 'payload_too_large', `An import may be at most ${importLimits.maxBytes} bytes.`);

/** Hands every body of the plugin's routes on as the raw stream (registered in the import routes' own plugin only). */
export function streamBodies(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
}

export async function importFromRequest(db: Db, target: { projectId: string; collection: string }, request: FastifyRequest, options: Static<typeof ImportQuery>): Promise<ImportResult> {
  const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  const format = options.format ?? formatsByType[type];
  if (!format) throw unsupportedMediaType('unsupported_media_type', 'Send the file as text/csv, application/json or application/x-ndjson, or name its format in `format`.');
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > importLimits.maxBytes) throw tooLarge();
  const body = request.body as Readable | undefined;
  if (!body || typeof (body as { pipe?: unknown }).pipe !== 'function') throw new AppError(400, 'empty_file', 'The body must be the file to import.');
  const max = importLimits.maxBytes;
  return importItems(db, target, body, {
    format,
    skipBadRows: options.skipBadRows,
    ignoreUnknown: options.ignoreUnknown,
    batchSize: importLimits.batchSize,
    onBytes: (bytes) => {
      if (bytes > max) throw tooLarge();
    },
  });
}
