/**
 * The integration catalogue (definitions/integrations/): every entry is well-formed data the
 * console can draw and the server can check, and the chat integration's message lays an item out
 * within Slack's limits without letting a value make links or mentions.
 */
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { integration, integrations } from '../../definitions/integrations/index.ts';
import { escapeMrkdwn, itemEventMessage } from '../../definitions/integrations/slack/message.ts';
import { formAjvOptions } from '../../definitions/forms/ajv-options.ts';
import { allMessages } from '../../definitions/messages/all.ts';
import type { SchemaField } from '../../definitions/field-types/index.ts';

describe('the integration catalogue', () => {
  it('has unique ids, each found by the registry', () => {
    const ids = integrations.map((entry) => entry.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) {
      expect(id).toMatch(/^[a-z0-9-]+$/);
      expect(integration(id)?.id).toBe(id);
    }
    expect(integration('nope')).toBeUndefined();
    expect(ids).toEqual(expect.arrayContaining(['slack', 's3-export', 'meilisearch']));
  });

  it.each(integrations.map((entry) => [entry.id, entry] as const))('%s: settings compile, fields match the schema, secrets are hidden inputs, every text is in the catalogue', (_id, entry) => {
    const ajv = new Ajv(formAjvOptions);
    addFormats(ajv);
    const validate = ajv.compile(entry.settings.schema);
    const properties = Object.keys(entry.settings.schema.properties);
    expect(entry.settings.fields.map((field) => field.name).sort()).toEqual([...properties].sort());
    for (const secret of entry.secrets) {
      expect(properties).toContain(secret);
      expect(entry.settings.fields.find((field) => field.name === secret)?.inputType).toBe('password');
      // A secret may be left out of an edit (kept as stored), so the schema never requires it.
      expect(entry.settings.schema.required ?? []).not.toContain(secret);
    }
    for (const address of entry.addresses) expect(properties).toContain(address);
    expect(validate({ unknown: 'x' })).toBe(false);
    const keys: string[] = [entry.name, entry.description, entry.testHelp, entry.settings.title, entry.settings.submit, entry.settings.submitting];
    for (const field of entry.settings.fields) keys.push(field.label, ...(field.help ? [field.help] : []), ...(field.options ?? []).map((option) => option.label));
    for (const messages of Object.values(entry.settings.errorMessages ?? {})) keys.push(...(Object.values(messages) as string[]));
    for (const key of keys) expect(allMessages[key], key).toBeTypeOf('string');
    expect(entry.events.length).toBeGreaterThan(0);
    for (const event of entry.events) expect(['create', 'update', 'delete', 'schedule']).toContain(event);
  });

  it('settings schemas accept good settings and refuse bad ones', () => {
    const ajv = new Ajv(formAjvOptions);
    const check = (id: string, value: unknown) => ajv.compile(integration(id)!.settings.schema)(value);
    expect(check('slack', { webhookUrl: 'https://hooks.slack.com/services/T/B/X' })).toBe(true);
    expect(check('slack', { webhookUrl: 'javascript:alert(1)' })).toBe(false);
    expect(check('slack', { webhookUrl: 'https://a b' })).toBe(false);
    const s3 = { region: 'us-east-1', bucket: 'exports', accessKeyId: 'AKIA', format: 'csv' };
    expect(check('s3-export', s3)).toBe(true);
    expect(check('s3-export', { ...s3, bucket: 'Exports' })).toBe(false);
    expect(check('s3-export', { ...s3, prefix: '/abs' })).toBe(false);
    expect(check('s3-export', { ...s3, format: 'xml' })).toBe(false);
    expect(check('meilisearch', { host: 'http://127.0.0.1:7700', indexUid: 'posts_v1' })).toBe(true);
    expect(check('meilisearch', { host: 'http://127.0.0.1:7700', indexUid: 'posts v1' })).toBe(false);
  });
});

const schema: SchemaField[] = [
  { id: 'f1', name: 'Title', slug: 'title', type: 1, primaryField: true },
  { id: 'f2', name: 'Body', slug: 'body', type: 2 },
  { id: 'f3', name: 'Price', slug: 'price', type: 3 },
  { id: 'f4', name: 'Published', slug: 'published', type: 8 },
  { id: 'f5', name: 'Size', slug: 'size', type: 7, options: [{ _id: 's', value: 'Small' }] },
  { id: 'f6', name: 'Comments', slug: 'comments', type: 12, nestedCollectionSchema: [{ id: 'c1', name: 'Text', slug: 'text', type: 1 }] },
  { id: 'f7', name: 'Empty', slug: 'empty', type: 1 },
];

describe('the chat integration message', () => {
  it('lays out the fields that have a value, with a header and a link to the console', () => {
    const message = itemEventMessage({
      projectName: 'Recipes',
      collectionName: 'Posts',
      trigger: 'create',
      itemID: 'abc123',
      item: { _id: 'abc123', title: 'Soup', body: '<p>Hot <b>&amp;</b> thick</p><p>Serve</p>', price: 4.5, published: true, size: { _id: 's', value: 'Small' }, comments: [{ text: 'x' }] },
      schema,
      consoleUrl: 'http://larder.test/organization/o/project/p/collection/posts/item/abc123',
    });
    expect(message.blocks[0]).toEqual({ type: 'header', text: { type: 'plain_text', text: 'Recipes · Posts: item created', emoji: false } });
    const fields = (message.blocks[1] as { fields: { text: string }[] }).fields.map((field) => field.text);
    expect(fields[0]).toBe('*Title*\nSoup');
    expect(fields[1]).toBe('*Body*\nHot &amp; thick\nServe');
    expect(fields.some((text) => text.startsWith('*Price*\n4.5'))).toBe(true);
    expect(fields.some((text) => text.startsWith('*Size*\nSmall'))).toBe(true);
    expect(fields.join()).not.toContain('Comments');
    expect(fields.join()).not.toContain('Empty');
    const context = JSON.stringify(message.blocks.at(-1));
    expect(context).toContain('<http://larder.test/organization/o/project/p/collection/posts/item/abc123|Open in Larder>');
    expect(message.text).toBe('Recipes · Posts: item created (abc123)');
  });

  it('escapes values so they make no link or mention, and keeps within Slack limits', () => {
    const many: SchemaField[] = Array.from({ length: 25 }, (_, i) => ({ id: `x${i}`, name: `Field ${i}`, slug: `f${i}`, type: 1 }));
    const item: Record<string, unknown> = Object.fromEntries(many.map((field) => [field.slug, 'v']));
    item.f0 = '<!channel> <https://evil.test|click> & co';
    item.f1 = 'x'.repeat(5000);
    const message = itemEventMessage({ projectName: 'P'.repeat(200), collectionName: 'C', trigger: 'delete', itemID: 'i', item, schema: many, heading: '' });
    const header = (message.blocks[0] as { text: { text: string } }).text.text;
    expect(header.length).toBeLessThanOrEqual(150);
    const sections = message.blocks.filter((block) => block.type === 'section') as { fields: { text: string }[] }[];
    expect(sections).toHaveLength(2);
    for (const section of sections) expect(section.fields.length).toBeLessThanOrEqual(10);
    const texts = sections.flatMap((section) => section.fields.map((field) => field.text));
    expect(texts[0]).toBe('*Field 0*\n&lt;!channel&gt; &lt;https://evil.test|click&gt; &amp; co');
    for (const text of texts) expect(text.length).toBeLessThanOrEqual(2000);
    expect(JSON.stringify(message.blocks.at(-1))).toContain('and 5 more fields');
    expect(escapeMrkdwn('<a>&')).toBe('&lt;a&gt;&amp;');
    const headed = itemEventMessage({ projectName: 'P', collectionName: 'C', trigger: 'update', itemID: 'i', item: {}, schema: [], heading: 'New order' });
    expect(headed.blocks.map((block) => block.type)).toEqual(['header', 'context']);
    expect(headed.text).toBe('New order (i)');
  });
});
