/**
 * What Mail holds back from the people who run it (docs/mail.md): the delivery log never shows a
 * mail's link secret or one-time code (a member who may only read could otherwise act as any app
 * user), test mails, resends and previews are counted per member, a template cannot hold the
 * server for long, and an SMTP URL the worker could not use is refused when saved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { memberships, outbox } from '../../server/db/schema.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { expectProblem } from './support/assertions.ts';
import { contentFixture, type ContentFixture } from './support/content.ts';
import { bearer, verifiedUser } from './support/flows.ts';
import { authCall, mintToken, newEmail, signUpEndUser } from './support/end-users.ts';

interface LogPage {
  mails: { id: string; to: string; template: string | null; subject: string }[];
  total: number;
}

/** The outbox rows of a project to one address, once `n` are written (app users' mails are written after the answer). */
async function rowsTo(t: TestApp, project: string, to: string, n = 1) {
  for (let i = 0; i < 100; i++) {
    const rows = await t.database.db.select().from(outbox).where(and(eq(outbox.projectId, project), eq(outbox.to, to)));
    if (rows.length >= n) return rows;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`no mail to ${to}`);
}

describe.each(databaseKinds)('project mail guards on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let reader: string;

  beforeAll(async () => {
    t = await createTestApp(kind, { RATE_LIMIT_MAIL_SEND_USER: '3/1h', RATE_LIMIT_MAIL_PREVIEW_USER: '4/1m' });
    f = await contentFixture(t);
    const { tokens } = await verifiedUser(t.app, 'guardreader');
    const me = json(await t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(tokens.access_token) }));
    await t.database.db.insert(memberships).values({ organizationId: f.org, userId: me._id, permissions: { read: true } });
    reader = tokens.access_token;
  });
  afterAll(() => t?.close());

  it('never shows a reset or verification link’s secret or a one-time code in the log, nor finds them by search; the mail itself carries them', async () => {
    const p = await f.otherProject();
    const token = await mintToken(t, p);
    // The code in the subject too, as many apps put it.
    const saved = await p.call('PUT', 'mail/templates/otp', { subject: 'Code {{ code }} for {{ project }}', html: '<p>{{ code }}</p>', text: 'Your code: {{ code }}' });
    expect(saved.statusCode, saved.body).toBe(200);
    const verifyLink = await p.call('PUT', 'mail/templates/reset', { subject: 'Reset {{ link }}', html: '<a href="{{ link }}">{{ link | url_encode }}</a>', text: '{{ link }}' });
    expect(verifyLink.statusCode, verifyLink.body).toBe(200);

    const email = newEmail('guarded');
    await signUpEndUser(t, token, email);
    expect((await authCall(t, 'POST', '/user/otp', token, { emailOrPhone: email })).statusCode).toBe(200);
    expect((await authCall(t, 'POST', '/user/resetpassword', token, { email })).statusCode).toBe(200);
    const rows = await rowsTo(t, p.project, email, 3);
    const otp = rows.find((r) => r.template === 'otp')!;
    const reset = rows.find((r) => r.template === 'reset')!;
    const verification = rows.find((r) => r.template === 'verification')!;
    const code = /Your code: (\d{6})/.exec(otp.text)![1]!;
    const resetSecret = reset.link!.split('/').pop()!;
    const verifySecret = verification.link!.split('/').pop()!;
    // The mails as sent carry them.
    expect(otp.subject).toContain(code);
    expect(reset.text).toContain(resetSecret);

    for (const access of [reader, p.access]) {
      const page = json<LogPage>(await p.call('GET', 'mail/log', undefined, { access }));
      expect(page.total).toBe(3);
      const listed = JSON.stringify(page);
      expect(listed).not.toContain(code);
      expect(listed).not.toContain(resetSecret);
      expect(page.mails.find((m) => m.template === 'otp')!.subject).toBe('Code •••••• for Content');
      for (const row of rows) {
        const detail = await p.call('GET', `mail/log/${row.id}`, undefined, { access });
        expect(detail.statusCode, detail.body).toBe(200);
        for (const secret of [code, resetSecret, verifySecret]) expect(detail.body).not.toContain(secret);
      }
      const resetDetail = json(await p.call('GET', `mail/log/${reset.id}`, undefined, { access }));
      expect(resetDetail.text).toMatch(/\/bagel-auth-reset-password\/\[hidden\]$/);
      expect(json(await p.call('GET', `mail/log/${otp.id}`, undefined, { access })).text).toBe('Your code: ••••••');
      // The search cannot probe them either.
      for (const term of [code, code.slice(0, 3), resetSecret.slice(0, 6)]) {
        expect(json<LogPage>(await p.call('GET', `mail/log?search=${encodeURIComponent(term)}`, undefined, { access })).total, term).toBe(0);
      }
      expect(json<LogPage>(await p.call('GET', 'mail/log?search=Code', undefined, { access })).total).toBe(1);
      expect(json<LogPage>(await p.call('GET', `mail/log?search=${encodeURIComponent(email)}`, undefined, { access })).total).toBe(3);
    }
  });

  it('counts test mails and resends per member (429 rate_limited past the limit, nothing sent), and previews apart', async () => {
    const p = await f.otherProject();
    const before = await t.database.db.select().from(outbox).where(eq(outbox.projectId, p.project));
    for (let i = 0; i < 2; i++) expect((await p.call('POST', 'mail/templates/verification/test')).statusCode).toBe(202);
    const [mail] = await t.database.db.select().from(outbox).where(eq(outbox.projectId, p.project));
    expect((await p.call('POST', `mail/log/${mail!.id}/resend`)).statusCode).toBe(202);
    const sent = await t.database.db.select().from(outbox).where(eq(outbox.projectId, p.project));
    expect(sent.length).toBe(before.length + 3);
    const tooMany = await p.call('POST', 'mail/templates/verification/test');
    expectProblem(tooMany, 429, 'rate_limited');
    expect(tooMany.headers['retry-after']).toBeDefined();
    expectProblem(await p.call('POST', `mail/log/${mail!.id}/resend`), 429, 'rate_limited');
    expect(await t.database.db.select().from(outbox).where(eq(outbox.projectId, p.project))).toHaveLength(sent.length);
    // A read-only member's refused calls do not count against anyone: they stay 403.
    expectProblem(await p.call('POST', 'mail/templates/verification/test', undefined, { access: reader }), 403, 'insufficient_permissions');

    const draft = { subject: 'Hi {{ project }}', html: '<p>{{ link }}</p>', text: '{{ link }}' };
    for (let i = 0; i < 4; i++) expect((await p.call('POST', 'mail/templates/verification/preview', draft, { access: reader })).statusCode).toBe(200);
    expectProblem(await p.call('POST', 'mail/templates/verification/preview', draft, { access: reader }), 429, 'rate_limited');
  });

  it('refuses a template whose rendering takes over 100 ms, well before a second of the server’s time', async () => {
    const slow = '{% for i in (1..3000) %}{% for j in (1..1000) %}{% endfor %}{% endfor %}';
    const started = Date.now();
    const response = await f.call('PUT', 'mail/templates/verification', { subject: 'x', html: slow, text: 'x' });
    expectProblem(response, 400, 'mail_template_invalid');
    expect(json(response).errors).toEqual([{ path: 'html', message: expect.stringContaining('render limit exceeded') }]);
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('refuses an SMTP URL whose user name is not valid percent-encoding (the worker could not decode it), and saves nothing', async () => {
    const response = await f.call('PUT', 'mail/settings', { smtpUrl: 'smtp://us%E0%A4%A:secret@smtp.example.com:587' });
    expectProblem(response, 400, 'mail_smtp_url_invalid');
    expect(json(response).errors).toEqual([{ path: 'smtpUrl', message: 'its user name is not valid percent-encoding' }]);
    expect(json(await f.call('GET', 'mail/settings')).smtpUrl).toBeNull();
  });
});
