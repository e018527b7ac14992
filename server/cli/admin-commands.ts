/**
 * `larder admin create|grant|revoke`, `larder user reset-password` and `larder migrate`
 * (docs/cli.md "Administrators and migrations"): arguments in, the operation's output as text.
 */
import type { Command } from 'commander';
import { loadConfig } from '../config.ts';
import { createAdmin, grantSuperAdmin, migrate, resetPassword, revokeSuperAdmin, type CliUser, type SuperAdminOutput } from './admin-operations.ts';
import type { RunCommand } from './runner.ts';

const describe = (user: CliUser) => `${user.username} <${user.email}>`;

const generated = (password: string | undefined) =>
  password === undefined ? '' : `\nPassword (shown this once; stored only as a hash): ${password}`;

export function registerAdminCommands(program: Command, run: RunCommand): void {
  const admin = program.command('admin').description('Platform super-admins: make, grant, revoke.');

  admin
    .command('create')
    .description('Make a verified platform super-admin.')
    .requiredOption('--email <email>', 'their e-mail address')
    .requiredOption('--username <username>', 'their username')
    .option('--password <password>', 'their password (else the ADMIN_PASSWORD setting, else one is generated and printed once)')
    .action(async (options: { email: string; username: string; password?: string }, command: Command) => {
      // The setting keeps the password out of the process list and the shell's history (docs/cli.md "Administrators and migrations").
      let password = options.password;
      try {
        password ??= loadConfig().adminPassword;
      } catch {
        // An invalid setting: the run below reports it as every command does (`invalid_setting`, exit 2).
      }
      await run(command, createAdmin, { email: options.email, username: options.username, ...(password === undefined ? {} : { password }) }, (output) =>
        `Created the platform super-admin ${describe(output.user)}.${generated(output.password)}`,
      );
    });

  const superAdminText = (granted: boolean) => (output: SuperAdminOutput) => {
    const name = describe(output.user);
    if (output.changed) return granted ? `${name} is now a platform super-admin.` : `${name} is no longer a platform super-admin.`;
    if (granted) return `${name} already is a platform super-admin.`;
    return `${name} was not a platform super-admin.`;
  };

  admin
    .command('grant')
    .description('Make an existing user a platform super-admin.')
    .argument('<user>', 'their e-mail address or username')
    .action(async (user: string, _options: unknown, command: Command) => {
      await run(command, grantSuperAdmin, { user }, superAdminText(true));
    });

  admin
    .command('revoke')
    .description('Take platform super-admin away from a user (not one the configuration names).')
    .argument('<user>', 'their e-mail address or username')
    .action(async (user: string, _options: unknown, command: Command) => {
      await run(command, revokeSuperAdmin, { user }, superAdminText(false));
    });

  program
    .command('user')
    .description('Console users.')
    .command('reset-password')
    .description("Set a user's password and end every session they have.")
    .argument('<user>', 'their e-mail address or username')
    .option('--password <password>', 'the new password (else one is generated and printed once)')
    .action(async (user: string, options: { password?: string }, command: Command) => {
      await run(command, resetPassword, { user, ...(options.password === undefined ? {} : { password: options.password }) }, (output) => {
        const sessions = output.sessionsEnded === 1 ? '1 session ended' : `${output.sessionsEnded} sessions ended`;
        const disabled = output.user.disabled ? ' The account stays disabled.' : '';
        return `Set a new password for ${describe(output.user)} (${sessions}).${disabled}${generated(output.password)}`;
      });
    });

  program
    .command('migrate')
    .description('Apply the database migrations and exit (stop the server first on the embedded database).')
    .action(async (_options: unknown, command: Command) => {
      await run(command, migrate, {}, (output) =>
        output.applied.length
          ? `Applied ${output.applied.length} migration${output.applied.length === 1 ? '' : 's'}: ${output.applied.join(', ')}.`
          : `The database is up to date (${output.latest ?? 'no migrations'}).`,
      );
    });
}
