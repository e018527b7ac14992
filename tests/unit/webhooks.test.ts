/**
 * The pure rules of webhooks: which list keys an item event matches (nested slugs, ids and slugs),
 * the console's Select Collections tree, when Create is enabled, and the signature.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { eventKeys, matches } from '../../server/webhooks/webhooks.ts';
import { signDelivery } from '../../server/webhooks/delivery.ts';
import { collectionTree, draftComplete, emptyDraft } from '../../src/screens/project/webhooks/WebhookFields.tsx';

describe('webhook matching', () => {
  const posts = { id: 'c1', slug: 'posts' };
  it('keys a top-level event by collection id and slug, and a nested one by its slugs without item ids', () => {
    expect(eventKeys(posts, '')).toEqual(['c1', 'posts']);
    expect(eventKeys(posts, 'comments')).toEqual(['c1.comments', 'posts.comments']);
    expect(eventKeys(posts, 'comments.k1.replies')).toEqual(['c1.comments.replies', 'posts.comments.replies']);
  });

  it('fires for its trigger and the lists it names only; none named means every list', () => {
    const hook = { trigger: 'create', collections: ['posts.comments'] };
    expect(matches(hook, 'create', eventKeys(posts, 'comments'))).toBe(true);
    expect(matches(hook, 'create', eventKeys(posts, ''))).toBe(false);
    expect(matches(hook, 'update', eventKeys(posts, 'comments'))).toBe(false);
    expect(matches({ trigger: 'delete', collections: [] }, 'delete', eventKeys(posts, 'comments.k1.replies'))).toBe(true);
    expect(matches({ trigger: 'create', collections: ['c1'] }, 'create', eventKeys(posts, ''))).toBe(true);
  });

  it('signs the timestamp and the exact body', () => {
    const expected = `sha256=${createHmac('sha256', 's3cret').update('1700000000.{"a":1}').digest('hex')}`;
    expect(signDelivery('s3cret', '1700000000', '{"a":1}')).toBe(expected);
    expect(signDelivery('s3cret', '1700000000', '{"a": 1}')).not.toBe(expected);
  });
});

describe('the Create Webhook form', () => {
  it('lists each collection and its nested collections under it, keyed by nested slugs', () => {
    const tree = collectionTree([
      {
        id: 'posts',
        name: 'Posts',
        schema: [
          { name: 'Title', slug: 'title' },
          { name: 'Comments', slug: 'comments', nestedCollectionSchema: [{ name: 'Replies', slug: 'replies', nestedCollectionSchema: [] }] },
        ],
      },
      { id: 'tags', name: 'Tags', schema: [] },
    ]);
    expect(tree).toEqual([
      { key: 'posts', label: 'Posts', depth: 0 },
      { key: 'posts.comments', label: 'Comments', depth: 1 },
      { key: 'posts.comments.replies', label: 'Replies', depth: 2 },
      { key: 'tags', label: 'Tags', depth: 0 },
    ]);
  });

  it('enables Create only with a name, an address and a method', () => {
    const draft = emptyDraft();
    expect(draftComplete(draft)).toBe(false);
    expect(draftComplete({ ...draft, name: 'Hook' })).toBe(false);
    expect(draftComplete({ ...draft, name: 'Hook', webhookURI: 'https://example.com' })).toBe(true);
    expect(draftComplete({ ...draft, name: 'Hook', webhookURI: 'https://example.com', method: '' })).toBe(false);
    expect(draftComplete({ ...draft, name: '  ', webhookURI: 'https://example.com' })).toBe(false);
  });
});
