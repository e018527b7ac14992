/**
 * `npx larder …` (bin/larder.mjs): the command line of an installation (docs/cli.md). It reads the
 * same settings as the server (DATA_DIR, DATABASE_URL, FILES_*), so one environment serves both.
 * Every command prints what it did, or with `--json` one JSON document; a refusal prints
 * `Error: …` and exits non-zero (the codes are in server/cli/runner.ts `exitCodes`).
 */
import { Command, CommanderError } from 'commander';
import { registerAdminCommands } from './admin-commands.ts';
import { registerBackupCommands } from './backup-commands.ts';
import { registerCollectionCommands } from './collection-commands.ts';
import { registerProjectCommands } from './project-commands.ts';
import { exitCodes, runCommand } from './runner.ts';

const json = process.argv.includes('--json');

const program = new Command()
  .name('larder')
  .description('Operate a Larder installation: administrators, migrations, backups, restores and projects.')
  .option('--json', 'print one JSON document instead of text and progress bars')
  .showHelpAfterError(!json)
  .configureOutput({
    // With --json a usage error is one JSON document on stdout (below), not commander's text.
    outputError: (text, write) => {
      if (!json) write(text);
    },
  })
  .exitOverride();

registerAdminCommands(program, runCommand);
registerBackupCommands(program, runCommand);
registerProjectCommands(program, runCommand);
registerCollectionCommands(program, runCommand);

// Commands made with `.command()` inherit the settings above; one added with `.addCommand()` does
// not, so every command gets them again here.
const inherit = (parent: Command) => {
  for (const command of parent.commands) {
    command.copyInheritedSettings(parent);
    inherit(command);
  }
};
inherit(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  if (!(error instanceof CommanderError)) throw error;
  // Help and version are not failures; anything else commander refused is a usage error.
  const quiet = error.code === 'commander.helpDisplayed' || error.code === 'commander.version';
  if (quiet) process.exitCode = 0;
  else {
    if (json) process.stdout.write(`${JSON.stringify({ error: { code: 'usage', message: error.message.replace(/^error: /, '') } })}\n`);
    process.exitCode = exitCodes.usage;
  }
}
// A command is done once it has printed: connections it opened (a pool, a stalled connection
// attempt) must not keep the process alive.
process.exit(process.exitCode ?? 0);
