/** `larder backup <file>` and `larder restore <file> [--force]` (docs/cli.md "Backups and restores"). */
import path from 'node:path';
import type { Command } from 'commander';
import type { BackupSummary } from '../backup/backup.ts';
import type { RestoreSummary } from '../backup/restore.ts';
import { backupOperation, restoreOperation } from './backup-operations.ts';
import type { RunCommand } from './runner.ts';

const count = (n: number) => n.toLocaleString('en');
const size = (bytes: number) => (bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MB` : `${(bytes / 1024).toFixed(1)} KB`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export function registerBackupCommands(program: Command, run: RunCommand): void {
  program
    .command('backup')
    .description('Write one archive with every row of the database and every stored file (the server may keep running).')
    .argument('<file>', 'the archive to write (gzip tar; written whole or not at all)')
    .action((file: string, _options: unknown, command: Command) =>
      run(command, backupOperation, { file: path.resolve(file) }, (out: BackupSummary) =>
        [
          `Backed up ${count(out.rows)} rows of ${out.tables} tables and ${count(out.files)} files (${size(out.fileBytes)}) to ${out.file} in ${seconds(out.durationMs)}; the archive is ${size(out.bytes)}.`,
          ...(out.missingFiles > 0 ? [`${out.missingFiles} file(s) were deleted while the backup ran and are not in it.`] : []),
        ].join('\n'),
      ),
    );
  program
    .command('restore')
    .description('Restore an archive made by `larder backup` into an empty installation (stop the server first).')
    .argument('<file>', 'the archive to read')
    .option('--force', 'replace an installation that is not empty: its database and its stored files')
    .action((file: string, options: { force?: boolean }, command: Command) =>
      run(command, restoreOperation, { file: path.resolve(file), force: options.force === true }, (out: RestoreSummary) =>
        [
          `Restored ${count(out.rows)} rows of ${out.tables} tables and ${count(out.files)} files (${size(out.fileBytes)}) from ${out.file} (made ${out.createdAt} by Larder ${out.larderVersion} on ${out.from}) in ${seconds(out.durationMs)}.`,
          ...(out.newerMigrations > 0 ? [`Applied ${out.newerMigrations} newer migration(s) after the rows.`] : []),
        ].join('\n'),
      ),
    );
}
