/**
 * The outbox transport and the Dev mailbox API: mails are kept in the database; `/api/dev/mailbox`
 * answers loopback clients only (the socket's address, never a forwarded header), only while the
 * outbox is the transport, and not at all with DEV_MAILBOX=0.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { outbox } from '../../server/db/schema.ts';
import { mailsTo, newAccount, signUp, type Mail } from './support/flows.ts';
import { expectProblem } from './support/assertions.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';

describe.each(databaseKinds)('Dev mailbox on %s', (kind) => {
  let t: TestApp;
  let account: ReturnType<typeof newAccount>;

  const mailbox = (remoteAddress: string, url = '/api/dev/mailbox', method: 'GET' | 'DELETE' = 'GET', headers: Record<string, string> = {}) =>
    t.app.inject({ method, url, remoteAddress, headers });

  beforeAll(async () => {
    t = await createTestApp(kind);
    account = newAccount('Mailbox');
    await signUp(t.app, account);
  });
  afterAll(() => t?.close());

  it('keeps mail in the outbox table', async () => {
    const rows = await t.database.db.select().from(outbox).where(eq(outbox.to, account.email.toLowerCase()));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ kind: 'confirm', status: 'kept', from: 'Larder <no-reply@larder.local>' });
    expect(rows[0]!.link).toMatch(/^http:\/\/larder\.test\/confirm\//);
    expect(json(await t.app.inject({ method: 'GET', url: '/api/config' }))).toMatchObject({ devMailbox: true });
  });

  it('serves loopback clients, IPv4 and IPv6', async () => {
    for (const address of ['127.0.0.1', '127.8.9.10', '::1', '::ffff:127.0.0.1']) {
      const response = await mailbox(address, `/api/dev/mailbox?to=${encodeURIComponent(account.email.toUpperCase())}`);
      expect(response.statusCode, address).toBe(200);
      const { mails } = json<{ mails: Mail[] }>(response);
      expect(mails).toHaveLength(1);
      expect(mails[0]).toMatchObject({ to: account.email.toLowerCase(), kind: 'confirm', subject: expect.any(String), text: expect.stringContaining(mails[0]!.link!) });
    }
  });

  it('answers 404 to every other client, whatever forwarded headers claim', async () => {
    const [mail] = await mailsTo(t.app, account.email);
    const spoof = { 'x-forwarded-for': '127.0.0.1', 'x-real-ip': '127.0.0.1', forwarded: 'for=127.0.0.1', host: 'localhost' };
    for (const address of ['10.1.2.3', '192.168.1.20', '172.17.0.1', '8.8.8.8', '::ffff:10.1.2.3', '2001:db8::1', 'fe80::1', '0.0.0.0']) {
      for (const [url, method] of [
        ['/api/dev/mailbox', 'GET'],
        [`/api/dev/mailbox?to=${encodeURIComponent(account.email)}`, 'GET'],
        [`/api/dev/mailbox/${mail!.id}`, 'GET'],
        ['/api/dev/mailbox', 'DELETE'],
      ] as const) {
        const response = await mailbox(address, url, method, spoof);
        expectProblem(response, 404, 'not_found');
        expect(response.body).not.toContain(account.email);
      }
    }
    // Nothing was deleted by the refused DELETEs.
    expect(await mailsTo(t.app, account.email)).toHaveLength(1);
  });

  it('tells only the clients it serves that there is a Dev mailbox (the console links to it only then)', async () => {
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      expect(json(await t.app.inject({ method: 'GET', url: '/api/config', remoteAddress: address })), address).toMatchObject({ devMailbox: true });
    }
    const spoof = { 'x-forwarded-for': '127.0.0.1', forwarded: 'for=127.0.0.1', host: 'localhost' };
    for (const address of ['10.1.2.3', '203.0.113.9', '2001:db8::1']) {
      const config = json(await t.app.inject({ method: 'GET', url: '/api/config', remoteAddress: address, headers: spoof }));
      expect(config, address).toMatchObject({ devMailbox: false });
    }
  });

  it('reads one mail, and empties the outbox for loopback clients', async () => {
    const [mail] = await mailsTo(t.app, account.email);
    const one = await mailbox('127.0.0.1', `/api/dev/mailbox/${mail!.id}`);
    expect(one.statusCode).toBe(200);
    expect(json(one)).toMatchObject({ id: mail!.id, to: mail!.to, link: mail!.link });
    expectProblem(await mailbox('127.0.0.1', '/api/dev/mailbox/does-not-exist'), 404, 'mail_not_found');
    expect((await mailbox('::1', '/api/dev/mailbox', 'DELETE')).statusCode).toBe(204);
    expect(json(await mailbox('127.0.0.1')).mails).toEqual([]);
  });
});

describe.each(databaseKinds)('Dev mailbox switched off on %s', (kind) => {
  let off: TestApp;
  let smtp: TestApp;

  beforeAll(async () => {
    [off, smtp] = await Promise.all([
      createTestApp(kind, { DEV_MAILBOX: '0' }),
      // Port 9 (discard) on loopback: nothing listens, nothing is sent in this test.
      createTestApp(kind, { SMTP_URL: 'smtp://127.0.0.1:9' }),
    ]);
  });
  afterAll(async () => {
    await off?.close();
    await smtp?.close();
  });

  it('is not served at all with DEV_MAILBOX=0, though mail is still kept', async () => {
    const account = newAccount('off');
    expect((await signUp(off.app, account)).statusCode).toBe(201);
    for (const url of ['/api/dev/mailbox', `/api/dev/mailbox?to=${account.email}`]) {
      expectProblem(await off.app.inject({ method: 'GET', url, remoteAddress: '127.0.0.1' }), 404, 'not_found');
    }
    expectProblem(await off.app.inject({ method: 'DELETE', url: '/api/dev/mailbox', remoteAddress: '127.0.0.1' }), 404, 'not_found');
    expect(json(await off.app.inject({ method: 'GET', url: '/api/config' }))).toMatchObject({ devMailbox: false });
    expect(await off.database.db.select().from(outbox).where(eq(outbox.to, account.email))).toHaveLength(1);
  });

  it('is not served while SMTP is the transport', async () => {
    expectProblem(await smtp.app.inject({ method: 'GET', url: '/api/dev/mailbox', remoteAddress: '127.0.0.1' }), 404, 'not_found');
    expect(json(await smtp.app.inject({ method: 'GET', url: '/api/config' }))).toMatchObject({ devMailbox: false });
  });
});
