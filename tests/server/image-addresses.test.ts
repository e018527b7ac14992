/**
 * Image and file addresses (docs/errors.md "Image and file addresses"): an ImageRef or ImageRefSet value's
 * `imageURL` and `fileURL` are http(s) addresses or this server's own `/files/…` paths, however
 * they are written (case, spaces, tabs, control characters), through the console API, the public
 * API, in nested items and in upload-by-link; a script address is a 400, never stored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseKinds, json, type DatabaseKind, type TestApp } from './support/test-app.ts';
import { bearer } from './support/flows.ts';
import { expectProblem } from './support/assertions.ts';
import { contentFixture, createCollection, createItem, expectInvalid, type ContentFixture } from './support/content.ts';
import { mintToken } from './support/end-users.ts';

/** Addresses a browser would run as script (or that are no address of ours or the web's). */
const scripts = [
  'javascript:alert(1)',
  ' JaVaScRiPt:alert(1)',
  'JAVASCRIPT:alert(1)',
  'java\tscript:alert(1)',
  'java\nscript:alert(1)',
  'java\rscript:alert(1)',
  '\u0001javascript:alert(1)',
  '\u000bjavascript:alert(1)',
  '\u001fjavascript:alert(1)',
  '  \t javascript:alert(1)',
  'data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'DATA:image/svg+xml,<svg onload=alert(1)>',
  ' data:image/png;base64,iVBORw0KGgo=',
  'vbscript:msgbox(1)',
  'VbScRiPt:msgbox(1)',
  'blob:https://example.com/0b1c',
  'file:///etc/passwd',
  'ftp://example.com/a.png',
  '//evil.example/a.png',
  'javascript&colon;alert(1)',
  '/files/../api/user/me',
];

/** Addresses that stay allowed: the web's and this server's own. */
const allowed = [
  'https://example.com/a.png',
  'http://example.com/a%20b.png?size=large',
  'HTTPS://EXAMPLE.COM/A.PNG',
  'http://larder.test/files/p/abc/c/def/i/0123/0123456789abcdef0123456789abcdef.png',
  '/files/p/abc/c/def/i/0123/0123456789abcdef0123456789abcdef.png',
];

async function multipart(parts: [string, string][]) {
  const form = new FormData();
  for (const [name, value] of parts) form.append(name, value);
  const request = new Request('http://larder.test/', { method: 'PUT', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type')! } };
}

describe.each(databaseKinds)('image and file addresses on %s', (kind: DatabaseKind) => {
  let t: TestApp;
  let f: ContentFixture;
  let token: string;
  let item: string;
  let chapter: string;

  const publicCall = (method: 'POST' | 'PUT', path: string, payload: unknown) =>
    t.app.inject({ method, url: `/api/public/${path}`, headers: { ...bearer(token), 'accept-version': 'v1' }, payload: payload as object });

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await contentFixture(t);
    await createCollection(f, {
      id: 'media',
      name: 'Media',
      schema: [
        { name: 'Title', slug: 'title', type: 1 },
        { name: 'Photo', slug: 'photo', type: 5 },
        { name: 'Gallery', slug: 'gallery', type: 11 },
        { name: 'Website', slug: 'website', type: 9 },
        { name: 'Chapters', slug: 'chapters', type: 12, nestedCollectionSchema: [{ name: 'Cover', slug: 'cover', type: 5 }] },
      ],
    });
    item = (await createItem(f, 'media', { title: 'first' }))._id as string;
    chapter = (await createItem(f, 'media', { cover: null }, { item, nestedID: 'chapters' }))._id as string;
    token = await mintToken(t, f, { powerCreate: true, powerRead: true, powerUpdate: true, powerDelete: true });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses script addresses in imageURL and fileURL through the console API, at create, update, in sets and in nested items', async () => {
    for (const address of scripts) {
      const label = JSON.stringify(address);
      for (const key of ['imageURL', 'fileURL']) {
        const image = { [key]: address, imageName: 'a.png' };
        expectInvalid(await f.call('POST', 'collection/media/item', { title: 'x', photo: image }), ['photo']);
        expectInvalid(await f.call('PUT', `collection/media/item/${item}`, { photo: image }), ['photo']);
        expectInvalid(await f.call('PUT', `collection/media/item/${item}`, { gallery: [{ imageURL: 'https://example.com/ok.png' }, image] }), ['gallery']);
        const nested = await f.call('PUT', `collection/media/item/${item}?nestedID=chapters.${chapter}`, { cover: image });
        expect(nested.statusCode, `${label} nested → ${nested.body}`).toBe(400);
        expectInvalid(nested, ['cover']);
      }
    }
    const read = json(await f.call('GET', `collection/media/item/${item}`));
    expect(read.photo ?? null).toBeNull();
    expect(read.gallery ?? null).toBeNull();
    // The web's addresses and this server's own stay allowed.
    for (const address of allowed) {
      const set = await f.call('PUT', `collection/media/item/${item}`, { photo: { imageURL: address, fileURL: address }, gallery: [{ imageURL: address }] });
      expect(set.statusCode, `${address} → ${set.body}`).toBe(200);
      expect(json(set).photo.imageURL).toBe(address);
    }
  });

  it('refuses script addresses in imageURL and fileURL through the public API', async () => {
    for (const address of scripts) {
      for (const key of ['imageURL', 'fileURL']) {
        const image = { [key]: address };
        const created = await publicCall('POST', 'collection/media/items', { title: 'x', photo: image });
        expect(created.statusCode, `${JSON.stringify(address)} → ${created.body}`).toBe(400);
        expectProblem(created, 400);
        expectProblem(await publicCall('PUT', `collection/media/items/${item}`, { gallery: [image] }), 400);
        expectProblem(await publicCall('PUT', `collection/media/items/${item}?nestedID=chapters.${chapter}`, { cover: image }), 400);
      }
    }
    for (const address of allowed) {
      const set = await publicCall('PUT', `collection/media/items/${item}`, { photo: { imageURL: address }, gallery: [{ fileURL: address }] });
      expect(set.statusCode, `${address} → ${set.body}`).toBe(200);
    }
  });

  it('refuses the same spellings in Link fields, control characters included', async () => {
    for (const address of ['\u0001javascript:alert(1)', ' JaVaScRiPt:alert(1)', 'java\tscript:alert(1)', '\u001fjavascript:alert(1)']) {
      expectInvalid(await f.call('PUT', `collection/media/item/${item}`, { website: address }), ['website']);
    }
  });

  it('refuses script addresses as upload-by-link, and keeps a link whose file name is badly percent-encoded', async () => {
    const at = `collection/media/item/${item}/image?imageSlug=photo`;
    for (const address of [' JaVaScRiPt:alert(1)', 'java\tscript:alert(1)', 'data:image/png;base64,iVBORw0KGgo=', 'vbscript:msgbox(1)', '\u0001javascript:alert(1)']) {
      const body = await multipart([['imageLink', address]]);
      expectProblem(await f.call('PUT', at, body.payload, { headers: body.headers }), 400);
    }
    for (const address of ['https://example.com/bad%E0name.png', 'https://example.com/%00.png', 'https://example.com/%ED%A0%80.png']) {
      const body = await multipart([['imageLink', address]]);
      const response = await f.call('PUT', at, body.payload, { headers: body.headers });
      expect(response.statusCode, `${address} → ${response.body}`).toBe(200);
      const photo = json(response).photo as { imageURL: string; imageName: string };
      expect(photo.imageURL).toBe(address);
      expect(photo.imageName).not.toMatch(/[\u0000\ud800-\udfff]/);
    }
    // The public API fetches links: script addresses never reach the fetcher.
    for (const address of [' JaVaScRiPt:alert(1)', 'data:image/png;base64,iVBORw0KGgo=', 'vbscript:msgbox(1)']) {
      const image = await multipart([['imageLink', address]]);
      const put = await t.app.inject({
        method: 'PUT',
        url: `/api/public/collection/media/items/${item}/image?imageSlug=photo`,
        headers: { ...bearer(token), 'accept-version': 'v1', ...image.headers },
        payload: image.payload,
      });
      expectProblem(put, 400);
      const assets = await multipart([['urlAssets', address]]);
      const stored = await t.app.inject({
        method: 'POST',
        url: '/api/public/collection/media/assets',
        headers: { ...bearer(token), 'accept-version': 'v1', ...assets.headers },
        payload: assets.payload,
      });
      expectProblem(stored, 400);
    }
  });
});
