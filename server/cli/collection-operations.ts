/** The collection operations of the command line (docs/cli.md "Collections"): a file of items imported into one collection. */
import { createReadStream, statSync } from 'node:fs';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { projects } from '../db/schema.ts';
import { AppError } from '../lib/errors.ts';
import { importFormats, importItems, ImportRefusedError, type ImportFormat, type ImportResult } from '../content/import.ts';
import { importFormatOf } from '../../definitions/item-import.ts';
import { CliError, defineOperation, type Operation } from './operation.ts';

export interface CollectionImportInput {
  organizationId: string;
  projectId: string;
  collection: string;
  file: string;
  format?: ImportFormat | undefined;
  skipBadRows?: boolean | undefined;
  ignoreUnknown?: boolean | undefined;
}

export type CollectionImportResult = ImportResult & { file: string; format: ImportFormat; bytes: number };

export const collectionImport = defineOperation<CollectionImportInput, CollectionImportResult>({
  name: 'collection.import',
  paths: ['file'],
  async run(context, input) {
    const format = input.format ?? importFormatOf(path.basename(input.file)) ?? undefined;
    if (!format || !importFormats.includes(format)) {
      throw new CliError(`Cannot tell the format of ${input.file}: name it with --format csv|json|ndjson.`, 2, 'invalid_input');
    }
    let bytes: number;
    try {
      bytes = statSync(input.file).size;
    } catch {
      throw new CliError(`Cannot read ${input.file}.`, 1, 'file_not_found');
    }
    const [project] = await context.database.db
      .select({ id: projects.id })
      .from(projects)
      .where(and(eq(projects.id, input.projectId), eq(projects.organizationId, input.organizationId)));
    if (!project) throw new CliError(`Organization ${input.organizationId} has no project ${input.projectId}.`, 1, 'project_not_found');
    const bar = context.progress('bytes', bytes);
    let read = 0;
    try {
      const result = await importItems(context.database.db, { projectId: input.projectId, collection: input.collection }, createReadStream(input.file), {
        format,
        skipBadRows: input.skipBadRows,
        ignoreUnknown: input.ignoreUnknown,
        onBytes: (total) => {
          bar.tick(total - read);
          read = total;
        },
      });
      return { ...result, file: input.file, format, bytes };
    } catch (error) {
      // Refused: the rows' problems go with the error (all of them with --json, the first 20 as text).
      if (error instanceof ImportRefusedError) throw new CliError(error.message, 1, error.code, { errors: error.rowErrors });
      if (error instanceof AppError) throw new CliError(error.message, 1, error.code);
      throw error;
    } finally {
      bar.done();
    }
  },
});

export const collectionOperations: readonly Operation<never, unknown>[] = [collectionImport] as readonly Operation<never, unknown>[];
