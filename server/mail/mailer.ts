/**
 * Outgoing mail through nodemailer. Every mail is first written to the outbox table, so a request
 * costs the same whether or not it sends mail, and nothing is lost when SMTP is down.
 * - Without SMTP_URL (the default) the outbox is the transport: mails are kept for the Dev mailbox
 *   and their link is logged.
 * - With SMTP_URL a delivery worker hands pending mails to the server, retrying with back-off.
 *   Claims are leases (`next_attempt_at` pushed ahead), so several processes never send one twice
 *   at once and no transaction stays open during an SMTP conversation.
 */
import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { outbox } from '../db/schema.ts';
import { newId } from '../lib/ids.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** The one link the mail is about, kept for the Dev mailbox and the log. */
  link?: string;
  /** What the mail is for (confirm, reset, …), for the Dev mailbox. */
  kind: string;
  /** Files the mail carries (an invoice PDF), kept in the outbox with it. */
  attachments?: { filename: string; contentType: string; content: Buffer }[];
}

const storedAttachments = (message: MailMessage) =>
  message.attachments?.length ? message.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content.toString('base64') })) : null;

export interface Mailer {
  readonly transport: 'outbox' | 'smtp';
  send(message: MailMessage): Promise<void>;
  /** Delivers what is due now (SMTP only); the worker calls it on a timer. Returns how many were tried. */
  deliverDue(): Promise<number>;
  close(): Promise<void>;
}

export interface MailerOptions {
  db: Db;
  smtpUrl: string | undefined;
  from: string;
  log: FastifyBaseLogger;
  /** How often the SMTP worker looks for due mail; 0 turns the timer off (tests call deliverDue). */
  pollMs?: number;
  maxAttempts?: number;
}

const LEASE_S = 120;
type OutboxRow = typeof outbox.$inferSelect;

export function createMailer(options: MailerOptions): Mailer {
  const { db, log, from } = options;
  const maxAttempts = options.maxAttempts ?? 8;

  if (!options.smtpUrl) {
    return {
      transport: 'outbox',
      async send(message) {
        await db.insert(outbox).values({ id: newId(), from, status: 'kept', ...message, link: message.link ?? null, attachments: storedAttachments(message) });
        log.info({ mail: message.kind, to: message.to, link: message.link }, `outbox: ${message.subject}${message.link ? ` → ${message.link}` : ''}`);
      },
      deliverDue: async () => 0,
      close: async () => {},
    };
  }

  const transporter = nodemailer.createTransport(options.smtpUrl);
  let running: Promise<number> | undefined;
  let closed = false;

  async function deliver(row: OutboxRow) {
    try {
      const attachments = row.attachments?.map((a) => ({ filename: a.filename, contentType: a.contentType, content: Buffer.from(a.content, 'base64') }));
      await transporter.sendMail({ from: row.from, to: row.to, subject: row.subject, text: row.text, ...(attachments ? { attachments } : {}) });
      await db.update(outbox).set({ status: 'sent', sentAt: new Date(), lastError: null }).where(eq(outbox.id, row.id));
    } catch (error) {
      const message = (error as Error).message.slice(0, 500);
      const gaveUp = row.attempts >= maxAttempts;
      const delayS = Math.min(3600, 5 * 2 ** (row.attempts - 1));
      await db
        .update(outbox)
        .set(
          gaveUp
            ? { status: 'failed', lastError: message }
            : { lastError: message, nextAttemptAt: new Date(Date.now() + delayS * 1000) },
        )
        .where(eq(outbox.id, row.id));
      log.warn({ mail: row.id, attempt: row.attempts, gaveUp }, `SMTP delivery failed: ${message}`);
    }
  }

  async function claimAndDeliver(): Promise<number> {
    const claimed = await db.execute<{ id: string }>(sql`
      update ${outbox} set attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => ${LEASE_S})
      where id in (
        select id from ${outbox}
        where status = 'pending' and next_attempt_at <= now()
        order by next_attempt_at limit 20 for update skip locked)
      returning id`);
    // Both drivers answer { rows }.
    const ids = (claimed as unknown as { rows: { id: string }[] }).rows.map((r) => r.id);
    for (const id of ids) {
      const [row] = await db.select().from(outbox).where(eq(outbox.id, id));
      if (row) await deliver(row);
    }
    return ids.length;
  }

  const deliverDue = () => {
    running ??= claimAndDeliver().finally(() => {
      running = undefined;
    });
    return running;
  };

  const pollMs = options.pollMs ?? 2000;
  const timer = pollMs > 0 ? setInterval(() => void deliverDue().catch((e) => log.error({ err: e }, 'mail worker')), pollMs) : undefined;
  timer?.unref();

  return {
    transport: 'smtp',
    async send(message) {
      await db.insert(outbox).values({
        id: newId(),
        from,
        status: 'pending',
        nextAttemptAt: new Date(),
        ...message,
        link: message.link ?? null,
        attachments: storedAttachments(message),
      });
      // Try at once, after the answer has gone: the caller's timing must not depend on SMTP.
      if (!closed && timer) setImmediate(() => void deliverDue().catch((e) => log.error({ err: e }, 'mail worker')));
    },
    deliverDue,
    async close() {
      closed = true;
      if (timer) clearInterval(timer);
      await running?.catch(() => 0);
      transporter.close();
    },
  };
}
