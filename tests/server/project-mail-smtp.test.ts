/**
 * A project's own SMTP server (docs/mail.md "Sender settings"), with the installation in outbox
 * mode: its mails go through a loopback smtp-server that signs in with the stored password; while
 * the server answers 5xx or 4xx, or refuses the connection, the mail stays queued with the error
 * in the log; a resend delivers it once the server accepts. The password never appears in an
 * answer or in a line of the app's log.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { outbox } from '../../server/db/schema.ts';
import { freePort } from '../../e2e/support/server.ts';
import { databaseKinds, json, openTestDatabase, testEnv, type TestApp } from './support/test-app.ts';
import { waitFor } from './support/assertions.ts';
import { contentFixture, type ContentFixture } from './support/content.ts';
import { mintToken, newEmail, signUpEndUser } from './support/end-users.ts';

const PASSWORD = 'Sm7p-p@ss:w0rd/секрет';

type Mode = 'accept' | 'reject5xx' | 'reject4xx';

function startSmtp(port: number) {
  const state = { mode: 'reject5xx' as Mode, received: [] as { to: string[]; body: string }[], logins: [] as string[] };
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      state.logins.push(`${auth.username}:${auth.password}`);
      if (auth.username === 'mailer' && auth.password === PASSWORD) return callback(null, { user: auth.username });
      return callback(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, callback) {
      if (state.mode === 'reject5xx') return callback(Object.assign(new Error(`Mailbox ${address.address} unavailable`), { responseCode: 550 }));
      if (state.mode === 'reject4xx') return callback(Object.assign(new Error('Try again later'), { responseCode: 451 }));
      return callback();
    },
    onData(stream, session, callback) {
      let body = '';
      stream.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      stream.on('end', () => {
        state.received.push({ to: session.envelope.rcptTo.map((r) => r.address), body });
        callback();
      });
    },
  });
  return new Promise<{ state: typeof state; close: () => Promise<void> }>((resolve) => {
    server.listen(port, '127.0.0.1', () => resolve({ state, close: () => new Promise((r) => server.close(() => r())) }));
  });
}

describe.each(databaseKinds)('a project’s own SMTP server on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let apiToken: string;
  let port: number;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  const logs: string[] = [];
  const answers: string[] = [];

  beforeAll(async () => {
    port = await freePort();
    smtp = await startSmtp(port);
    // No SMTP_URL: the installation keeps its own mail in the outbox.
    const config = loadConfig({ ...testEnv, OUTBOUND_ALLOW_PRIVATE: '127.0.0.0/8' });
    const database = await openTestDatabase(kind);
    const app = await buildApp({ config, database, logger: { level: 'trace', stream: { write: (line: string) => void logs.push(line) } } as never });
    await app.ready();
    t = { app, config, database, close: async () => (await app.close(), await database.close()) };
    f = await contentFixture(t);
    apiToken = await mintToken(t, f);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const call = async (...args: Parameters<ContentFixture['call']>) => {
    const response = await f.call(...args);
    answers.push(response.body);
    return response;
  };
  const rowsTo = (email: string) => t.database.db.select().from(outbox).where(eq(outbox.to, email));

  it('stores the server with its password encrypted and answers it without', async () => {
    const saved = await call('PUT', 'mail/settings', {
      senderName: 'Recipes',
      senderAddress: 'hello@recipes.example',
      replyTo: 'help@recipes.example',
      smtpUrl: `smtp://mailer:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}`,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(json(saved)).toMatchObject({ smtpUrl: `smtp://mailer@127.0.0.1:${port}`, smtpPasswordSet: true, transport: 'project' });
  });

  it('does not queue again a mail a worker holds: a resend then answers it unchanged', async () => {
    const email = newEmail('held');
    await signUpEndUser(t, apiToken, email);
    const first = await waitFor(async () => (await rowsTo(email)).find((r) => r.attempts >= 1), 10_000);
    // As a worker's claim leaves it while the SMTP conversation runs.
    const lease = new Date(Date.now() + 60_000);
    await t.database.db.update(outbox).set({ status: 'pending', claimedUntil: lease, nextAttemptAt: lease }).where(eq(outbox.id, first.id));
    const resent = await call('POST', `mail/log/${first.id}/resend`);
    expect(resent.statusCode, resent.body).toBe(202);
    const [row] = await rowsTo(email);
    expect(row!.nextAttemptAt!.getTime()).toBe(lease.getTime());
    expect(row!.attempts).toBe(first.attempts);
    // Once the claim has ended, a resend queues it at once.
    await t.database.db.update(outbox).set({ claimedUntil: new Date(Date.now() - 1000) }).where(eq(outbox.id, first.id));
    expect(json(await call('POST', `mail/log/${first.id}/resend`))).toMatchObject({ id: first.id, state: 'queued', attempts: 0 });
  });

  it('keeps a mail queued with the error while the server answers 5xx, 4xx or refuses, and a resend delivers it once it accepts', async () => {
    const email = newEmail('ownsmtp');
    await signUpEndUser(t, apiToken, email);
    // The first attempt is made at once, after the answer.
    const failed = await waitFor(async () => (await rowsTo(email)).find((r) => r.lastError), 10_000);
    expect(failed).toMatchObject({ status: 'pending', via: 'project', attempts: 1, projectId: f.project, template: 'verification' });
    expect(failed.lastError).toMatch(/550|unavailable/);
    const logged = await call('GET', `mail/log?state=queued&search=${encodeURIComponent(email)}`);
    expect(json(logged).mails).toMatchObject([{ id: failed.id, state: 'queued', via: 'project', attempts: 1, error: failed.lastError }]);
    expect(smtp.state.logins.at(-1)).toBe(`mailer:${PASSWORD}`);

    // A temporary refusal, then a server that is not there: still queued, each error kept.
    smtp.state.mode = 'reject4xx';
    expect((await call('POST', `mail/log/${failed.id}/resend`)).statusCode).toBe(202);
    await waitFor(async () => (await rowsTo(email))[0]!.lastError?.match(/451|later/), 10_000);
    expect((await rowsTo(email))[0]).toMatchObject({ status: 'pending', attempts: 1 });

    const closedPort = await freePort();
    expect((await call('PUT', 'mail/settings', { smtpUrl: `smtp://mailer@127.0.0.1:${closedPort}` })).statusCode).toBe(200);
    // The same user and host keep the stored password (host includes the port: a new one loses it).
    expect(json(await call('GET', 'mail/settings')).smtpPasswordSet).toBe(false);
    expect((await call('POST', `mail/log/${failed.id}/resend`)).statusCode).toBe(202);
    await waitFor(async () => (await rowsTo(email))[0]!.lastError?.match(/ECONNREFUSED|connect/i), 10_000);
    expect((await rowsTo(email))[0]!.status).toBe('pending');

    // The server accepts now: the resend is delivered, once.
    expect((await call('PUT', 'mail/settings', { smtpUrl: `smtp://mailer:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}` })).statusCode).toBe(200);
    smtp.state.mode = 'accept';
    const resent = await call('POST', `mail/log/${failed.id}/resend`);
    expect(resent.statusCode, resent.body).toBe(202);
    expect(json(resent)).toMatchObject({ id: failed.id, state: 'queued', attempts: 0, error: null });
    await waitFor(async () => (await rowsTo(email))[0]!.status === 'sent', 10_000);
    expect(await t.app.ctx.projectMail!.deliverDue()).toBe(0);
    const delivered = smtp.state.received.filter((m) => m.to.includes(email));
    expect(delivered).toHaveLength(1);
    expect(delivered[0]!.body).toMatch(/^From: Recipes <hello@recipes\.example>/m);
    expect(delivered[0]!.body).toMatch(/^Reply-To: help@recipes\.example/m);
    expect(delivered[0]!.body).toContain('text/html');
    // Quoted-printable lines are joined again before looking for the link.
    expect(delivered[0]!.body.replace(/=\r?\n/g, '')).toContain('/bagel-auth-verify-email/');
    const detail = json(await call('GET', `mail/log/${failed.id}`));
    expect(detail).toMatchObject({ state: 'sent', via: 'project', error: null, from: '"Recipes" <hello@recipes.example>', replyTo: 'help@recipes.example' });
  });

  it('sends test mails through the project’s server even while the installation keeps its mail in the outbox', async () => {
    const sent = await call('POST', 'mail/templates/reset/test');
    expect(sent.statusCode, sent.body).toBe(202);
    const to = json(sent).to as string;
    await waitFor(() => smtp.state.received.find((m) => m.to.includes(to)), 10_000);
  });

  it('sends the queued mails of a project that removed its server the installation’s way (here: the outbox)', async () => {
    smtp.state.mode = 'reject5xx';
    const [first, second] = [newEmail('dropped'), newEmail('dropped')];
    await signUpEndUser(t, apiToken, first);
    await signUpEndUser(t, apiToken, second);
    const queued = await waitFor(async () => {
      const rows = [(await rowsTo(first))[0], (await rowsTo(second))[0]];
      return rows.every((r) => r?.lastError) ? rows.map((r) => r!) : undefined;
    }, 10_000);
    expect((await call('PUT', 'mail/settings', { smtpUrl: null })).statusCode).toBe(200);
    // The worker hands a due mail over; a resend goes the project's current route at once.
    await t.database.db.update(outbox).set({ nextAttemptAt: new Date() }).where(eq(outbox.id, queued[0]!.id));
    await t.app.ctx.projectMail!.deliverDue();
    expect((await rowsTo(first))[0]).toMatchObject({ via: null, status: 'kept' });
    const resent = await call('POST', `mail/log/${queued[1]!.id}/resend`);
    expect(json(resent)).toMatchObject({ state: 'sent', via: 'installation', error: null });
    expect(smtp.state.received.filter((m) => m.to.includes(first) || m.to.includes(second))).toEqual([]);
  });

  it('never writes the password into an answer or a log line', async () => {
    await t.app.ctx.background.settled();
    const forms = [PASSWORD, encodeURIComponent(PASSWORD), 'Sm7p-p@ss'];
    expect(logs.length).toBeGreaterThan(10);
    expect(logs.join('\n')).toMatch(/SMTP delivery failed/);
    for (const form of forms) {
      expect(logs.filter((line) => line.includes(form))).toEqual([]);
      expect(answers.filter((body) => body.includes(form))).toEqual([]);
      const rows = await t.database.db.select().from(outbox);
      expect(rows.filter((r) => JSON.stringify(r).includes(form))).toEqual([]);
    }
  });
});

describe.each(databaseKinds)('a project’s SMTP password after SECRETS_KEY changes on %s', (kind) => {
  const keyA = Buffer.alloc(32, 1).toString('base64');
  const keyB = Buffer.alloc(32, 2).toString('base64');
  let t: TestApp;
  let port: number;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  const started = async (database: TestApp['database'], key: string) => {
    const config = loadConfig({ ...testEnv, OUTBOUND_ALLOW_PRIVATE: '127.0.0.0/8', SECRETS_KEY: key });
    const app = await buildApp({ config, database });
    await app.ready();
    return { app, config, database, close: async () => (await app.close(), await database.close()) };
  };

  beforeAll(async () => {
    port = await freePort();
    smtp = await startSmtp(port);
    smtp.state.mode = 'accept';
    t = await started(await openTestDatabase(kind), keyA);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('makes the stored password unreadable: mails fail with the reason, nothing leaks, and entering it again delivers them', async () => {
    const f = await contentFixture(t);
    const apiToken = await mintToken(t, f);
    const url = `smtp://mailer:${encodeURIComponent(PASSWORD)}@127.0.0.1:${port}`;
    expect((await f.call('PUT', 'mail/settings', { senderAddress: 'hello@recipes.example', smtpUrl: url })).statusCode).toBe(200);
    const before = newEmail('before');
    await signUpEndUser(t, apiToken, before);
    await waitFor(() => smtp.state.received.find((m) => m.to.includes(before)), 10_000);

    // The same database under another key: f.call and the tokens reach the new app.
    await t.app.close();
    Object.assign(t, await started(t.database, keyB));
    const settings = json(await f.call('GET', 'mail/settings'));
    expect(settings).toMatchObject({ smtpUrl: `smtp://mailer@127.0.0.1:${port}`, smtpPasswordSet: true });
    const after = newEmail('after');
    await signUpEndUser(t, apiToken, after);
    const failed = await waitFor(async () => {
      const [row] = await t.database.db.select().from(outbox).where(eq(outbox.to, after));
      return row?.lastError ? row : undefined;
    }, 10_000);
    expect(failed.lastError).toMatch(/stored SMTP password cannot be read \(SECRETS_KEY changed\?\)/);
    expect(failed.status).not.toBe('sent');
    expect(smtp.state.received.find((m) => m.to.includes(after))).toBeUndefined();
    expect(smtp.state.logins.filter((login) => !login.endsWith(`:${PASSWORD}`))).toEqual([]);

    // Entered again under the new key, the queued mail goes out on resend.
    expect((await f.call('PUT', 'mail/settings', { smtpUrl: url })).statusCode).toBe(200);
    const resent = await f.call('POST', `mail/log/${failed.id}/resend`);
    expect(resent.statusCode, resent.body).toBe(202);
    await waitFor(() => smtp.state.received.find((m) => m.to.includes(after)), 10_000);
    await waitFor(async () => (await t.database.db.select().from(outbox).where(eq(outbox.to, after)))[0]!.status === 'sent', 10_000);
  });
});
