/** The backup operations of the command line (docs/cli.md "Backups and restores"). */
import { createBackup, type BackupSummary } from '../backup/backup.ts';
import { run } from '../backup/catalog.ts';
import { restoreBackup, type RestoreSummary } from '../backup/restore.ts';
import { defineOperation, type Operation } from './operation.ts';

export interface BackupInput {
  /** An absolute path (the command resolves it where it runs: a server may run it elsewhere). */
  file: string;
}

export interface RestoreInput {
  file: string;
  force: boolean;
}

/**
 * Reads and changes nothing but its entry in the audit log, so it runs beside a server: on
 * PostgreSQL in the command's own process, on PGlite inside the server (docs/cli.md "While a
 * server runs"). Migrations are not applied: a backup keeps the database as it is.
 */
export const backupOperation = defineOperation<BackupInput, BackupSummary>({
  name: 'backup',
  withoutMigrations: true,
  paths: ['file'],
  async run(context, input) {
    const summary = await createBackup({ database: context.database, storage: context.storage, file: input.file, progress: context.progress });
    // A database older than the audit log (restored from an old backup, not yet migrated) has nowhere to record it.
    const [audit] = await run<{ present: boolean }>(context.database.db, `select to_regclass('public.admin_audit') is not null as present`);
    if (audit?.present) {
      await context.database.db.transaction((tx) =>
        context.audit.record(tx, { id: null, name: context.actor }, { action: 'installation.backup', targetKind: 'installation', targetId: null, after: summary }),
      );
    }
    return summary;
  },
});

/** Needs the database to itself, and applies the migrations itself (up to the backup's, then the rest). */
export const restoreOperation = defineOperation<RestoreInput, RestoreSummary>({
  name: 'restore',
  exclusive: true,
  paths: ['file'],
  withoutMigrations: true,
  run: (context, input) =>
    restoreBackup({
      database: context.database,
      storage: context.storage,
      file: input.file,
      force: input.force,
      audit: context.audit,
      actor: context.actor,
      progress: context.progress,
      note: context.note,
    }),
});

// Each operation has its own input and output types; the registry holds them side by side.
export const backupOperations: readonly Operation<never, unknown>[] = [backupOperation as Operation<never, unknown>, restoreOperation as Operation<never, unknown>];
