/**
 * A project's mail (docs/mail.md): its templates, its sender settings, sending its app users'
 * mails with them, and its delivery log (the outbox rows of the project).
 */
import type { FastifyBaseLogger } from 'fastify';
import { and, count, desc, eq, ilike, inArray, isNotNull, isNull, lt, lte, or, sql, type SQL } from 'drizzle-orm';
import {
  defaultMailTemplates,
  mailKindOfTemplate,
  mailLimits,
  mailSampleValues,
  mailTemplateKinds,
  mailTemplateVariables,
  type MailLogState,
  type MailTemplateKind,
  type MailTemplateText,
} from '../../definitions/mail.ts';
import type { MailLogDetail, MailLogEntry, MailLogPage, MailLogQuery, MailSettings, MailSettingsInput, MailTemplate, MailTemplateInput } from '../../definitions/schemas/mail.ts';
import { otpRules } from '../auth/end-users.ts';
import type { Config } from '../config.ts';
import type { Db } from '../db/index.ts';
import { outbox, projectMailSettings, projectMailTemplates, projects } from '../db/schema.ts';
import { AppError, notFound } from '../lib/errors.ts';
import { newId } from '../lib/ids.ts';
import type { UrlGuard } from '../lib/url-guard.ts';
import { outboxValues, type Mailer, type MailMessage, type OutboxRow } from './mailer.ts';
import type { ProjectDelivery } from './project-delivery.ts';
import type { SecretBox } from '../lib/secrets.ts';
import { checkTemplate, renderTemplate } from './templates.ts';

/** Rows the retention sweep deletes a statement. */
const SWEEP_BATCH = 1000;

const EMAIL = /^[^\s@<>"(),;:\\[\]]+@[^\s@<>"(),;:\\[\]]+\.[^\s@<>"(),;:\\[\]]+$/;
const control = /[\u0000-\u001f\u007f-\u009f]/g;

type SettingsRow = typeof projectMailSettings.$inferSelect;

const addressInvalid = (field: 'senderAddress' | 'replyTo', value: string) =>
  new AppError(400, 'mail_address_invalid', `The ${field} "${value.slice(0, 100)}" is not a valid e-mail address.`, { errors: [{ path: field, message: 'is not a valid e-mail address' }] });
const smtpInvalid = (message: string) =>
  new AppError(400, 'mail_smtp_url_invalid', `The SMTP URL is not valid: ${message}`, { errors: [{ path: 'smtpUrl', message }] });

const stateWhere: Record<MailLogState, SQL> = {
  queued: eq(outbox.status, 'pending'),
  sent: inArray(outbox.status, ['sent', 'kept']),
  failed: eq(outbox.status, 'failed'),
};
const stateOf = (status: OutboxRow['status']): MailLogState => (status === 'pending' ? 'queued' : status === 'failed' ? 'failed' : 'sent');

/**
 * The delivery log never shows what would let a reader act as the app user (docs/mail.md "The
 * delivery log"): the secret of the mail's link (its last path segment, in whatever form a
 * template wrote it) and, in a one-time code's mail, every run of the code's digits. Every
 * member reads the log; only the recipient gets the mail as sent.
 */
export const hiddenLink = '[hidden]';
export const hiddenCode = '••••••';
const codeRun = new RegExp(`(?<![0-9])[0-9]{${otpRules.digits}}(?![0-9])`, 'g');
const linkSecret = (link: string | null) => {
  const secret = link?.split(/[?#]/)[0]!.split('/').pop() ?? '';
  return secret.length >= 8 ? secret : null;
};
export function hideSecrets(text: string, row: Pick<OutboxRow, 'link' | 'template'>): string {
  let out = text;
  const secret = linkSecret(row.link);
  if (secret) out = out.split(secret).join(hiddenLink);
  if (row.template === 'otp') out = out.replace(codeRun, hiddenCode);
  return out;
}
/** The subject as the log's search sees it: the same secrets taken out (digits of a code's mail, the link's secret). */
const searchableSubject = sql`(case when ${outbox.template} = 'otp' then regexp_replace(${outbox.subject}, '[0-9]', '', 'g') else replace(${outbox.subject}, regexp_replace(coalesce(${outbox.link}, ''), '^.*/', ''), '') end)`;

const toEntry = (row: OutboxRow): MailLogEntry => ({
  id: row.id,
  to: row.to,
  template: (mailTemplateKinds as readonly string[]).includes(row.template ?? '') ? (row.template as MailTemplateKind) : null,
  subject: hideSecrets(row.subject, row),
  state: stateOf(row.status),
  error: row.lastError,
  attempts: row.attempts,
  createdDate: row.createdAt.toISOString(),
  sentDate: row.sentAt?.toISOString() ?? null,
  via: row.via === 'project' ? 'project' : 'installation',
});

/** The address part of `Name <address>` (or the whole text). */
const addressOf = (from: string) => /<([^>]+)>/.exec(from)?.[1] ?? from.trim();
const quoted = (name: string) => `"${name.replace(/[\\"]/g, (c) => `\\${c}`)}"`;

/**
 * Splits a project's SMTP URL into what is stored in clear (the URL without its password) and the
 * password. `smtp:` or `smtps:` only, with a host; the query may set only ignoreTLS and requireTLS.
 */
export function parseSmtpUrl(text: string): { stored: string; password: string | undefined; user: string; host: string } {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw smtpInvalid('it is not a URL (smtp://user:password@host:port)');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw smtpInvalid('it must start with smtp:// or smtps://');
  if (!url.hostname) throw smtpInvalid('it names no host');
  if (url.pathname && url.pathname !== '/') throw smtpInvalid('it may not have a path');
  if (url.hash) throw smtpInvalid('it may not have a fragment');
  for (const [name, value] of url.searchParams) {
    if (!['ignoreTLS', 'requireTLS'].includes(name) || !['true', 'false'].includes(value)) throw smtpInvalid('its query may only set ignoreTLS or requireTLS to true or false');
  }
  let password: string | undefined;
  try {
    password = url.password ? decodeURIComponent(url.password) : undefined;
  } catch {
    throw smtpInvalid('its password is not valid percent-encoding');
  }
  // The delivery worker decodes the user name too (server/mail/project-delivery.ts): refused here, not there.
  try {
    decodeURIComponent(url.username);
  } catch {
    throw smtpInvalid('its user name is not valid percent-encoding');
  }
  url.password = '';
  const stored = `${url.protocol}//${url.username ? `${url.username}@` : ''}${url.host}${url.search}`;
  return { stored, password, user: url.username, host: url.host };
}

export interface ProjectMailOptions {
  db: Db;
  config: Config;
  mailer: Mailer;
  delivery: ProjectDelivery;
  box: SecretBox;
  outbound: UrlGuard;
  log: FastifyBaseLogger;
}

export class ProjectMailService {
  constructor(private readonly options: ProjectMailOptions) {}

  private get db() {
    return this.options.db;
  }

  /** Delivers the due mails of projects' own SMTP servers now (tests; the worker does it on a timer). */
  deliverDue(): Promise<number> {
    return this.options.delivery.deliverDue();
  }

  // --- Templates -----------------------------------------------------------------------------

  private async customTemplates(projectId: string) {
    return this.db.select().from(projectMailTemplates).where(eq(projectMailTemplates.projectId, projectId));
  }

  private view(kind: MailTemplateKind, row: typeof projectMailTemplates.$inferSelect | undefined): MailTemplate {
    const text = row ?? defaultMailTemplates[kind];
    return {
      kind,
      subject: text.subject,
      html: text.html,
      text: text.text,
      variables: [...mailTemplateVariables[kind]],
      custom: row !== undefined,
      updatedDate: row?.updatedAt.toISOString() ?? null,
    };
  }

  async templates(projectId: string): Promise<MailTemplate[]> {
    const rows = await this.customTemplates(projectId);
    return mailTemplateKinds.map((kind) => this.view(kind, rows.find((r) => r.kind === kind)));
  }

  async template(projectId: string, kind: MailTemplateKind): Promise<MailTemplate> {
    const [row] = await this.db.select().from(projectMailTemplates).where(and(eq(projectMailTemplates.projectId, projectId), eq(projectMailTemplates.kind, kind)));
    return this.view(kind, row);
  }

  /** Checks and saves a project's own text for a kind (400 `mail_template_invalid`, nothing saved, when it does not check). */
  async saveTemplate(projectId: string, kind: MailTemplateKind, input: MailTemplateInput, userId: string): Promise<MailTemplate> {
    await checkTemplate(kind, input, { ...mailSampleValues });
    const values = { subject: input.subject, html: input.html, text: input.text, updatedAt: new Date(), updatedBy: userId };
    await this.db
      .insert(projectMailTemplates)
      .values({ projectId, kind, ...values })
      .onConflictDoUpdate({ target: [projectMailTemplates.projectId, projectMailTemplates.kind], set: values });
    return this.template(projectId, kind);
  }

  /** Back to the default text. */
  async resetTemplate(projectId: string, kind: MailTemplateKind): Promise<MailTemplate> {
    await this.db.delete(projectMailTemplates).where(and(eq(projectMailTemplates.projectId, projectId), eq(projectMailTemplates.kind, kind)));
    return this.view(kind, undefined);
  }

  /** A draft rendered with the sample values (checked first: the same 400 as saving it). */
  async preview(kind: MailTemplateKind, draft: MailTemplateInput, values: Record<string, unknown> = { ...mailSampleValues }): Promise<MailTemplateText> {
    return checkTemplate(kind, draft, values);
  }

  /** Renders the draft (or the saved template) with the sample values and mails it to `to` through the project's transport. */
  async sendTest(projectId: string, kind: MailTemplateKind, draft: MailTemplateInput | null, to: string): Promise<void> {
    const values = { ...mailSampleValues, email: to, project: await this.projectName(projectId) };
    const text = draft ?? (await this.template(projectId, kind));
    const rendered = await this.preview(kind, { subject: text.subject, html: text.html, text: text.text }, values);
    await this.enqueue(projectId, { kind: mailKindOfTemplate[kind], to, ...rendered, template: kind });
  }

  // --- Sending --------------------------------------------------------------------------------

  private async projectName(projectId: string): Promise<string> {
    const [row] = await this.db.select({ name: projects.name }).from(projects).where(eq(projects.id, projectId));
    return row?.name ?? '';
  }

  private async settingsRow(projectId: string): Promise<SettingsRow | undefined> {
    const [row] = await this.db.select().from(projectMailSettings).where(eq(projectMailSettings.projectId, projectId));
    return row;
  }

  /** Whether app users who sign up with an e-mail address are mailed a link to verify it (on unless turned off). */
  async verifyOnSignup(projectId: string): Promise<boolean> {
    return (await this.settingsRow(projectId))?.verifyOnSignup ?? true;
  }

  private senderOf(row: SettingsRow | undefined): string {
    const installation = this.options.config.mailFrom;
    if (!row?.senderName && !row?.senderAddress) return installation;
    const address = row.senderAddress ?? addressOf(installation);
    return row.senderName ? `${quoted(row.senderName)} <${address}>` : address;
  }

  /** Writes a project's mail to the outbox with its sender, reply-to and route. */
  private async enqueue(projectId: string, message: Omit<MailMessage, 'projectId' | 'from' | 'replyTo'>, settings?: SettingsRow): Promise<OutboxRow> {
    const row = settings ?? (await this.settingsRow(projectId));
    const full: MailMessage = { ...message, projectId, from: this.senderOf(row), replyTo: row?.replyTo ?? null };
    if (row?.smtpUrl) {
      const [inserted] = await this.db
        .insert(outbox)
        .values({ ...outboxValues(full, this.options.config.mailFrom), status: 'pending', via: 'project', nextAttemptAt: new Date() })
        .returning();
      this.options.log.info({ mail: message.kind, project: projectId }, `project mail queued for the project's SMTP server: ${message.subject}`);
      this.options.delivery.kick();
      return inserted!;
    }
    const id = newId();
    await this.options.mailer.send({ ...full, id });
    const [written] = await this.db.select().from(outbox).where(eq(outbox.id, id));
    // A replaced mailer (tests) may not write the outbox: the message is then what it was given.
    return written ?? ({ ...outboxValues({ ...full, id }, this.options.config.mailFrom), status: 'kept', attempts: 0, nextAttemptAt: null, sentAt: null, lastError: null, createdAt: new Date(), via: null } as OutboxRow);
  }

  /**
   * Mails an app user with the project's template of `kind` (or the default), the values filled
   * in. A saved template that no longer renders (values it did not expect) falls back to the default.
   */
  async send(projectId: string, kind: MailTemplateKind, to: string, values: Record<string, string | number>, link?: string): Promise<void> {
    const saved = await this.template(projectId, kind);
    let rendered: MailTemplateText;
    try {
      rendered = await renderTemplate(saved, values);
    } catch (error) {
      this.options.log.warn({ err: error, project: projectId, template: kind }, 'project mail template failed to render; the default text was used');
      rendered = await renderTemplate(defaultMailTemplates[kind], values);
    }
    await this.enqueue(projectId, { kind: mailKindOfTemplate[kind], to, ...rendered, template: kind, ...(link ? { link } : {}) });
  }

  // --- Sender settings ------------------------------------------------------------------------

  private settingsView(row: SettingsRow | undefined): MailSettings {
    return {
      senderName: row?.senderName ?? null,
      senderAddress: row?.senderAddress ?? null,
      replyTo: row?.replyTo ?? null,
      smtpUrl: row?.smtpUrl ?? null,
      smtpPasswordSet: Boolean(row?.smtpUrl && row.smtpPasswordEncrypted),
      verifyOnSignup: row?.verifyOnSignup ?? true,
      transport: row?.smtpUrl ? 'project' : this.options.mailer.transport,
      defaultSender: this.options.config.mailFrom,
    };
  }

  async settings(projectId: string): Promise<MailSettings> {
    return this.settingsView(await this.settingsRow(projectId));
  }

  /** Changes the settings named in `input` (null clears). Refusals name the field; nothing is saved then. */
  async saveSettings(projectId: string, input: MailSettingsInput): Promise<MailSettings> {
    const current = await this.settingsRow(projectId);
    const next: Partial<SettingsRow> = {};
    if (input.senderName !== undefined) next.senderName = input.senderName === null ? null : input.senderName.replace(control, ' ').trim() || null;
    for (const field of ['senderAddress', 'replyTo'] as const) {
      const value = input[field];
      if (value === undefined) continue;
      const address = value?.trim() ?? '';
      if (address && !EMAIL.test(address)) throw addressInvalid(field, address);
      next[field] = address ? address.toLowerCase() : null;
    }
    if (input.verifyOnSignup !== undefined) next.verifyOnSignup = input.verifyOnSignup;
    if (input.smtpUrl !== undefined) {
      if (input.smtpUrl === null || input.smtpUrl.trim() === '') {
        next.smtpUrl = null;
        next.smtpPasswordEncrypted = null;
      } else {
        const parsed = parseSmtpUrl(input.smtpUrl);
        try {
          await this.options.outbound.checkResolved(`http://${parsed.host}/`);
        } catch {
          throw smtpInvalid('its host is not an address this server may connect to');
        }
        next.smtpUrl = parsed.stored;
        if (parsed.password !== undefined) next.smtpPasswordEncrypted = this.options.box.seal(parsed.password);
        else {
          // Without a password the stored one stays, for the same user and host only.
          const same = current?.smtpUrl && (() => {
            const before = parseSmtpUrl(current.smtpUrl);
            return before.user === parsed.user && before.host === parsed.host;
          })();
          if (!same) next.smtpPasswordEncrypted = null;
        }
      }
    }
    const values = { ...next, updatedAt: new Date() };
    const [row] = await this.db
      .insert(projectMailSettings)
      .values({ projectId, ...values })
      .onConflictDoUpdate({ target: projectMailSettings.projectId, set: values })
      .returning();
    this.options.delivery.drop(projectId);
    return this.settingsView(row);
  }

  // --- The delivery log -----------------------------------------------------------------------

  async log(projectId: string, query: MailLogQuery): Promise<MailLogPage> {
    const page = query.page ?? 1;
    const perPage = query.perPage ?? mailLimits.logPage;
    const conditions: SQL[] = [eq(outbox.projectId, projectId)];
    if (query.state) conditions.push(stateWhere[query.state]);
    if (query.template) conditions.push(eq(outbox.template, query.template));
    const term = query.search?.trim();
    if (term) {
      const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      conditions.push(or(ilike(outbox.to, pattern), ilike(searchableSubject, pattern))!);
    }
    const where = and(...conditions);
    const [total] = await this.db.select({ n: count() }).from(outbox).where(where);
    const rows = await this.db
      .select()
      .from(outbox)
      .where(where)
      .orderBy(desc(outbox.createdAt), desc(outbox.id))
      .limit(perPage)
      .offset((page - 1) * perPage);
    return { mails: rows.map(toEntry), total: Number(total?.n ?? 0), page, perPage, retentionDays: this.options.config.mailLogRetentionDays };
  }

  private async row(projectId: string, mailId: string): Promise<OutboxRow> {
    const [row] = await this.db.select().from(outbox).where(and(eq(outbox.id, mailId), eq(outbox.projectId, projectId)));
    if (!row) throw notFound('mail_not_found', 'No such mail in this project’s delivery log.');
    return row;
  }

  async mail(projectId: string, mailId: string): Promise<MailLogDetail> {
    const row = await this.row(projectId, mailId);
    return { ...toEntry(row), text: hideSecrets(row.text, row), html: row.html === null ? null : hideSecrets(row.html, row), replyTo: row.replyTo, from: row.from };
  }

  /**
   * Sends a logged mail again: a queued or failed one is queued again at once with its attempts
   * restarted; a sent one is copied into a new mail. Either goes the project's current route.
   */
  async resend(projectId: string, mailId: string): Promise<MailLogEntry> {
    const row = await this.row(projectId, mailId);
    const settings = await this.settingsRow(projectId);
    if (row.status === 'pending' || row.status === 'failed') {
      const viaProject = Boolean(settings?.smtpUrl);
      const status = viaProject || this.options.mailer.transport === 'smtp' ? ('pending' as const) : ('kept' as const);
      // A mail a worker holds right now is being sent: queuing it again could send it twice.
      const [queued] = await this.db
        .update(outbox)
        .set({ status, attempts: 0, lastError: null, nextAttemptAt: new Date(), via: viaProject ? 'project' : null })
        .where(and(eq(outbox.id, row.id), or(isNull(outbox.claimedUntil), lte(outbox.claimedUntil, new Date()))))
        .returning();
      if (!queued) return toEntry(row);
      if (viaProject) this.options.delivery.kick();
      else if (status === 'pending') setImmediate(() => void this.options.mailer.deliverDue().catch((e) => this.options.log.error({ err: e }, 'mail worker')));
      return toEntry(queued!);
    }
    const copy = await this.enqueue(
      projectId,
      {
        kind: row.kind,
        to: row.to,
        subject: row.subject,
        text: row.text,
        ...(row.html ? { html: row.html } : {}),
        ...(row.link ? { link: row.link } : {}),
        ...(row.template ? { template: row.template } : {}),
      },
      settings,
    );
    return toEntry(copy);
  }

  /**
   * Deletes the project mails past the retention (sent, kept or failed; never queued ones), at
   * most `batch` rows a statement, so a large backlog never holds one long delete (and its locks)
   * against the delivery worker and the log. Answers how many.
   */
  async sweep(now = new Date(), batch = SWEEP_BATCH): Promise<number> {
    const before = new Date(now.getTime() - this.options.config.mailLogRetentionDays * 86_400_000);
    const expired = and(isNotNull(outbox.projectId), inArray(outbox.status, ['sent', 'kept', 'failed']), lt(outbox.createdAt, before));
    let total = 0;
    for (;;) {
      const ids = this.db.select({ id: outbox.id }).from(outbox).where(expired).limit(batch);
      const gone = await this.db.delete(outbox).where(inArray(outbox.id, ids)).returning({ id: outbox.id });
      total += gone.length;
      if (gone.length < batch) return total;
    }
  }
}
