/**
 * Delivery of the mails of projects that have their own SMTP server (outbox rows with
 * via = 'project'; docs/mail.md "Sender settings"). One transporter per project, made from its
 * settings row with the password decrypted, kept while the row's `updated_at` is unchanged (so a
 * change made by any process is seen at the next mail). Works whatever the installation's own
 * transport is, the outbox included. Claims are leases as in server/mail/mailer.ts; projects are
 * delivered side by side, one lane each, so one project's slow server holds only its own mail.
 * The password never reaches a log line or the log's error text: errors are scrubbed of it.
 */
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import { eq, inArray } from 'drizzle-orm';
import type { Db } from '../db/index.ts';
import { outbox, projectMailSettings } from '../db/schema.ts';
import type { UrlGuard } from '../lib/url-guard.ts';
import { claimDue, claimedRow, deliverRow, recordFailure, type Claim, type OutboxRow } from './mailer.ts';
import type { SecretBox } from '../lib/secrets.ts';

/** The options nodemailer gets for a stored URL (without password) and its password. */
export function transportOptions(storedUrl: string, password: string | null, address?: string) {
  const url = new URL(storedUrl);
  const secure = url.protocol === 'smtps:';
  const flag = (name: string) => (url.searchParams.has(name) ? url.searchParams.get(name) === 'true' : undefined);
  const ignoreTLS = flag('ignoreTLS');
  const requireTLS = flag('requireTLS');
  const hostname = url.hostname.replace(/^\[|\]$/g, '');
  return {
    // Connected to the checked address; TLS still checks the certificate against the name.
    host: address ?? hostname,
    ...(address && address !== hostname ? { tls: { servername: hostname } } : {}),
    ...(url.port ? { port: Number(url.port) } : {}),
    secure,
    ...(url.username ? { auth: { user: decodeURIComponent(url.username), pass: password ?? '' } } : {}),
    ...(ignoreTLS !== undefined ? { ignoreTLS } : {}),
    ...(requireTLS !== undefined ? { requireTLS } : {}),
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
    logger: false,
    debug: false,
  };
}

export interface ProjectDeliveryOptions {
  db: Db;
  box: SecretBox;
  log: FastifyBaseLogger;
  /** Checks the server's host may be reached (docs/security.md "Outbound requests"). */
  outbound: UrlGuard;
  /** Where a project's pending mail goes when it no longer has its own server. */
  fallback: 'smtp' | 'outbox';
  pollMs?: number;
  maxAttempts?: number;
}

export class ProjectDelivery {
  private readonly transports = new Map<string, { stamp: number; address: string; transporter: Transporter; secret: string | undefined }>();
  /** The claim under way (one at a time), and what it started. */
  private claiming: Promise<{ count: number; lanes: Promise<void>[] }> | undefined;
  /**
   * One lane per project whose mail this process is delivering: a project's mails go one after the
   * other, projects side by side, so one slow or silent server (each step may take its timeout)
   * delays only its own project's mail. Its project is left out of further claims meanwhile.
   */
  private readonly lanes = new Map<string, Promise<void>>();
  private closed = false;
  private readonly timer: NodeJS.Timeout | undefined;
  private readonly maxAttempts: number;

  constructor(private readonly options: ProjectDeliveryOptions) {
    this.maxAttempts = options.maxAttempts ?? 8;
    const pollMs = options.pollMs ?? 2000;
    this.timer = pollMs > 0 ? setInterval(() => this.kick(), pollMs) : undefined;
    this.timer?.unref();
  }

  /** Looks for due mail now (after a mail was written or queued again). */
  kick(): void {
    if (this.closed) return;
    setImmediate(() => void this.deliverDue().catch((e) => this.options.log.error({ err: e }, 'project mail worker')));
  }

  /** Forgets a project's transporter (its settings changed in this process). */
  drop(projectId: string): void {
    const entry = this.transports.get(projectId);
    if (entry) entry.transporter.close();
    this.transports.delete(projectId);
  }

  /** Claims what is due now (but the mail of projects already being delivered) and delivers it; answers how many were claimed. */
  async deliverDue(): Promise<number> {
    this.claiming ??= this.claimAndStart().finally(() => {
      this.claiming = undefined;
    });
    const { count, lanes } = await this.claiming;
    await Promise.all(lanes);
    return count;
  }

  private async claimAndStart(): Promise<{ count: number; lanes: Promise<void>[] }> {
    const { db, log } = this.options;
    const claims = await claimDue(db, 'project', [...this.lanes.keys()]);
    if (claims.length === 0) return { count: 0, lanes: [] };
    const rows = await db.select({ id: outbox.id, projectId: outbox.projectId }).from(outbox).where(inArray(outbox.id, claims.map((c) => c.id)));
    const byProject = new Map<string, Claim[]>();
    for (const claim of claims) {
      const projectId = rows.find((r) => r.id === claim.id)?.projectId ?? '';
      byProject.set(projectId, [...(byProject.get(projectId) ?? []), claim]);
    }
    const started: Promise<void>[] = [];
    for (const [projectId, mine] of byProject) {
      const lane = (async () => {
        for (const claim of mine) {
          const row = await claimedRow(db, claim);
          if (row) await this.deliver(row);
        }
      })()
        .catch((error) => log.error({ err: error, project: projectId }, 'project mail worker'))
        .finally(() => this.lanes.delete(projectId));
      this.lanes.set(projectId, lane);
      started.push(lane);
    }
    return { count: claims.length, lanes: started };
  }

  private async deliver(row: OutboxRow): Promise<void> {
    const { db, log } = this.options;
    const [settings] = await db.select().from(projectMailSettings).where(eq(projectMailSettings.projectId, row.projectId ?? ''));
    if (!settings?.smtpUrl) {
      // The project went back to the installation's transport: the mail goes that way.
      this.drop(row.projectId ?? '');
      await db
        .update(outbox)
        .set(this.options.fallback === 'smtp' ? { via: null, attempts: 0, nextAttemptAt: new Date(), claimedUntil: null } : { via: null, status: 'kept', claimedUntil: null })
        .where(eq(outbox.id, row.id));
      return;
    }
    // The name is resolved and checked at every delivery, and the transport connects to that
    // address: a DNS answer that changes after the check cannot point it at a private address.
    let address: string;
    try {
      address = await this.options.outbound.allowedAddress(new URL(settings.smtpUrl).hostname);
    } catch (error) {
      await recordFailure(db, log, row, `The SMTP server cannot be reached from here: ${(error as Error).message}`, this.maxAttempts);
      return;
    }
    let entry = this.transports.get(settings.projectId);
    const stamp = settings.updatedAt.getTime();
    if (!entry || entry.stamp !== stamp || entry.address !== address) {
      this.drop(settings.projectId);
      const secret = settings.smtpPasswordEncrypted ? this.options.box.open(settings.smtpPasswordEncrypted) : null;
      if (settings.smtpPasswordEncrypted && secret === null) {
        await recordFailure(db, log, row, 'The stored SMTP password cannot be read (SECRETS_KEY changed?): enter it again in the sender settings.', this.maxAttempts);
        return;
      }
      entry = { stamp, address, transporter: nodemailer.createTransport(transportOptions(settings.smtpUrl, secret, address)), secret: secret ?? undefined };
      this.transports.set(settings.projectId, entry);
    }
    await deliverRow(db, log, entry.transporter, row, { maxAttempts: this.maxAttempts, secret: entry.secret });
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    await this.claiming?.catch(() => undefined);
    await Promise.all(this.lanes.values());
    for (const projectId of [...this.transports.keys()]) this.drop(projectId);
  }
}
