/**
 * `npx larder …` (bin/larder.mjs): the command line of an installation (docs/cli.md). It reads the
 * same settings as the server (DATA_DIR, DATABASE_URL, FILES_*), so one environment serves both.
 * Every command prints what it did, or with `--json` one JSON document; a refusal prints
 * `Error: …` and exits non-zero.
 */
import { Command } from 'commander';
import { registerAdminCommands } from './admin-commands.ts';
import { registerBackupCommands } from './backup-commands.ts';
import { registerProjectCommands } from './project-commands.ts';
import { runCommand } from './runner.ts';

const program = new Command()
  .name('larder')
  .description('Operate a Larder installation: administrators, migrations, backups, restores and projects.')
  .option('--json', 'print one JSON document instead of text and progress bars')
  .showHelpAfterError()
  .exitOverride();

registerAdminCommands(program, runCommand);
registerBackupCommands(program, runCommand);
registerProjectCommands(program, runCommand);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  const code = (error as { code?: string; exitCode?: number }).code;
  // commander's own exits (help, version, a usage error it already printed).
  if (typeof code === 'string' && code.startsWith('commander.')) process.exit((error as { exitCode?: number }).exitCode ?? 1);
  throw error;
}
