/**
 * A project's Mail section (docs/mail.md): templates (escaping, refusals naming the part, nothing
 * saved), sender settings (the SMTP password never answered), the delivery log, who may do what,
 * and bad bodies answered with 4xx problems.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { defaultMailTemplates, mailTemplateKinds, mailTemplateVariables } from '../../definitions/mail.ts';
import { memberships, outbox, projectMailSettings, projectMailTemplates } from '../../server/db/schema.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { expectProblem } from './support/assertions.ts';
import { contentFixture, type ContentFixture } from './support/content.ts';
import { verifiedUser } from './support/flows.ts';
import { authCall, mintToken, newEmail, signUpEndUser } from './support/end-users.ts';

describe.each(databaseKinds)('project mail on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let reader: string;
  let apiToken: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await contentFixture(t);
    apiToken = await mintToken(t, f);
    // A member who may only read.
    const { tokens } = await verifiedUser(t.app, 'mailreader');
    const me = json(await t.app.inject({ method: 'GET', url: '/api/user/me', headers: { authorization: `Bearer ${tokens.access_token}` } }));
    await t.database.db.insert(memberships).values({ organizationId: f.org, userId: me._id, permissions: { read: true } });
    reader = tokens.access_token;
  });
  afterAll(() => t?.close());

  it('lists every template kind with its default text and variables', async () => {
    const response = await f.call('GET', 'mail/templates');
    expect(response.statusCode, response.body).toBe(200);
    const templates = json(response) as { kind: string; subject: string; custom: boolean; variables: string[] }[];
    expect(templates.map((x) => x.kind)).toEqual([...mailTemplateKinds]);
    for (const template of templates) {
      expect(template.custom).toBe(false);
      expect(template.subject).toBe(defaultMailTemplates[template.kind as 'reset'].subject);
      expect(template.variables).toEqual(mailTemplateVariables[template.kind as 'reset']);
    }
  });
});
