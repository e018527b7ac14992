/**
 * Required image fields and the create-then-upload flow (docs/console.md "Item page"): a new
 * item is created without its files, which are uploaded into it once it exists, so the create
 * takes a required ImageRef or ImageRefSet empty; an update still may not empty one, and other
 * required fields are still required at create.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseKinds, json, type DatabaseKind, type TestApp } from './support/test-app.ts';
import { contentFixture, createCollection, createItem, expectInvalid, type ContentFixture } from './support/content.ts';

describe.each(databaseKinds)('required images on %s', (kind: DatabaseKind) => {
  let t: TestApp;
  let f: ContentFixture;

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await contentFixture(t);
    await createCollection(f, {
      id: 'posters',
      name: 'Posters',
      schema: [
        { name: 'Title', slug: 'title', type: 1, required: true },
        { name: 'Photo', slug: 'photo', type: 5, required: true },
        { name: 'Gallery', slug: 'gallery', type: 11, required: true },
      ],
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('creates an item whose required images are still to be uploaded', async () => {
    const item = await createItem(f, 'posters', { title: 'First' });
    expect(item.title).toBe('First');
    expect(item.photo ?? null).toBeNull();
  });

  it('still requires the other required fields at create', async () => {
    expectInvalid(await f.call('POST', 'collection/posters/item', { photo: null }), ['title']);
  });

  it('does not let an update empty a required image', async () => {
    const item = await createItem(f, 'posters', { title: 'Second' });
    const photo = { imageURL: 'https://example.com/a.png', imageName: 'a.png', altText: '' };
    const set = await f.call('PUT', `collection/posters/item/${item._id}`, { photo });
    expect(set.statusCode, set.body).toBe(200);
    expect(json(set).photo).toEqual(photo);
    const errors = expectInvalid(await f.call('PUT', `collection/posters/item/${item._id}`, { photo: null, gallery: [] }), ['photo', 'gallery']);
    expect(errors.map((e) => e.message).sort()).toEqual(['Gallery is a required field', 'Photo is a required field']);
  });
});
