/**
 * Projects' own SMTP servers are delivered to side by side (docs/mail.md "Sender settings"): a
 * project whose server accepts the connection and never answers holds only its own mail, not
 * another project's; and a mail whose claim another worker took over (the lease ran out) is not
 * sent by the first worker too.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { outbox } from '../../server/db/schema.ts';
import { claimDue, claimedRow } from '../../server/mail/mailer.ts';
import { newId } from '../../server/lib/ids.ts';
import { freePort } from '../../e2e/support/server.ts';
import { databaseKinds, json, openTestDatabase, testEnv, type TestApp } from './support/test-app.ts';
import { waitFor } from './support/assertions.ts';
import { contentFixture, type ContentFixture } from './support/content.ts';

describe.each(databaseKinds)('project mail lanes on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let silent: Server;
  const held: Socket[] = [];
  let smtp: SMTPServer;
  const received: string[][] = [];
  let silentPort: number;
  let smtpPort: number;

  beforeAll(async () => {
    silentPort = await freePort();
    smtpPort = await freePort();
    // Accepts connections and never says a word (nodemailer waits for its greeting).
    silent = createServer((socket) => void held.push(socket));
    await new Promise<void>((resolve) => silent.listen(silentPort, '127.0.0.1', resolve));
    smtp = new SMTPServer({
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, session, callback) {
        stream.on('data', () => {});
        stream.on('end', () => {
          received.push(session.envelope.rcptTo.map((r) => r.address));
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(smtpPort, '127.0.0.1', resolve));
    const config = loadConfig({ ...testEnv, OUTBOUND_ALLOW_PRIVATE: '127.0.0.0/8' });
    const database = await openTestDatabase(kind);
    const app = await buildApp({ config, database });
    await app.ready();
    t = { app, config, database, close: async () => (await app.close(), await database.close()) };
    f = await contentFixture(t);
  });
  afterAll(async () => {
    // The silent server's connections end, so the worker's waits end with them.
    for (const socket of held) socket.destroy();
    await t?.close();
    await new Promise<void>((resolve) => silent?.close(() => resolve()));
    await new Promise<void>((resolve) => smtp?.close(() => resolve()));
  });

  it('delivers a project’s mail while another project’s server stays silent', async () => {
    const quiet = f;
    const busy = await f.otherProject();
    expect((await quiet.call('PUT', 'mail/settings', { smtpUrl: `smtp://127.0.0.1:${silentPort}` })).statusCode).toBe(200);
    expect((await busy.call('PUT', 'mail/settings', { smtpUrl: `smtp://127.0.0.1:${smtpPort}` })).statusCode).toBe(200);

    expect((await quiet.call('POST', 'mail/templates/verification/test')).statusCode).toBe(202);
    await waitFor(() => held.length > 0, 5000);
    const sent = await busy.call('POST', 'mail/templates/verification/test');
    expect(sent.statusCode, sent.body).toBe(202);
    const to = json(sent).to as string;
    // Well before the silent server's greeting timeout (15 s).
    await waitFor(async () => {
      const [row] = await t.database.db.select().from(outbox).where(eq(outbox.projectId, busy.project));
      return row?.status === 'sent';
    }, 5000);
    expect(received).toEqual([[to]]);
    const [waiting] = await t.database.db.select().from(outbox).where(eq(outbox.projectId, quiet.project));
    expect(waiting).toMatchObject({ status: 'pending', attempts: 1 });
  });

  it('does not send a mail whose claim another worker has taken over', async () => {
    const id = newId();
    await t.database.db
      .insert(outbox)
      .values({ id, to: 'claimed@example.test', from: 'x@example.test', subject: 'x', text: 'x', kind: 'test', status: 'pending', nextAttemptAt: new Date() });
    const [first] = (await claimDue(t.database.db, 'installation')).filter((c) => c.id === id);
    expect(await claimedRow(t.database.db, first!)).toMatchObject({ id });
    // The lease runs out and another worker claims it.
    await t.database.db.update(outbox).set({ nextAttemptAt: new Date(Date.now() - 1000) }).where(eq(outbox.id, id));
    const [second] = (await claimDue(t.database.db, 'installation')).filter((c) => c.id === id);
    expect(second!.attempts).toBe(first!.attempts + 1);
    expect(await claimedRow(t.database.db, first!)).toBeUndefined();
    expect(await claimedRow(t.database.db, second!)).toMatchObject({ id });
    // Once sent (or queued again by a resend), neither claim holds it.
    await t.database.db.update(outbox).set({ status: 'sent' }).where(eq(outbox.id, id));
    expect(await claimedRow(t.database.db, second!)).toBeUndefined();
  });
});
