/**
 * The administrator commands and `larder migrate` (docs/cli.md "Administrators and migrations")
 * on PGlite (a data directory) and PostgreSQL (a new, empty database): what they change, their
 * audit entries, their `--json` documents and their exit codes; then a server on the same database
 * signs the user in with the password the command set. A process start (and, on PGlite, opening
 * the data directory) costs seconds, so only what a process shows runs as one — `node
 * bin/larder.mjs …`, as an operator runs it: `migrate` on each database (its `--json` document),
 * and on PGlite a command's text, a refusal's `--json` document (exit 1) and a usage error (exit
 * 2); an unreachable database gives the `Error:` line (exit 3). The rest runs the same commands in
 * this process on one open database (support/cli.ts `inProcessLarder`).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { migrationsFolder, openDatabase, type Database } from '../../server/db/index.ts';
import { adminAudit, users } from '../../server/db/schema.ts';
import { emptyPostgresDatabase, inProcessLarder, larder, templateDataDir, type CliRun, type CliTarget } from './support/cli.ts';
import { passwordGrant } from './support/flows.ts';
import { databaseKinds, testEnv, type DatabaseKind } from './support/test-app.ts';

const slow = 300_000;
const tags = (JSON.parse(readFileSync(path.join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] }).entries.map((e) => e.tag);

describe.each(databaseKinds)('larder admin, user and migrate on %s', (kind: DatabaseKind) => {
  let target: CliTarget;
  let cleanup: () => Promise<void>;
  let database: Database | undefined;
  let inProcess: ((args: string[], env?: Record<string, string>) => Promise<CliRun>) | undefined;

  /** The command run in this process, on the database opened once (after the process runs: on PGlite one process holds the directory). */
  const here = async (args: string[], env: Record<string, string> = {}) => {
    if (!database) {
      database = await openDatabase('DATA_DIR' in target ? { dataDir: target.DATA_DIR } : { databaseUrl: target.DATABASE_URL, poolSize: 3 });
      inProcess = inProcessLarder(database, target);
    }
    return inProcess!(args, env);
  };
  /** As a process where this suite checks what a process shows (on PGlite), else in this process. */
  const asProcess = kind === 'pglite';
  const either = (args: string[], env: Record<string, string> = {}) => (asProcess ? larder(target, args, env) : here(args, env));

  beforeAll(async () => {
    if (kind === 'pglite') {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'larder-cli-'));
      await templateDataDir(dataDir);
      target = { DATA_DIR: dataDir };
      cleanup = async () => rmSync(dataDir, { recursive: true, force: true });
    } else {
      const database = await emptyPostgresDatabase();
      target = { DATABASE_URL: database.url };
      cleanup = database.drop;
    }
  }, slow);
  afterAll(async () => {
    await database?.close();
    await cleanup?.();
  });

  it(
    'migrate applies what is missing and says which',
    async () => {
      const first = await larder(target, ['--json', 'migrate']);
      expect(first.code, first.stderr).toBe(0);
      // The data directory comes migrated from the suite's template; the PostgreSQL database is empty.
      expect(first.json).toEqual({ applied: kind === 'pglite' ? [] : tags, latest: tags.at(-1) });
      // (Run again, it applies nothing: the PGlite run above is that case.)
    },
    slow,
  );

  it(
    'admin create makes a verified super-admin; refuses a taken e-mail (1) and a bad one (2); usage errors are 2',
    async () => {
      // On PGlite the first runs are processes: the text a successful command prints, and the
      // `--json` document of a refusal (exit 1).
      const generated = await either(['admin', 'create', '--email', 'bob@example.com', '--username', 'bob']);
      expect(generated.code, generated.stderr).toBe(0);
      expect(generated.stdout).toMatch(/Created the platform super-admin bob <bob@example.com>\.\nPassword \(shown this once; stored only as a hash\): [\w-]{24}\n$/);
      const taken = await either(['--json', 'admin', 'create', '--email', 'BOB@example.com', '--username', 'another']);
      expect(taken).toMatchObject({ code: 1, json: { error: { code: 'email_taken' } } });
      // Arguments are parsed before any database is opened: once is enough.
      if (asProcess) {
        const usage = await larder(target, ['--json', 'admin', 'create', '--email', 'x@example.com']);
        expect(usage).toMatchObject({ code: 2, json: { error: { code: 'usage', message: expect.stringContaining('--username') } } });
      }

      // In this process from here on (the `Error:` line of a refusal is the unreachable database's, below).
      const created = await here(['--json', 'admin', 'create', '--email', 'Root@Example.com', '--username', 'root'], { ADMIN_PASSWORD: 'root password 1' });
      expect(created.code, created.stderr).toBe(0);
      expect(created.json).toEqual({
        user: { id: expect.any(String), email: 'root@example.com', username: 'root', superAdmin: true, configuredSuperAdmin: false, verified: true, disabled: false },
      });
      expect(await here(['--json', 'admin', 'create', '--email', 'ROOT@example.com', '--username', 'another'])).toMatchObject({ code: 1, json: { error: { code: 'email_taken' } } });
      const bad = await here(['admin', 'create', '--email', 'not an address', '--username', 'another']);
      expect(bad.code).toBe(2);
      expect(bad.stderr).toBe('Error: The e-mail address is not valid.\n');
    },
    slow,
  );

  it(
    'admin revoke and grant change the flag once; a configured super-admin cannot be revoked',
    async () => {
      const revoked = await here(['--json', 'admin', 'revoke', 'bob@example.com']);
      expect(revoked.code, revoked.stderr).toBe(0);
      expect(revoked.json).toMatchObject({ changed: true, user: { username: 'bob', superAdmin: false } });
      const granted = await here(['admin', 'grant', 'BOB']);
      expect(granted.code, granted.stderr).toBe(0);
      expect(granted.stdout).toBe('bob <bob@example.com> is now a platform super-admin.\n');

      const configured = await here(['--json', 'admin', 'revoke', 'root'], { SUPER_ADMIN_USERNAMES: 'root' });
      expect(configured).toMatchObject({ code: 1, json: { error: { code: 'configured_super_admin', message: expect.stringContaining('SUPER_ADMIN_USERNAMES') } } });
      const unknown = await here(['admin', 'grant', 'nobody@example.com']);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toContain('No user has the e-mail address or username "nobody@example.com"');
    },
    slow,
  );

  it(
    'user reset-password sets the password and ends the sessions: a server on the same database signs in with it',
    async () => {
      // A session of root's, opened by a server on the command's database.
      const session = await withServer(database!, target, async (app) => {
        const grant = await passwordGrant(app, 'root', 'root password 1');
        expect(grant.statusCode, grant.body).toBe(200);
        return JSON.parse(grant.body).refresh_token as string;
      });

      const reset = await here(['--json', 'user', 'reset-password', 'root', '--password', 'a new password']);
      expect(reset.code, reset.stderr).toBe(0);
      expect(reset.json).toMatchObject({ user: { username: 'root' }, sessionsEnded: 1 });
      expect(reset.json.password).toBeUndefined();

      await withServer(database!, target, async (app, db) => {
        expect((await passwordGrant(app, 'root', 'root password 1')).statusCode).toBe(400);
        expect((await passwordGrant(app, 'root@example.com', 'a new password')).statusCode).toBe(200);
        const refreshed = await app.inject({ method: 'POST', url: `/auth/token?grant_type=refresh_token&refresh_token=${encodeURIComponent(session)}` });
        expect(refreshed.statusCode).toBe(401);

        // Every change is in the audit log, by the command line.
        const entries = await db.select().from(adminAudit).orderBy(asc(adminAudit.id));
        const [root] = await db.select().from(users).where(eq(users.username, 'root'));
        expect(entries.map((e) => [e.action, e.targetId === root!.id ? 'root' : e.targetKind === 'user' ? 'bob' : e.targetKind])).toEqual([
          ...(kind === 'postgres' ? [['installation.migrate', 'installation']] : []),
          ['user.create', 'bob'],
          ['user.create', 'root'],
          ['user.revokeSuperAdmin', 'bob'],
          ['user.grantSuperAdmin', 'bob'],
          ['user.resetPassword', 'root'],
        ]);
        expect(new Set(entries.map((e) => e.actor))).toEqual(new Set([`cli (${os.userInfo().username})`]));
        expect(entries.every((e) => e.actorId === null)).toBe(true);
        expect(entries.find((e) => e.action === 'user.revokeSuperAdmin')).toMatchObject({ before: { superAdmin: true }, after: { superAdmin: false } });
        // No password, nor its hash, is ever in the log.
        expect(JSON.stringify(entries)).not.toMatch(/password 1|new password|argon2/);
      });
    },
    slow,
  );
});

it(
  'says plainly that the database cannot be reached (exit 3), without a stack trace or the password',
  async () => {
    const refused = await larder({ DATABASE_URL: 'postgres://larder:secret@127.0.0.1:1/larder' }, ['admin', 'grant', 'root']);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toBe('Error: Cannot reach the database postgres://larder:***@127.0.0.1:1/larder: the connection was refused (is PostgreSQL running there?).\n');
  },
  slow,
);

/** A server on the command's database for the time of `use`, closed after (the database stays open). */
async function withServer<T>(database: Database, target: CliTarget, use: (app: Awaited<ReturnType<typeof buildApp>>, db: Database['db']) => Promise<T>): Promise<T> {
  const app = await buildApp({ config: loadConfig({ ...testEnv, ...target }), database, logger: false });
  try {
    await app.ready();
    return await use(app, database.db);
  } finally {
    await app.close();
  }
}
