/**
 * A project's rich-text switches (definitions/rich-text.ts; editor options that could have been
 * tied to hard-coded organizations and projects, as settings): members with the update right turn the editor's
 * right-to-left, menu bar and quote formats on and off; only organization admins turn scripts on
 * or off, and a RichText field may be given a custom script file only while scripts are on.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fieldTypes } from '../../definitions/field-types/index.ts';
import { memberships } from '../../server/db/schema.ts';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { bearer, verifiedUser } from './support/flows.ts';
import { expectProblem } from './support/assertions.ts';
import { contentFixture, createCollection, expectInvalid, type ContentFixture } from './support/content.ts';

const code = (name: string) => fieldTypes.find((t) => t.name === name)!.code;

describe.each(databaseKinds)('rich-text project settings on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let editor: string;
  let reader: string;
  const script = 'https://larder.test/files/p/x/a/0123456789abcdef0123456789abcdef.js';

  const projectUrl = () => `/api/organization/${f.org}/project/${f.project}`;
  const putProject = (who: string, payload: unknown) => t.app.inject({ method: 'PUT', url: projectUrl(), headers: bearer(who), payload: payload as object });
  const richTextOf = async (who: string) => {
    const response = await t.app.inject({ method: 'GET', url: projectUrl(), headers: bearer(who) });
    expect(response.statusCode, response.body).toBe(200);
    return json(response).settings.richText as Record<string, boolean> | undefined;
  };

  async function member(flags: Record<string, boolean>, prefix: string) {
    const { tokens } = await verifiedUser(t.app, prefix);
    const me = json(await t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(tokens.access_token) }));
    await t.database.db.insert(memberships).values({ organizationId: f.org, userId: me._id, permissions: flags });
    return tokens.access_token as string;
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await contentFixture(t);
    editor = await member({ read: true, create: true, update: true, delete: true, write: true }, 'rteditor');
    reader = await member({ read: true }, 'rtreader');
    await createCollection(f, { id: 'posts', name: 'Posts', schema: [{ name: 'Body', slug: 'body', type: code('RichText') }] });
  });
  afterAll(() => t?.close());

  it('are off until someone turns them on', async () => {
    expect(await richTextOf(reader)).toBeUndefined();
  });

  it('editors turn the toolbar switches on and off; each change keeps the others', async () => {
    const on = await putProject(editor, { settings: { richText: { rightToLeft: true, menuBar: true } } });
    expect(on.statusCode, on.body).toBe(200);
    expect(json(on).settings.richText).toEqual({ rightToLeft: true, menuBar: true, customQuoteFormats: false, scriptsEnabled: false });
    const quotes = await putProject(editor, { settings: { richText: { customQuoteFormats: true, menuBar: false } } });
    expect(json(quotes).settings.richText).toEqual({ rightToLeft: true, menuBar: false, customQuoteFormats: true, scriptsEnabled: false });
    // Every member reads them: the editor draws its toolbar from them.
    expect(await richTextOf(reader)).toEqual({ rightToLeft: true, menuBar: false, customQuoteFormats: true, scriptsEnabled: false });
  });

  it('readers cannot change any switch', async () => {
    expectProblem(await putProject(reader, { settings: { richText: { rightToLeft: false } } }), 403);
    expect((await richTextOf(reader))!.rightToLeft).toBe(true);
  });

  it('only organization admins turn scripts on or off', async () => {
    expectProblem(await putProject(editor, { settings: { richText: { scriptsEnabled: true } } }), 403);
    expectProblem(await putProject(editor, { settings: { richText: { scriptsEnabled: false, menuBar: true } } }), 403);
    expectProblem(await putProject(reader, { settings: { richText: { scriptsEnabled: true } } }), 403);
    expect((await richTextOf(reader))!.scriptsEnabled).toBe(false);
    expect((await richTextOf(reader))!.menuBar).toBe(false);
    const on = await putProject(f.access, { settings: { richText: { scriptsEnabled: true } } });
    expect(on.statusCode, on.body).toBe(200);
    expect(json(on).settings.richText.scriptsEnabled).toBe(true);
  });

  it('refuses anything but the known switches as booleans', async () => {
    expect((await putProject(f.access, { settings: { richText: { scriptsEnabled: 'yes' } } })).statusCode).toBe(400);
    expect((await putProject(f.access, { settings: { richText: { runEverything: true } } })).statusCode).toBe(400);
    expect((await putProject(f.access, { settings: { richText: {} } })).statusCode).toBe(400);
    expect((await putProject(f.access, { settings: {} })).statusCode).toBe(400);
  });

  it('a field gets a custom script file only while scripts are on', async () => {
    // On (previous test): an editor sets the field's script file.
    const set = await f.call('PUT', `collection/posts/field/${await fieldId()}`, { richTextCustomJS: script }, { access: editor });
    expect(set.statusCode, set.body).toBe(200);
    expectInvalid(await f.call('PUT', `collection/posts/field/${await fieldId()}`, { richTextCustomJS: 'javascript:alert(1)' }), ['richTextCustomJS']);

    const off = await putProject(f.access, { settings: { richText: { scriptsEnabled: false } } });
    expect(json(off).settings.richText.scriptsEnabled).toBe(false);
    // Off: a new script is refused, on an existing field and on a new one...
    expectInvalid(await f.call('PUT', `collection/posts/field/${await fieldId()}`, { richTextCustomJS: `${script}?v=2` }), ['richTextCustomJS']);
    expectInvalid(await f.call('POST', 'collection/posts/field', { name: 'Other', slug: 'other', type: code('RichText'), richTextCustomJS: script }), ['richTextCustomJS']);
    // ...while the field's other settings still change, and the script can be removed.
    const renamed = await f.call('PUT', `collection/posts/field/${await fieldId()}`, { name: 'Text' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    const removed = await f.call('PUT', `collection/posts/field/${await fieldId()}`, { richTextCustomJS: '' });
    expect(removed.statusCode, removed.body).toBe(200);
    const schema = json(await f.call('GET', 'collection/posts/schema')) as { slug: string; richTextCustomJS?: string }[];
    expect(schema.find((field) => field.slug === 'body')!.richTextCustomJS).toBeUndefined();
  });

  async function fieldId() {
    const schema = json(await f.call('GET', 'collection/posts/schema')) as { id: string; slug: string }[];
    return schema.find((field) => field.slug === 'body')!.id;
  }
});
