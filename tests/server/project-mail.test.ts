/**
 * A project's Mail section (docs/mail.md): templates (values escaped in the HTML part, refusals
 * naming the part with nothing saved), sender settings (the SMTP password never answered nor
 * stored in clear), the delivery log and resend, the retention sweep, who may do what, and bad
 * bodies answered with 4xx problems.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { defaultMailTemplates, mailTemplateKinds, mailTemplateVariables } from '../../definitions/mail.ts';
import { memberships, outbox, projectMailSettings, projectMailTemplates } from '../../server/db/schema.ts';
import { newId } from '../../server/lib/ids.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { expectProblem } from './support/assertions.ts';
import { contentFixture, type ContentFixture } from './support/content.ts';
import { bearer, mailsTo, verifiedUser } from './support/flows.ts';
import { mintToken, newEmail, signUpEndUser } from './support/end-users.ts';

interface LogPage {
  mails: { id: string; to: string; template: string | null; subject: string; state: string; error: string | null; attempts: number; via: string }[];
  total: number;
  page: number;
  perPage: number;
  retentionDays: number;
}

const draft = { subject: 'Reset for {{ project }}', html: '<p>Hi {{ email }}, go to <a href="{{ link }}">{{ project }}</a></p>', text: 'Hi {{ email }}: {{ link }}' };

describe.each(databaseKinds)('project mail on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let reader: string;
  let ownerEmail: string;
  let apiToken: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await contentFixture(t);
    apiToken = await mintToken(t, f);
    ownerEmail = json(await t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(f.access) })).email;
    // A member who may only read.
    const { tokens } = await verifiedUser(t.app, 'mailreader');
    const me = json(await t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(tokens.access_token) }));
    await t.database.db.insert(memberships).values({ organizationId: f.org, userId: me._id, permissions: { read: true } });
    reader = tokens.access_token;
  });
  afterAll(() => t?.close());

  const templateRows = (project = f.project) => t.database.db.select().from(projectMailTemplates).where(eq(projectMailTemplates.projectId, project));

  it('lists every template kind with its default text and variables', async () => {
    const response = await f.call('GET', 'mail/templates');
    expect(response.statusCode, response.body).toBe(200);
    const templates = json(response) as { kind: 'reset'; subject: string; html: string; custom: boolean; variables: string[]; updatedDate: string | null }[];
    expect(templates.map((x) => x.kind)).toEqual([...mailTemplateKinds]);
    for (const template of templates) {
      expect(template).toMatchObject({ custom: false, updatedDate: null, subject: defaultMailTemplates[template.kind].subject, html: defaultMailTemplates[template.kind].html });
      expect(template.variables).toEqual(mailTemplateVariables[template.kind]);
    }
  });

  it('saves a template, previews drafts with the sample values, and goes back to the default', async () => {
    const saved = await f.call('PUT', 'mail/templates/reset', draft);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(json(saved)).toMatchObject({ kind: 'reset', custom: true, subject: draft.subject });
    expect(json(await f.call('GET', 'mail/templates/reset'))).toMatchObject({ custom: true, html: draft.html });

    const preview = await f.call('POST', 'mail/templates/reset/preview', draft);
    expect(preview.statusCode, preview.body).toBe(200);
    expect(json(preview)).toEqual({
      subject: 'Reset for Recipes',
      html: '<p>Hi ada@example.com, go to <a href="https://larder.example/bagel-auth-verify-email/sample">Recipes</a></p>',
      text: 'Hi ada@example.com: https://larder.example/bagel-auth-verify-email/sample',
    });

    const reset = await f.call('DELETE', 'mail/templates/reset');
    expect(reset.statusCode, reset.body).toBe(200);
    expect(json(reset)).toMatchObject({ custom: false, subject: defaultMailTemplates.reset.subject });
    expect(await templateRows()).toEqual([]);
  });

  it('refuses an unknown variable or a template that does not parse with 400 naming the part, and saves nothing', async () => {
    expect((await f.call('PUT', 'mail/templates/otp', { subject: 'Code {{ code }}', html: '<b>{{ code }}</b>', text: '{{ code }}' })).statusCode).toBe(200);
    const before = await templateRows();

    const otpDraft = { subject: 'Code {{ code }}', html: '<p>{{ code }} for {{ email }} ({{ project }}, {{ minutes }} minutes)</p>', text: '{{ code }}' };
    const cases: [Record<string, string>, string, RegExp][] = [
      [{ ...otpDraft, subject: 'Hello {{ password }}' }, 'subject', /^Unknown variable password$/],
      // `link` is a variable of reset, not of otp.
      [{ ...otpDraft, text: '{{ code }} {{ link }}' }, 'text', /^Unknown variable link$/],
      [{ ...otpDraft, html: '<p>{% if code %}{{ secret.value }}{% endif %}</p>' }, 'html', /^Unknown variable secret$/],
      [{ ...otpDraft, html: '<p>{{ code </p>' }, 'html', /not closed/],
      [{ ...otpDraft, text: '{% for x in (1..3) %}{{ x }}' }, 'text', /not closed/],
      [{ ...otpDraft, html: '{{ code | no_such_filter }}' }, 'html', /undefined filter/],
      [{ ...otpDraft, html: '{% include "/etc/passwd" %}' }, 'html', /.+/],
      [{ ...otpDraft, html: '{% for i in (1..100000000) %}{{ i }}{% endfor %}' }, 'html', /limit/],
    ];
    for (const [body, field, message] of cases) {
      const response = await f.call('PUT', 'mail/templates/otp', body);
      const problem = expectProblem(response, 400, 'mail_template_invalid') as unknown as { errors: { path: string; message: string }[]; detail: string };
      expect(problem.errors, response.body).toHaveLength(1);
      expect(problem.errors[0]!.path, response.body).toBe(field);
      expect(problem.errors[0]!.message, response.body).toMatch(message);
      // The preview refuses it alike.
      expectProblem(await f.call('POST', 'mail/templates/otp/preview', body), 400, 'mail_template_invalid');
    }
    expect(await templateRows()).toEqual(before);
    expect((await f.call('DELETE', 'mail/templates/otp')).statusCode).toBe(200);
  });

  it("escapes HTML in the values of the HTML part (a project named <script>), and keeps the text part's values as they are", async () => {
    const name = '<script>alert(1)</script> & "Co"';
    const created = await t.app.inject({ method: 'POST', url: `/api/organization/${f.org}/project`, headers: bearer(f.access), payload: { name } });
    expect(created.statusCode, created.body).toBe(201);
    const project = json(created).id as string;
    const token = await mintToken(t, { ...f, project });
    await t.app.inject({ method: 'PUT', url: `/api/organization/${f.org}/project/${project}/mail/templates/verification`, headers: bearer(f.access), payload: {
      subject: 'Welcome to {{ project }}',
      html: '<h1>{{ project }}</h1><p>{{ project | upcase }}</p><a href="{{ link }}">go</a>',
      text: 'Welcome to {{ project }}: {{ link }}',
    } });
    const email = newEmail('escape');
    await signUpEndUser(t, token, email);
    const [mail] = await mailsTo(t.app, email);
    expect(mail?.kind).toBe('project-user-verification');
    const [row] = await t.database.db.select().from(outbox).where(eq(outbox.id, mail!.id));
    expect(row!.html).toContain('<h1>&lt;script&gt;alert(1)&lt;/script&gt; &amp; &#34;Co&#34;</h1>');
    expect(row!.html).toContain('<p>&lt;SCRIPT&gt;ALERT(1)&lt;/SCRIPT&gt; &amp; &#34;CO&#34;</p>');
    expect(row!.html).not.toContain('<script>');
    expect(row!.text).toContain(`Welcome to ${name}: http://larder.test/bagel-auth-verify-email/`);
    expect(row!.subject).toBe(`Welcome to ${name}`);
    expect(row).toMatchObject({ projectId: project, template: 'verification', via: null });
  });

  it('keeps sender settings, answers the SMTP URL without its password, and stores the password only encrypted', async () => {
    const other = await f.otherProject();
    expect(json(await other.call('GET', 'mail/settings'))).toEqual({
      senderName: null,
      senderAddress: null,
      replyTo: null,
      smtpUrl: null,
      smtpPasswordSet: false,
      verifyOnSignup: true,
      transport: 'outbox',
      defaultSender: t.config.mailFrom,
    });
    const password = 'pa:ss/w@rd%41';
    const saved = await other.call('PUT', 'mail/settings', {
      senderName: 'Recipes\r\nBcc: x@evil.test',
      senderAddress: 'Hello@Recipes.Example',
      replyTo: 'help@recipes.example',
      smtpUrl: `smtps://mailer:${encodeURIComponent(password)}@mail.example.com:465`,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(json(saved)).toMatchObject({
      senderName: 'Recipes  Bcc: x@evil.test',
      senderAddress: 'hello@recipes.example',
      replyTo: 'help@recipes.example',
      smtpUrl: 'smtps://mailer@mail.example.com:465',
      smtpPasswordSet: true,
      transport: 'project',
    });
    const read = await other.call('GET', 'mail/settings');
    for (const body of [saved.body, read.body]) {
      expect(body).not.toContain('pa:ss');
      expect(body).not.toContain(encodeURIComponent(password));
    }
    const [row] = await t.database.db.select().from(projectMailSettings).where(eq(projectMailSettings.projectId, other.project));
    expect(row!.smtpUrl).toBe('smtps://mailer@mail.example.com:465');
    expect(row!.smtpPasswordEncrypted).toMatch(/^v1\./);
    expect(row!.smtpPasswordEncrypted).not.toContain('pa:ss');

    // Without a password, the same user and host keep the stored one; another user loses it.
    expect(json(await other.call('PUT', 'mail/settings', { smtpUrl: 'smtps://mailer@mail.example.com:465' })).smtpPasswordSet).toBe(true);
    expect(json(await other.call('PUT', 'mail/settings', { smtpUrl: 'smtps://other@mail.example.com:465' })).smtpPasswordSet).toBe(false);
    // An absent key keeps its value; null clears it.
    const cleared = json(await other.call('PUT', 'mail/settings', { smtpUrl: null, replyTo: null, verifyOnSignup: false }));
    expect(cleared).toMatchObject({ smtpUrl: null, smtpPasswordSet: false, replyTo: null, senderAddress: 'hello@recipes.example', verifyOnSignup: false, transport: 'outbox' });
  });

  it('refuses a bad SMTP URL or address at its field, and saves nothing', async () => {
    const other = await f.otherProject();
    expect((await other.call('PUT', 'mail/settings', { senderName: 'Kept' })).statusCode).toBe(200);
    const before = await t.database.db.select().from(projectMailSettings).where(eq(projectMailSettings.projectId, other.project));
    for (const smtpUrl of ['http://mail.example.com', 'smtp://', 'not a url', 'smtp:///nohost', 'smtp://u:p@mail.example.com/path', 'smtp://mail.example.com?secure=no', 'smtp://u:p@127.0.0.1:25', 'smtp://[::1]:25']) {
      const response = await other.call('PUT', 'mail/settings', { smtpUrl, senderName: 'Changed' });
      const problem = expectProblem(response, 400, 'mail_smtp_url_invalid') as unknown as { errors: { path: string }[]; detail: string };
      expect(problem.errors.map((e) => e.path), smtpUrl).toEqual(['smtpUrl']);
      expect(response.body).not.toContain(':p@');
    }
    for (const [field, value] of [['senderAddress', 'not an address'], ['replyTo', 'a@b'], ['replyTo', 'x@y.z\r\nBcc: v@w.x'], ['senderAddress', '"Name" <a@b.c>']] as const) {
      const problem = expectProblem(await other.call('PUT', 'mail/settings', { [field]: value, senderName: 'Changed' }), 400, 'mail_address_invalid') as unknown as { errors: { path: string }[] };
      expect(problem.errors.map((e) => e.path)).toEqual([field]);
    }
    expect(await t.database.db.select().from(projectMailSettings).where(eq(projectMailSettings.projectId, other.project))).toEqual(before);
  });

  it('logs the project’s mails newest first: search, state and template filters, detail, resend of a sent mail as a new copy', async () => {
    const other = await f.otherProject();
    const token = await mintToken(t, other);
    const first = newEmail('logfirst');
    const second = newEmail('logsecond');
    await signUpEndUser(t, token, first);
    await signUpEndUser(t, token, second);
    await mailsTo(t.app, second); // waits for the mails answered before they were written
    const reset = await t.app.inject({ method: 'POST', url: '/auth/public/user/resetpassword', headers: { ...bearer(token), 'accept-version': 'v1' }, payload: { email: first } });
    expect(reset.statusCode).toBe(200);
    await mailsTo(t.app, first);

    const page = json<LogPage>(await other.call('GET', 'mail/log'));
    expect(page).toMatchObject({ total: 3, page: 1, perPage: 50, retentionDays: 30 });
    expect(page.mails.map((m) => [m.to, m.template, m.state, m.via])).toEqual([
      [first, 'reset', 'sent', 'installation'],
      [second, 'verification', 'sent', 'installation'],
      [first, 'verification', 'sent', 'installation'],
    ]);
    // The other projects' mails are not in this log.
    expect(json<LogPage>(await f.call('GET', 'mail/log')).mails.some((m) => m.to === first)).toBe(false);

    expect(json<LogPage>(await other.call('GET', `mail/log?search=${encodeURIComponent(first.slice(0, 12).toUpperCase())}`)).total).toBe(2);
    expect(json<LogPage>(await other.call('GET', 'mail/log?search=Reset%20your')).mails.map((m) => m.to)).toEqual([first]);
    expect(json<LogPage>(await other.call('GET', 'mail/log?search=%25')).total).toBe(0);
    expect(json<LogPage>(await other.call('GET', 'mail/log?template=verification')).total).toBe(2);
    expect(json<LogPage>(await other.call('GET', 'mail/log?state=queued')).total).toBe(0);
    expect(json<LogPage>(await other.call('GET', 'mail/log?state=sent&perPage=1&page=2')).mails.map((m) => m.to)).toEqual([second]);

    const detail = await other.call('GET', `mail/log/${page.mails[0]!.id}`);
    expect(detail.statusCode, detail.body).toBe(200);
    expect(json(detail)).toMatchObject({ id: page.mails[0]!.id, to: first, template: 'reset', from: t.config.mailFrom, replyTo: null });
    expect(json(detail).html).toContain('/bagel-auth-reset-password/');
    expect(json(detail).text).toContain('/bagel-auth-reset-password/');
    expectProblem(await f.call('GET', `mail/log/${page.mails[0]!.id}`), 404, 'mail_not_found');
    expectProblem(await other.call('GET', `mail/log/${newId()}`), 404, 'mail_not_found');

    const resent = await other.call('POST', `mail/log/${page.mails[0]!.id}/resend`);
    expect(resent.statusCode, resent.body).toBe(202);
    expect(json(resent).id).not.toBe(page.mails[0]!.id);
    expect(json(resent)).toMatchObject({ to: first, template: 'reset', state: 'sent' });
    expect(json<LogPage>(await other.call('GET', 'mail/log')).total).toBe(4);
    expectProblem(await f.call('POST', `mail/log/${page.mails[0]!.id}/resend`), 404, 'mail_not_found');
  });

  it('sends a test of a draft or of the saved template to the member’s own address', async () => {
    const other = await f.otherProject();
    const sent = await other.call('POST', 'mail/templates/otp/test', { subject: 'Test {{ code }}', html: '<p>{{ email }}</p>', text: 'code {{ code }} for {{ email }}' });
    expect(sent.statusCode, sent.body).toBe(202);
    expect(json(sent)).toEqual({ to: ownerEmail });
    const saved = await other.call('POST', 'mail/templates/verification/test');
    expect(saved.statusCode, saved.body).toBe(202);
    const log = json<LogPage>(await other.call('GET', 'mail/log'));
    expect(log.mails.map((m) => [m.to, m.template, m.subject])).toEqual([
      [ownerEmail, 'verification', 'Confirm your e-mail address for Content'],
      [ownerEmail, 'otp', 'Test ••••••'], // the log hides a one-time code
    ]);
    const [row] = await t.database.db.select().from(outbox).where(eq(outbox.id, log.mails[1]!.id));
    expect(row!.text).toBe(`code 482913 for ${ownerEmail}`);
    expectProblem(await other.call('POST', 'mail/templates/otp/test', { ...draft, subject: '{{ nope }}' }), 400, 'mail_template_invalid');
  });

  it('lets a read-only member read templates, settings and the log, and refuses every write with 403', async () => {
    const as = { access: reader };
    await signUpEndUser(t, apiToken, newEmail('readonly'));
    await mailsTo(t.app, 'nobody@example.test'); // waits for the mail answered before it was written
    for (const path of ['mail/templates', 'mail/templates/reset', 'mail/settings', 'mail/log']) {
      const response = await f.call('GET', path, undefined, as);
      expect(response.statusCode, `${path}: ${response.body}`).toBe(200);
    }
    expect((await f.call('POST', 'mail/templates/reset/preview', draft, as)).statusCode).toBe(200);
    const mail = json<LogPage>(await f.call('GET', 'mail/log')).mails[0]!;
    expect((await f.call('GET', `mail/log/${mail.id}`, undefined, as)).statusCode).toBe(200);
    const before = await t.database.db.select().from(outbox).where(eq(outbox.projectId, f.project));
    const writes: [('PUT' | 'DELETE' | 'POST'), string, unknown][] = [
      ['PUT', 'mail/templates/reset', draft],
      ['DELETE', 'mail/templates/reset', undefined],
      ['POST', 'mail/templates/reset/test', draft],
      ['PUT', 'mail/settings', { senderName: 'Mine' }],
      ['POST', `mail/log/${mail.id}/resend`, undefined],
    ];
    for (const [method, path, body] of writes) {
      expectProblem(await f.call(method, path, body, as), 403, 'insufficient_permissions');
    }
    expect(await templateRows()).toEqual([]);
    expect(json(await f.call('GET', 'mail/settings')).senderName).toBeNull();
    expect(await t.database.db.select().from(outbox).where(eq(outbox.projectId, f.project))).toHaveLength(before.length);
    // Someone who is not a member reads nothing.
    const { tokens } = await verifiedUser(t.app, 'mailstranger');
    expectProblem(await f.call('GET', 'mail/log', undefined, { access: tokens.access_token }), 403, 'not_a_member');
  });

  it('answers bad bodies, kinds and queries with 4xx problems', async () => {
    const bad: [('PUT' | 'POST' | 'GET'), string, unknown][] = [
      ['PUT', 'mail/templates/reset', { subject: 'x', html: 'y' }],
      ['PUT', 'mail/templates/reset', { ...draft, extra: 1 }],
      ['PUT', 'mail/templates/reset', { ...draft, subject: 'x'.repeat(301) }],
      ['PUT', 'mail/templates/reset', { ...draft, subject: '' }],
      ['PUT', 'mail/templates/reset', { ...draft, html: 5 }],
      ['PUT', 'mail/templates/reset', 'not json'],
      ['PUT', 'mail/templates/welcome', draft],
      ['GET', 'mail/templates/welcome', undefined],
      ['POST', 'mail/templates/reset/preview', { subject: 'x' }],
      ['PUT', 'mail/settings', { verifyOnSignup: 'yes' }],
      ['PUT', 'mail/settings', { smtpUrl: 5 }],
      ['PUT', 'mail/settings', { senderName: 'x'.repeat(201) }],
      ['PUT', 'mail/settings', { password: 'x' }],
      ['GET', 'mail/log?state=lost', undefined],
      ['GET', 'mail/log?page=0', undefined],
      ['GET', 'mail/log?perPage=1000', undefined],
      ['GET', `mail/log?search=${'x'.repeat(201)}`, undefined],
      ['GET', 'mail/log/not-an-id', undefined],
    ];
    for (const [method, path, body] of bad) {
      const response = await f.call(method, path, body, typeof body === 'string' ? { headers: { 'content-type': 'application/json' } } : {});
      expect(response.statusCode, `${method} ${path}: ${response.body}`).toBeGreaterThanOrEqual(400);
      expect(response.statusCode, `${method} ${path}: ${response.body}`).toBeLessThan(500);
      expect(json(response).code, `${method} ${path}`).toMatch(/^[a-z_]+$/);
    }
    expect(await templateRows()).toEqual([]);
  });

  it('sweeps sent and failed project mails older than the retention, never queued ones or platform mails', async () => {
    const old = new Date(Date.now() - 31 * 86_400_000);
    const base = { to: 'old@example.test', from: 'x@example.test', subject: 'old', text: 'old', kind: 'project-user-reset', createdAt: old };
    const ids = { sent: newId(), failed: newId(), queued: newId(), platform: newId(), recent: newId() };
    await t.database.db.insert(outbox).values([
      { ...base, id: ids.sent, status: 'sent', projectId: f.project },
      { ...base, id: ids.failed, status: 'failed', projectId: f.project },
      { ...base, id: ids.queued, status: 'pending', projectId: f.project, nextAttemptAt: new Date(Date.now() + 3_600_000) },
      { ...base, id: ids.platform, status: 'sent', projectId: null },
      { ...base, id: ids.recent, status: 'sent', projectId: f.project, createdAt: new Date(Date.now() - 29 * 86_400_000) },
    ]);
    expect(await t.app.ctx.projectMail!.sweep()).toBeGreaterThanOrEqual(2);
    const left = await t.database.db.select({ id: outbox.id }).from(outbox).where(and(eq(outbox.to, 'old@example.test')));
    expect(left.map((r) => r.id).sort()).toEqual([ids.queued, ids.platform, ids.recent].sort());
  });

  it('sweeps a backlog in batches until none is left past the retention', async () => {
    const old = new Date(Date.now() - 40 * 86_400_000);
    const rows = Array.from({ length: 25 }, (_, i) => ({
      id: newId(), to: 'backlog@example.test', from: 'x@example.test', subject: `old ${i}`, text: 'old', kind: 'project-user-reset',
      createdAt: old, status: (i % 2 ? 'sent' : 'failed') as 'sent' | 'failed', projectId: f.project,
    }));
    await t.database.db.insert(outbox).values(rows);
    // 25 rows, 10 a statement: three statements, the last short.
    expect(await t.app.ctx.projectMail!.sweep(new Date(), 10)).toBe(25);
    expect(await t.database.db.select({ id: outbox.id }).from(outbox).where(eq(outbox.to, 'backlog@example.test'))).toEqual([]);
    expect(await t.app.ctx.projectMail!.sweep(new Date(), 10)).toBe(0);
  });
});
