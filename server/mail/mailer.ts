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
import nodemailer, { type Transporter } from 'nodemailer';
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { outbox } from '../db/schema.ts';
import { newId } from '../lib/ids.ts';
import { currentRequestId } from '../metrics/request-id.ts';

export interface MailMessage {
  /** The outbox id, when the caller must find the row again (a project's delivery log). */
  id?: string;
  to: string;
  subject: string;
  text: string;
  /** An HTML part besides the text (a project's template mails). */
  html?: string;
  /** The sender when not the installation's (a project's sender settings). */
  from?: string;
  replyTo?: string | null;
  /** The project whose app user the mail is for, and its template (the project's delivery log). */
  projectId?: string;
  template?: string;
  /** The one link the mail is about, kept for the Dev mailbox and the log. */
  link?: string;
  /** What the mail is for (confirm, reset, …), for the Dev mailbox. */
  kind: string;
  /** Files the mail carries (an invoice PDF), kept in the outbox with it. */
  attachments?: { filename: string; contentType: string; content: Buffer }[];
  /** The request that made the mail; by default the running request's (server/metrics/request-id.ts). */
  requestId?: string;
}

const storedAttachments = (message: MailMessage) =>
  message.attachments?.length ? message.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, content: a.content.toString('base64') })) : null;

/** The outbox row of a message (status and route set by the caller). */
export const outboxValues = (message: MailMessage, from: string) => ({
  id: message.id ?? newId(),
  to: message.to,
  from: message.from ?? from,
  subject: message.subject,
  text: message.text,
  html: message.html ?? null,
  link: message.link ?? null,
  kind: message.kind,
  attachments: storedAttachments(message),
  projectId: message.projectId ?? null,
  template: message.template ?? null,
  replyTo: message.replyTo ?? null,
  requestId: message.requestId ?? currentRequestId() ?? null,
});

/** Removes every form of `secret` (as typed, URL-encoded) from a text that may echo it (an SMTP error naming its URL). */
export function scrub(text: string, secret: string | undefined): string {
  if (!secret) return text;
  let out = text;
  for (const form of new Set([secret, encodeURIComponent(secret), encodeURI(secret)])) out = out.split(form).join('***');
  return out;
}

/** The password of an SMTP URL, if it has one. */
export function smtpPassword(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    const password = new URL(url).password;
    return password ? decodeURIComponent(password) : undefined;
  } catch {
    return undefined;
  }
}

export const LEASE_S = 120;
export type OutboxRow = typeof outbox.$inferSelect;

/** A mail this worker claimed, with the attempt its claim counted (another claim counts another). */
export interface Claim {
  id: string;
  attempts: number;
}

/**
 * Claims up to 20 due pending mails of one route (the installation's: `via` null; a project's own
 * SMTP servers: 'project') by pushing their next attempt a lease ahead, and answers them.
 * `skipProjects`: projects whose mail this process is delivering right now (their claims wait).
 */
export async function claimDue(db: Db, via: 'installation' | 'project', skipProjects: readonly string[] = []): Promise<Claim[]> {
  const route = via === 'project' ? sql`via = 'project'` : sql`via is null`;
  const skip = skipProjects.length ? sql` and project_id not in (${sql.join(skipProjects.map((id) => sql`${id}`), sql`, `)})` : sql``;
  const claimed = await db.execute<{ id: string; attempts: number }>(sql`
    update ${outbox} set attempts = attempts + 1, next_attempt_at = now() + make_interval(secs => ${LEASE_S}),
      claimed_until = now() + make_interval(secs => ${LEASE_S})
    where id in (
      select id from ${outbox}
      where status = 'pending' and ${route} and next_attempt_at <= now()${skip}
      order by next_attempt_at limit 20 for update skip locked)
    returning id, attempts`);
  // Both drivers answer { rows }.
  return (claimed as unknown as { rows: { id: string; attempts: number }[] }).rows.map((r) => ({ id: r.id, attempts: Number(r.attempts) }));
}

/**
 * The claimed mail as it is now, or undefined when the claim is no longer this worker's: its lease
 * ran out and another worker claimed it (another attempt), or a resend or an outcome changed it.
 * Sending it then could send it twice.
 */
export async function claimedRow(db: Db, claim: Claim): Promise<OutboxRow | undefined> {
  const [row] = await db.select().from(outbox).where(eq(outbox.id, claim.id));
  return row && row.status === 'pending' && row.attempts === claim.attempts ? row : undefined;
}

/** Hands one claimed mail to a transporter and records the outcome (sent, or the error and the next attempt, or failed). */
export async function deliverRow(
  db: Db,
  log: FastifyBaseLogger,
  transporter: Transporter,
  row: OutboxRow,
  options: { maxAttempts: number; secret?: string | undefined },
): Promise<boolean> {
  try {
    const attachments = row.attachments?.map((a) => ({ filename: a.filename, contentType: a.contentType, content: Buffer.from(a.content, 'base64') }));
    await transporter.sendMail({
      from: row.from,
      to: row.to,
      subject: row.subject,
      text: row.text,
      ...(row.html ? { html: row.html } : {}),
      ...(row.replyTo ? { replyTo: row.replyTo } : {}),
      ...(attachments ? { attachments } : {}),
    });
    await db.update(outbox).set({ status: 'sent', sentAt: new Date(), lastError: null, claimedUntil: null }).where(eq(outbox.id, row.id));
    log.info({ mail: row.id, attempt: row.attempts, ...(row.requestId ? { reqId: row.requestId } : {}) }, 'mail delivered');
    return true;
  } catch (error) {
    await recordFailure(db, log, row, scrub(String((error as Error)?.message ?? error), options.secret).slice(0, 500), options.maxAttempts);
    return false;
  }
}

/** Records a failed attempt: retried with back-off, or given up after `maxAttempts`. */
export async function recordFailure(db: Db, log: FastifyBaseLogger, row: OutboxRow, message: string, maxAttempts: number) {
  const gaveUp = row.attempts >= maxAttempts;
  const delayS = Math.min(3600, 5 * 2 ** (row.attempts - 1));
  await db
    .update(outbox)
    .set(gaveUp ? { status: 'failed', lastError: message, claimedUntil: null } : { lastError: message, nextAttemptAt: new Date(Date.now() + delayS * 1000), claimedUntil: null })
    .where(eq(outbox.id, row.id));
  log.warn({ mail: row.id, attempt: row.attempts, gaveUp, ...(row.requestId ? { reqId: row.requestId } : {}) }, `SMTP delivery failed: ${message}`);
}

export interface Mailer {
  readonly transport: 'outbox' | 'smtp';
  send(message: MailMessage): Promise<void>;
  /** Delivers what is due now (SMTP only; not the mails of projects' own servers); the worker calls it on a timer. Returns how many were tried. */
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

export function createMailer(options: MailerOptions): Mailer {
  const { db, log, from } = options;
  const maxAttempts = options.maxAttempts ?? 8;

  if (!options.smtpUrl) {
    return {
      transport: 'outbox',
      async send(message) {
        const values = outboxValues(message, from);
        await db.insert(outbox).values({ ...values, status: 'kept' });
        log.info({ mail: message.kind, to: message.to, link: message.link, ...(values.requestId ? { reqId: values.requestId } : {}) }, `outbox: ${message.subject}${message.link ? ` → ${message.link}` : ''}`);
      },
      deliverDue: async () => 0,
      close: async () => {},
    };
  }

  const transporter = nodemailer.createTransport(options.smtpUrl);
  let running: Promise<number> | undefined;
  let closed = false;

  const secret = smtpPassword(options.smtpUrl);

  async function claimAndDeliver(): Promise<number> {
    const claims = await claimDue(db, 'installation');
    for (const claim of claims) {
      const row = await claimedRow(db, claim);
      if (row) await deliverRow(db, log, transporter, row, { maxAttempts, secret });
    }
    return claims.length;
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
      await db.insert(outbox).values({ ...outboxValues(message, from), status: 'pending', nextAttemptAt: new Date() });
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
