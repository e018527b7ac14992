/** `larder collection import` (docs/cli.md "Collections"). */
import path from 'node:path';
import { Option, type Command } from 'commander';
import type { RunCommand } from './runner.ts';
import { collectionImport } from './collection-operations.ts';
import type { ImportFormat } from '../content/import.ts';
import { rowLines } from './row-lines.ts';

export function registerCollectionCommands(program: Command, run: RunCommand): void {
  const collection = program.command('collection').description("Work on one collection's items.");

  collection
    .command('import')
    .description('Import items into a collection from a CSV, JSON array or NDJSON file: all rows in one transaction, or none.')
    .argument('<organizationID>', 'the organization holding the project')
    .argument('<projectID>', 'the project holding the collection')
    .argument('<collection>', "the collection's id (slug)")
    .argument('<file>', 'the file to read')
    .addOption(new Option('--format <format>', 'the file format (default: from the extension)').choices(['csv', 'json', 'ndjson']))
    .option('--skip-bad-rows', 'leave bad rows out (listed) and import the rest')
    .option('--ignore-unknown', 'drop keys that are not fields of the collection')
    .action(
      async (organizationId: string, projectId: string, slug: string, file: string, options: { format?: ImportFormat; skipBadRows?: boolean; ignoreUnknown?: boolean }, command: Command) => {
        await run(
          command,
          collectionImport,
          { organizationId, projectId, collection: slug, file: path.resolve(file), format: options.format, skipBadRows: options.skipBadRows === true, ignoreUnknown: options.ignoreUnknown === true },
          (out) =>
            [
              `Imported ${out.imported} item(s) into ${slug} from ${out.file} (${out.format}, ${out.batches} batch(es)).`,
              ...(out.skipped ? [`Left out ${out.skipped} bad row(s):`, ...rowLines(out.errors)] : []),
            ].join('\n'),
        );
      },
    );
}
