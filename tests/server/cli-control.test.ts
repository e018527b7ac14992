/**
 * The control channel (docs/cli.md "While a server runs"): a server holding a PGlite data
 * directory publishes `larder.control.json` (owner-only) and runs the command line's operations
 * for it; the command forwards to it on its own, refuses the exclusive ones, and the route answers
 * 404 to anyone without the token, from another address, through a proxy or from a browser. The
 * command refuses a control file it cannot trust (others may read or write it, it names another
 * address or another process). On PostgreSQL there is no channel: every command opens the
 * database itself.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../server/app.ts';
import { CONTROL_PATH, controlFilePath, readControlFile, type ControlEvent, type ControlFile } from '../../server/cli/control.ts';
import { publishControlFile } from '../../server/cli/control-routes.ts';
import { loadConfig } from '../../server/config.ts';
import { openDatabase, type Database } from '../../server/db/index.ts';
import { adminAudit, users } from '../../server/db/schema.ts';
import { larder, templateDataDir } from './support/cli.ts';
import { createTestApp, databaseKinds, testEnv } from './support/test-app.ts';

const slow = 300_000;

describe('control channel on PGlite', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'larder-control-'));
  let database: Database;
  let app: App;
  let control: ControlFile;

  beforeAll(async () => {
    await templateDataDir(dataDir);
    database = await openDatabase({ dataDir });
    app = await buildApp({ config: loadConfig({ ...testEnv, DATA_DIR: dataDir }), database, logger: false });
    await app.listen({ port: 0, host: '127.0.0.1' });
    expect(publishControlFile(app)).toBe(controlFilePath(dataDir));
    control = JSON.parse(readFileSync(controlFilePath(dataDir), 'utf8')) as ControlFile;
  }, slow);
  afterAll(async () => {
    await app?.close();
    await database?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const run = (body: unknown, headers: Record<string, string> = { authorization: `Larder-Control ${control.token}` }, remoteAddress = '127.0.0.1') =>
    app.inject({ method: 'POST', url: CONTROL_PATH, headers, payload: body as object, remoteAddress });
  const events = (body: string) =>
    body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as ControlEvent);

  it('publishes the control file for its owner only, naming this process and its loopback address', () => {
    expect(statSync(controlFilePath(dataDir)).mode & 0o777).toBe(0o600);
    expect(control).toEqual({ pid: process.pid, url: `http://127.0.0.1:${(app.server.address() as { port: number }).port}`, token: expect.stringMatching(/^[\w-]{43}$/) });
  });

  it(
    'a command forwards to the server holding the data directory; an exclusive one is refused',
    async () => {
      const created = await larder({ DATA_DIR: dataDir }, ['--json', 'admin', 'create', '--email', 'ops@example.com', '--username', 'ops', '--password', 'ops password']);
      expect(created.code, created.stderr).toBe(0);
      expect(created.json).toMatchObject({ user: { email: 'ops@example.com', superAdmin: true } });
      // Made by this process, on the database it holds, with the command's user as the actor.
      const [row] = await database.db.select().from(users).where(eq(users.email, 'ops@example.com'));
      expect(row).toMatchObject({ username: 'ops', superAdmin: true, verified: true });
      const [entry] = await database.db.select().from(adminAudit).where(eq(adminAudit.targetId, row!.id));
      expect(entry).toMatchObject({ action: 'user.create', actor: `cli (${os.userInfo().username})`, actorId: null });

      const migrate = await larder({ DATA_DIR: dataDir }, ['migrate']);
      expect(migrate.code).toBe(3);
      expect(migrate.stderr).toMatch(/^Error: The data directory .* is in use by another Larder process\. .*stop the server first/);
    },
    slow,
  );

  it('streams the refusal of an operation as its last event, and refuses unknown and exclusive operations there too', async () => {
    const unknownUser = await run({ operation: 'admin.grant', input: { user: 'nobody@example.com' }, user: 'tester' });
    expect(unknownUser.statusCode).toBe(200);
    expect(unknownUser.headers['content-type']).toMatch(/^application\/x-ndjson/);
    expect(events(unknownUser.body).at(-1)).toEqual({ type: 'error', error: { code: 'user_not_found', message: expect.stringContaining('nobody@example.com'), exitCode: 1 } });

    const granted = await run({ operation: 'admin.revoke', input: { user: 'ops' }, user: 'tester' });
    expect(events(granted.body).at(-1)).toMatchObject({ type: 'result', output: { changed: true, user: { username: 'ops', superAdmin: false } } });

    expect(events((await run({ operation: 'no.such', input: {}, user: 'tester' })).body).at(-1)).toMatchObject({ type: 'error', error: { code: 'unknown_operation', exitCode: 2 } });
    expect(events((await run({ operation: 'installation.migrate', input: {}, user: 'tester' })).body).at(-1)).toMatchObject({ type: 'error', error: { code: 'server_running', exitCode: 3 } });
  });

  it('answers 404 without the token, with a wrong one, from another address, or through a proxy — and changes nothing', async () => {
    const body = { operation: 'admin.grant', input: { user: 'ops' }, user: 'intruder' };
    const right = { authorization: `Larder-Control ${control.token}` };
    const refusals = [
      await run(body, {}),
      await run(body, { authorization: `Larder-Control ${control.token.slice(0, -1)}x` }),
      await run(body, { authorization: `Bearer ${control.token}` }),
      await run(body, right, '203.0.113.7'),
      await run(body, { ...right, 'x-forwarded-for': '203.0.113.7' }),
      await run(body, { ...right, forwarded: 'for=203.0.113.7' }),
      await run(body, { ...right, 'x-real-ip': '203.0.113.7' }),
      await run(body, { ...right, via: '1.1 proxy' }),
      // A web page's request (a browser adds Origin); the command never sends one.
      await run(body, { ...right, origin: 'https://example.com' }),
      // Refused before the body is read: a bad body learns nothing either.
      await run('not json', { authorization: 'Larder-Control nope', 'content-type': 'application/json' }),
    ];
    for (const response of refusals) {
      expect(response.statusCode).toBe(404);
      expect(JSON.parse(response.body)).toMatchObject({ code: 'not_found', status: 404 });
    }
    const [ops] = await database.db.select().from(users).where(eq(users.username, 'ops'));
    expect(ops!.superAdmin).toBe(false);
    // Not part of the API's description.
    const spec = JSON.parse((await app.inject({ method: 'GET', url: '/api/docs/json' })).body) as { paths: Record<string, unknown> };
    expect(Object.keys(spec.paths).filter((p) => p.startsWith('/api/cli'))).toEqual([]);
  });

  it(
    'a command refuses a control file other users may read or write, one naming an address off this machine or written by another process, and sends it nothing',
    async () => {
      const file = controlFilePath(dataDir);
      const original = readFileSync(file, 'utf8');
      const grant = () => larder({ DATA_DIR: dataDir }, ['--json', 'admin', 'grant', 'ops']);
      const [before] = await database.db.select().from(users).where(eq(users.username, 'ops'));
      try {
        // Readable by others: its token may have leaked, so the command will not rely on it.
        chmodSync(file, 0o644);
        expect(() => readControlFile(dataDir)).toThrow(expect.objectContaining({ code: 'control_file_unsafe', exitCode: 3 }));
        const exposed = await grant();
        expect(exposed.code, exposed.stdout).toBe(3);
        expect(exposed.json).toEqual({ error: { code: 'control_file_unsafe', message: expect.stringMatching(/mode 644/) } });
        chmodSync(file, 0o600);
        // An address off this machine would receive the token and the input (a password, say).
        writeFileSync(file, JSON.stringify({ ...control, url: 'http://203.0.113.7:3000' }), { mode: 0o600 });
        expect(() => readControlFile(dataDir)).toThrow(expect.objectContaining({ code: 'control_file_unsafe', message: expect.stringContaining('loopback') }));
        // Left by a server that is gone while another process holds the directory: whatever listens on its port now gets nothing.
        writeFileSync(file, JSON.stringify({ ...control, pid: process.pid + 1 }), { mode: 0o600 });
        expect(() => readControlFile(dataDir)).toThrow(expect.objectContaining({ code: 'data_dir_locked', exitCode: 3 }));
      } finally {
        writeFileSync(file, original, { mode: 0o600 });
        chmodSync(file, 0o600);
      }
      expect(readControlFile(dataDir)).toEqual(control);
      const [after] = await database.db.select().from(users).where(eq(users.username, 'ops'));
      expect(after!.superAdmin).toBe(before!.superAdmin);
    },
    slow,
  );

  it('publishes a new control file without following a link left at its temporary path', () => {
    const victim = path.join(dataDir, 'victim.txt');
    writeFileSync(victim, 'untouched');
    const temporary = `${controlFilePath(dataDir)}.${process.pid}.tmp`;
    symlinkSync(victim, temporary);
    expect(publishControlFile(app)).toBe(controlFilePath(dataDir));
    expect(readFileSync(victim, 'utf8')).toBe('untouched');
    expect(existsSync(temporary)).toBe(false);
    expect(statSync(controlFilePath(dataDir)).mode & 0o777).toBe(0o600);
    control = JSON.parse(readFileSync(controlFilePath(dataDir), 'utf8')) as ControlFile;
    expect(readControlFile(dataDir)).toEqual(control);
  });

  it(
    'removes the control file when the server closes; the route then answers 404',
    async () => {
      const token = control.token;
      await app.close();
      expect(existsSync(controlFilePath(dataDir))).toBe(false);
      await database.close();
      // The directory is free: the command opens it itself.
      const direct = await larder({ DATA_DIR: dataDir }, ['--json', 'admin', 'grant', 'ops']);
      expect(direct.code, direct.stderr).toBe(0);
      expect(direct.json).toMatchObject({ changed: true });
      database = await openDatabase({ dataDir });
      app = await buildApp({ config: loadConfig({ ...testEnv, DATA_DIR: dataDir }), database, logger: false });
      await app.ready();
      const response = await app.inject({ method: 'POST', url: CONTROL_PATH, headers: { authorization: `Larder-Control ${token}` }, payload: { operation: 'admin.grant', input: { user: 'ops' }, user: 'x' }, remoteAddress: '127.0.0.1' });
      expect(response.statusCode).toBe(404);
    },
    slow,
  );
});

describe('command line settings', () => {
  it(
    'an invalid setting is a usage refusal (exit 2, one JSON document), also for admin create, which reads ADMIN_PASSWORD',
    async () => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'larder-settings-'));
      try {
        for (const args of [
          ['--json', 'admin', 'create', '--email', 'ops@example.com', '--username', 'ops'],
          ['--json', 'admin', 'grant', 'ops'],
        ]) {
          const refused = await larder({ DATA_DIR: dataDir }, args, { PORT: 'not a port' });
          expect(refused.code, refused.stderr).toBe(2);
          expect(refused.json).toEqual({ error: { code: 'invalid_setting', message: expect.stringContaining('PORT') } });
          expect(refused.stderr).not.toMatch(/\bat \S+ \(/);
        }
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    },
    slow,
  );
});

describe.runIf(databaseKinds.includes('postgres'))('no control channel on PostgreSQL', () => {
  it('neither publishes a control file nor answers the route', async () => {
    const t = await createTestApp('postgres');
    try {
      expect(publishControlFile(t.app)).toBeNull();
      expect((await t.app.inject({ method: 'POST', url: CONTROL_PATH, payload: {}, remoteAddress: '127.0.0.1' })).statusCode).toBe(404);
    } finally {
      await t.close();
    }
  });
});
