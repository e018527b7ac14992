import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import { eq } from 'drizzle-orm';
import { outbox } from '../../server/db/schema.ts';
import { freePort } from '../../e2e/support/server.ts';
import { createTestApp, databaseKinds, type TestApp } from './support/test-app.ts';
import { newAccount, signUp } from './support/flows.ts';

interface Received {
  to: string[];
  body: string;
}

function startSmtp(port: number) {
  const received: Received[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let body = '';
      stream.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), body });
        callback();
      });
    },
  });
  return new Promise<{ received: Received[]; close: () => Promise<void> }>((resolve) => {
    server.listen(port, '127.0.0.1', () => resolve({ received, close: () => new Promise((r) => server.close(() => r())) }));
  });
}

async function until<T>(probe: () => Promise<T | undefined> | T | undefined, ms = 10_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe.each(databaseKinds)('SMTP delivery on %s', (kind) => {
  let t: TestApp;
  let port: number;
  let smtp: Awaited<ReturnType<typeof startSmtp>> | undefined;

  beforeAll(async () => {
    port = await freePort();
    t = await createTestApp(kind, { SMTP_URL: `smtp://127.0.0.1:${port}?ignoreTLS=true` });
  });
  afterAll(async () => {
    await t.close();
    await smtp?.close();
  });

  it('has no Dev mailbox while SMTP is the transport', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/dev/mailbox' });
    expect(response.statusCode).toBe(404);
  });

  it('keeps a mail pending while the SMTP server is down, then delivers it once it is up', async () => {
    const account = newAccount('smtp');
    expect((await signUp(t.app, account)).statusCode).toBe(201);
    const { db } = t.database;
    const failed = await until(async () => {
      const [row] = await db.select().from(outbox).where(eq(outbox.to, account.email));
      return row && row.lastError ? row : undefined;
    });
    expect(failed.status).toBe('pending');
    expect(failed.attempts).toBe(1);
    expect(failed.nextAttemptAt!.getTime()).toBeGreaterThan(Date.now());

    smtp = await startSmtp(port);
    // Time passes: the retry is due.
    await db.update(outbox).set({ nextAttemptAt: new Date() }).where(eq(outbox.id, failed.id));
    expect(await t.app.ctx.mailer.deliverDue()).toBe(1);

    const [sent] = await db.select().from(outbox).where(eq(outbox.id, failed.id));
    expect(sent!.status).toBe('sent');
    expect(sent!.sentAt).toBeInstanceOf(Date);
    const mail = smtp.received.find((m) => m.to.includes(account.email));
    expect(mail?.body).toContain('http://larder.test/confirm/');
    // Nothing left to deliver: a second pass sends no duplicate.
    expect(await t.app.ctx.mailer.deliverDue()).toBe(0);
    expect(smtp.received.filter((m) => m.to.includes(account.email))).toHaveLength(1);
  });

  it('delivers right after the request when the server is up', async () => {
    const account = newAccount('smtp');
    expect((await signUp(t.app, account)).statusCode).toBe(201);
    const mail = await until(() => smtp!.received.find((m) => m.to.includes(account.email)));
    expect(mail.body).toContain('Confirm your e-mail address');
  });
});
