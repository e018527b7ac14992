/**
 * Files through the API (docs/files.md): uploads into ImageRef and
 * ImageRefSet fields (top level and nested), their real types, limits and accept lists, serving
 * with thumbnails, ranges and safe headers, and no orphan file after replacing or deleting
 * anything. Runs on every database with local files, and on PGlite with an S3 bucket (s3rver).
 * Image fixtures are made here with sharp; nothing binary lives in the repository.
 */
import { createRequire } from 'node:module';
import http from 'node:http';
import zlib from 'node:zlib';
import { mkdtempSync, readdirSync, rmSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import { memberships } from '../../server/db/schema.ts';
import { createTestApp, databaseKinds, json, type DatabaseKind, type TestApp } from './support/test-app.ts';
import { bearer, verifiedUser } from './support/flows.ts';
import { expectProblem } from './support/assertions.ts';
import { contentFixture, createCollection, createItem, type ContentFixture } from './support/content.ts';

const require = createRequire(import.meta.url);
const S3rver = require('s3rver') as new (options: Record<string, unknown>) => { run(): Promise<{ port: number }>; close(): Promise<void> };

const jpeg = (width = 640, height = 480) => sharp({ create: { width, height, channels: 3, background: '#c33' } }).jpeg().toBuffer();
const png = (width = 500, height = 400) => sharp({ create: { width, height, channels: 4, background: { r: 0, g: 90, b: 200, alpha: 0.5 } } }).png().toBuffer();
const svg = Buffer.from('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>');
const pdf = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n');

type Part = [name: string, value: string] | [name: string, content: Buffer, filename: string];

/** A multipart body as a browser (or the BagelDB client's FormData) would send it. */
async function multipart(parts: Part[]) {
  const form = new FormData();
  for (const part of parts) {
    if (part.length === 2) form.append(part[0], part[1]);
    else form.append(part[0], new Blob([new Uint8Array(part[1])]), part[2]);
  }
  const request = new Request('http://larder.test/', { method: 'PUT', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type')! } };
}

type Storage = 'local' | 's3';
const setups: [DatabaseKind, Storage][] = [...databaseKinds.map((kind) => [kind, 'local'] as [DatabaseKind, Storage]), ['pglite', 's3']];

describe.each(setups)('files on %s with %s storage', (kind, storageKind) => {
  let t: TestApp;
  let f: ContentFixture;
  let viewer: string;
  let stranger: string;
  let dataDir: string;
  let s3: { close(): Promise<void> } | undefined;
  let n = 0;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'larder-files-api-'));
    const env: Record<string, string> = { DATA_DIR: dataDir, FILES_SWEEP_INTERVAL_S: '0' };
    if (storageKind === 's3') {
      const server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: path.join(dataDir, 's3'), configureBuckets: [{ name: 'files' }] });
      const { port } = await server.run();
      s3 = server;
      Object.assign(env, {
        FILES_STORAGE: 's3',
        S3_ENDPOINT: `http://127.0.0.1:${port}`,
        S3_BUCKET: 'files',
        S3_ACCESS_KEY_ID: 'S3RVER',
        S3_SECRET_ACCESS_KEY: 'S3RVER',
      });
    }
    t = await createTestApp(kind, env);
    f = await contentFixture(t);
    const member = async (prefix: string, flags: Record<string, boolean> | undefined) => {
      const { tokens } = await verifiedUser(t.app, prefix);
      if (flags) {
        const me = json(await t.app.inject({ method: 'GET', url: '/api/user/me', headers: bearer(tokens.access_token) }));
        await t.database.db.insert(memberships).values({ organizationId: f.org, userId: me._id, permissions: flags });
      }
      return tokens.access_token as string;
    };
    viewer = await member('viewer', { read: true });
    stranger = await member('strang', undefined);
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  async function collection() {
    const id = `media${++n}`;
    await createCollection(f, {
      id,
      name: 'Media',
      schema: [
        { name: 'Title', slug: 'title', type: 1 },
        { name: 'Photo', slug: 'photo', type: 5 },
        { name: 'Gallery', slug: 'gallery', type: 11 },
        { name: 'Document', slug: 'doc', type: 5, accept: 'application/pdf' },
        { name: 'Chapters', slug: 'chapters', type: 12, nestedCollectionSchema: [{ name: 'Cover', slug: 'cover', type: 5 }] },
      ],
    });
    const item = await createItem(f, id, { title: 'first' });
    return { id, item: item._id as string, version: item._lastUpdatedDate as string };
  }

  async function upload(where: string, parts: Part[], options: { access?: string; headers?: Record<string, string> } = {}) {
    const body = await multipart(parts);
    return f.call('PUT', where, body.payload, { access: options.access ?? f.access, headers: { ...body.headers, ...options.headers } });
  }

  const keyOf = (url: string) => new URL(url).pathname.replace(/^\/files\//, '');
  const serve = (url: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'GET', url: new URL(url).pathname + new URL(url).search, headers });
  const stored = (url: string) => t.app.files.storage.exists(keyOf(url));
  const registered = async () => {
    const result = (await t.database.db.execute(sql`select key from stored_files where project_id = ${f.project}`)) as unknown as { rows: { key: string }[] };
    return result.rows.map((r) => r.key).sort();
  };
  // Spool files sit in a folder per process (server/files/leftovers.ts).
  const spooled = () =>
    existsSync(path.join(dataDir, 'uploads')) ? readdirSync(path.join(dataDir, 'uploads'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name) : [];

  it('uploads a JPEG into an ImageRef: the item changes version, a live event is kept and the file is served inline', async () => {
    const c = await collection();
    const bytes = await jpeg();
    const response = await upload(`collection/${c.id}/item/${c.item}/image?imageSlug=photo&nestedID=`, [
      ['altText', 'A red square'],
      ['imageFile', bytes, 'red.jpg'],
    ]);
    expect(response.statusCode, response.body).toBe(200);
    const item = json(response);
    expect(item.photo).toEqual({ imageURL: expect.stringMatching(/^http:\/\/larder\.test\/files\/p\/[0-9a-f]{24}\/c\/[0-9a-f]{24}\/i\/[0-9a-f]{24}\/[0-9a-f]{32}\.jpg$/), imageName: expect.stringMatching(/^[0-9a-f]{32}\.jpg$/), altText: 'A red square', extension: 'jpg', fileName: 'red.jpg' });
    expect(item.photo.imageURL.endsWith(item.photo.imageName)).toBe(true);
    expect(item._lastUpdatedDate > c.version).toBe(true);
    expect(response.headers.etag).toBe(`"${item._lastUpdatedDate}"`);
    const events = (await t.database.db.execute(sql`select trigger from item_events where item_id = ${c.item} order by id`)) as unknown as { rows: { trigger: string }[] };
    expect(events.rows.map((r) => r.trigger)).toEqual(['create', 'update']);
    // The item as read later holds the same value.
    expect(json(await f.call('GET', `collection/${c.id}/item/${c.item}`)).photo).toEqual(item.photo);

    const file = await serve(item.photo.imageURL);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/jpeg');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['content-disposition']).toBe(`inline; filename="red.jpg"; filename*=UTF-8''red.jpg`);
    expect(file.rawPayload.equals(bytes)).toBe(true);
    expect(Number(file.headers['content-length'])).toBe(bytes.length);

    // Revalidation and ranges.
    expect((await serve(item.photo.imageURL, { 'if-none-match': String(file.headers.etag) })).statusCode).toBe(304);
    const part = await serve(item.photo.imageURL, { range: 'bytes=0-9' });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 0-9/${bytes.length}`);
    expect(part.rawPayload.equals(bytes.subarray(0, 10))).toBe(true);
    expect((await serve(item.photo.imageURL, { range: `bytes=${bytes.length + 5}-` })).statusCode).toBe(416);
    expect(spooled()).toEqual([]);
  });

  it('makes 200 and 300 pixel thumbnails on request, caches them, and refuses other sizes', async () => {
    const c = await collection();
    const item = json(await upload(`collection/${c.id}/item/${c.item}/image?imageSlug=photo`, [['imageFile', await png(), 'blue.png']]));
    expect(item.photo.extension).toBe('png');
    for (const size of [200, 300]) {
      const thumb = await serve(`${item.photo.imageURL}?resize=${size}`);
      expect(thumb.statusCode, thumb.body).toBe(200);
      expect(thumb.headers['content-type']).toBe('image/webp');
      const meta = await sharp(thumb.rawPayload).metadata();
      expect(meta.width).toBe(size);
      expect(meta.height).toBe(Math.round((size * 400) / 500));
      expect(await t.app.files.storage.exists(`${keyOf(item.photo.imageURL)}.w${size}`)).toBe(true);
    }
    // A JPEG's thumbnail is a JPEG.
    const other = json(await upload(`collection/${c.id}/item/${c.item}/image?imageSlug=gallery`, [['imageFile', await jpeg(), 'red.jpeg']]));
    const jpegThumb = await serve(`${other.gallery[0].imageURL}?resize=200`);
    expect(jpegThumb.headers['content-type']).toBe('image/jpeg');
    expect((await sharp(jpegThumb.rawPayload).metadata()).format).toBe('jpeg');

    for (const bad of ['250', '0', '200.0', 'abc', '2000', '']) {
      expectProblem(await serve(`${item.photo.imageURL}?resize=${bad}`), 400, 'bad_thumbnail_size');
    }
  });

  it('downloads with download=true', async () => {
    const c = await collection();
    const item = json(await upload(`collection/${c.id}/item/${c.item}/image?imageSlug=photo`, [['imageFile', await jpeg(), 'Käse photo.jpg']]));
    const file = await serve(`${item.photo.imageURL}?download=true`);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toBe(`attachment; filename="K_se photo.jpg"; filename*=UTF-8''K%C3%A4se%20photo.jpg`);
  });

  it('serves an SVG (which can hold script) as a sandboxed attachment, and refuses it a thumbnail', async () => {
    const c = await collection();
    const response = await upload(`collection/${c.id}/item/${c.item}/image?imageSlug=photo`, [['imageFile', svg, 'logo.svg']]);
    expect(response.statusCode, response.body).toBe(200);
    const item = json(response);
    expect(item.photo.extension).toBe('svg');
    const file = await serve(item.photo.imageURL);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(file.headers['content-disposition']).toMatch(/^attachment; filename="logo\.svg"/);
    expect(file.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expectProblem(await serve(`${item.photo.imageURL}?resize=200`), 400, 'not_an_image');
  });

  it('takes a PDF where the field accepts it and refuses what the field does not accept', async () => {
    const c = await collection();
    const ok = await upload(`collection/${c.id}/item/${c.item}/image?imageSlug=doc`, [['imageFile', pdf, 'terms.pdf']]);
    expect(ok.statusCode, ok.body).toBe(200);
    const file = await serve(json(ok).doc.imageURL);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toMatch(/^inline/);
    const before = await registered();
    expectProblem(await upload(`collection/${c.id}/item/${c.item}/image?imageSlug=doc`, [['imageFile', await jpeg(), 'photo.jpg']]), 415, 'type_not_accepted');
    // The default accept list is image/* and application/pdf: an HTML page is none of them.
    const html = Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>');
    expectProblem(await upload(`collection/${c.id}/item/${c.item}/image?imageSlug=photo`, [['imageFile', html, 'page.html']]), 415, 'type_not_accepted');
    expect(await registered()).toEqual(before);
    expect(spooled()).toEqual([]);
  });

  it('reads the real type from the bytes: lying names and empty files are refused and nothing is stored', async () => {
    const c = await collection();
    const before = await registered();
    const cases: [Buffer, string, number, string][] = [
      [await png(), 'holiday.jpg', 415, 'type_mismatch'],
      [await jpeg(), 'holiday.png', 415, 'type_mismatch'],
      [Buffer.from('just some text, not an image'), 'fake.png', 415, 'type_mismatch'],
      [await png(), 'drawing.svg', 415, 'type_mismatch'],
      [Buffer.from('plain words'), 'drawing.svg', 415, 'type_mismatch'],
      [Buffer.alloc(0), 'empty.png', 400, 'empty_file'],
    ];
    for (const [bytes, name, status, code] of cases) {
      expectProblem(await upload(`collection/${c.id}/item/${c.item}/image?imageSlug=photo`, [['imageFile', bytes, name]]), status, code);
      expect(spooled(), name).toEqual([]);
    }
    // A name without an extension is fine: the bytes decide.
    const unnamed = await upload(`collection/${c.id}/item/${c.item}/image?imageSlug=photo`, [['imageFile', await png(), 'clipboard']]);
    expect(unnamed.statusCode, unnamed.body).toBe(200);
    expect(json(unnamed).photo.extension).toBe('png');
    expect((await registered()).length).toBe(before.length + 1);
    expect(spooled()).toEqual([]);
  });

  it('refuses malformed calls with a clear problem', async () => {
    const c = await collection();
    const base = `collection/${c.id}/item/${c.item}/image`;
    expectProblem(await upload(`${base}?imageSlug=title`, [['imageFile', await jpeg(), 'a.jpg']]), 400, 'validation_failed');
    expectProblem(await upload(`${base}?imageSlug=nothing`, [['imageFile', await jpeg(), 'a.jpg']]), 400, 'validation_failed');
    expectProblem(await upload(`${base}?imageSlug=photo`, [['altText', 'only text']]), 400, 'validation_failed');
    expectProblem(await upload(`${base}?imageSlug=photo`, [['imageFile', await jpeg(), 'a.jpg'], ['imageLink', 'https://example.com/a.jpg']]), 400, 'validation_failed');
    expectProblem(await upload(`${base}?imageSlug=photo`, [['surprise', 'x']]), 400, 'validation_failed');
    expectProblem(await upload(`${base}?imageSlug=photo`, [['altText', 'x'.repeat(1001)], ['imageFile', await jpeg(), 'a.jpg']]), 400, 'validation_failed');
    expectProblem(await upload(`${base}?imageSlug=photo`, [['imageLink', 'javascript:alert(1)']]), 400, 'validation_failed');
    expectProblem(await f.call('PUT', `${base}?imageSlug=photo`, { imageLink: 'https://example.com/a.jpg' }), 415, 'multipart_expected');
    expectProblem(await upload(`collection/${c.id}/item/${'f'.repeat(24)}/image?imageSlug=photo`, [['imageFile', await jpeg(), 'a.jpg']]), 404, 'item_not_found');
    expectProblem(await upload(`${base}?imageSlug=photo&nestedID=chapters`, [['imageFile', await jpeg(), 'a.jpg']]), 400, 'validation_failed');
    expectProblem(await upload(`${base}?imageSlug=photo&nestedID=..%2F..`, [['imageFile', await jpeg(), 'a.jpg']]), 400, 'validation_failed');
    expect((await registered()).filter((key) => key.includes(`/i/${c.item}/`))).toEqual([]);
    expect(spooled()).toEqual([]);
  });

  it('keeps a link as it is, storing nothing', async () => {
    const c = await collection();
    const before = await registered();
    const response = await upload(`collection/${c.id}/item/${c.item}/image?imageSlug=photo&nestedID=`, [
      ['altText', 'elsewhere'],
      ['imageLink', 'https://images.example.com/path/sun%20set.png?size=large'],
    ]);
    expect(response.statusCode, response.body).toBe(200);
    expect(json(response).photo).toEqual({ imageURL: 'https://images.example.com/path/sun%20set.png?size=large', imageName: 'sun set.png', altText: 'elsewhere', extension: 'png', fileName: 'sun set.png' });
    expect(await registered()).toEqual(before);
  });

  it('replacing an image deletes the old file and its thumbnails', async () => {
    const c = await collection();
    const first = json(await upload(`collection/${c.id}/item/${c.item}/image?imageSlug=photo`, [['imageFile', await jpeg(), 'one.jpg']]));
    expect((await serve(`${first.photo.imageURL}?resize=200`)).statusCode).toBe(200);
    const second = json(await upload(`collection/${c.id}/item/${c.item}/image?imageSlug=photo`, [['imageFile', await jpeg(320, 200), 'two.jpg']]));
    expect(second.photo.imageURL).not.toBe(first.photo.imageURL);
    expect(await stored(first.photo.imageURL)).toBe(false);
    expect(await t.app.files.storage.exists(`${keyOf(first.photo.imageURL)}.w200`)).toBe(false);
    expectProblem(await serve(first.photo.imageURL), 404, 'file_not_found');
    expect(await stored(second.photo.imageURL)).toBe(true);
    expect((await registered()).filter((key) => key.includes(`/i/${c.item}/`))).toEqual([keyOf(second.photo.imageURL)]);
  });

  it('an image set appends uploads and removes one entry (and its file) at a time', async () => {
    const c = await collection();
    const at = `collection/${c.id}/item/${c.item}/image`;
    const a = json(await upload(`${at}?imageSlug=gallery`, [['altText', 'a'], ['imageFile', await jpeg(), 'a.jpg']]));
    const b = json(await upload(`${at}?imageSlug=gallery`, [['altText', 'b'], ['imageFile', await png(), 'b.png']]));
    const c3 = json(await upload(`${at}?imageSlug=gallery`, [['altText', 'c'], ['imageFile', await png(), 'c.png']]));
    expect(a.gallery).toHaveLength(1);
    expect(b.gallery).toHaveLength(2);
    const set = c3.gallery as { _id: string; imageURL: string; imageName: string; altText: string }[];
    expect(set.map((image) => image.altText)).toEqual(['a', 'b', 'c']);
    expect(new Set(set.map((image) => image._id)).size).toBe(3);

    const byId = await f.call('DELETE', `${at}?fieldSlug=gallery&nestedID=&imageID=${set[1]!._id}`);
    expect(byId.statusCode, byId.body).toBe(200);
    expect(json(byId).gallery.map((image: { altText: string }) => image.altText)).toEqual(['a', 'c']);
    expect(await stored(set[1]!.imageURL)).toBe(false);
    expect(await stored(set[0]!.imageURL)).toBe(true);

    const byName = await f.call('DELETE', `${at}?fieldSlug=gallery&imageName=${set[0]!.imageName}`);
    expect(json(byName).gallery.map((image: { altText: string }) => image.altText)).toEqual(['c']);
    expect(await stored(set[0]!.imageURL)).toBe(false);

    expectProblem(await f.call('DELETE', `${at}?fieldSlug=gallery&imageName=${set[0]!.imageName}`), 404, 'image_not_found');
    expectProblem(await f.call('DELETE', `${at}?fieldSlug=gallery`), 400, 'validation_failed');
    expect(await stored(set[2]!.imageURL)).toBe(true);
  });

  it('deleting the image of an ImageRef empties the field and deletes the file', async () => {
    const c = await collection();
    const item = json(await upload(`collection/${c.id}/item/${c.item}/image?imageSlug=photo`, [['imageFile', await jpeg(), 'a.jpg']]));
    const removed = await f.call('DELETE', `collection/${c.id}/item/${c.item}/image?fieldSlug=photo&nestedID=`);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(json(removed).photo).toBeUndefined();
    expect(await stored(item.photo.imageURL)).toBe(false);
    expectProblem(await f.call('DELETE', `collection/${c.id}/item/${c.item}/image?fieldSlug=photo`), 404, 'image_not_found');
  });

  it('a write based on an old version is refused (409) and leaves no file', async () => {
    const c = await collection();
    await f.call('PUT', `collection/${c.id}/item/${c.item}`, { title: 'changed' });
    const before = await registered();
    const stale = await upload(`collection/${c.id}/item/${c.item}/image?imageSlug=photo`, [['imageFile', await jpeg(), 'a.jpg']], { headers: { 'if-match': `"${c.version}"` } });
    expect(stale.statusCode, stale.body).toBe(409);
    expect(json(stale).item.title).toBe('changed');
    expect(await registered()).toEqual(before);
  });

  it('nested items take images through nestedID, and lose them with the nested item', async () => {
    const c = await collection();
    const chapter = await createItem(f, c.id, {}, { item: c.item, nestedID: 'chapters' });
    const response = await upload(`collection/${c.id}/item/${c.item}/image?imageSlug=cover&nestedID=chapters.${chapter._id}`, [['imageFile', await jpeg(), 'cover.jpg']]);
    expect(response.statusCode, response.body).toBe(200);
    const cover = json(response).cover;
    expect(json(await f.call('GET', `collection/${c.id}/item/${c.item}?nestedID=chapters.${chapter._id}`)).cover).toEqual(cover);
    expect(await stored(cover.imageURL)).toBe(true);
    // The top-level item has no cover field.
    expectProblem(await upload(`collection/${c.id}/item/${c.item}/image?imageSlug=cover`, [['imageFile', await jpeg(), 'cover.jpg']]), 400, 'validation_failed');

    expect((await f.call('DELETE', `collection/${c.id}/item/${c.item}?nestedID=chapters.${chapter._id}`)).statusCode).toBe(204);
    await t.app.files.idle();
    expect(await stored(cover.imageURL)).toBe(false);
  });

  it('deleting an item deletes its files and those of its nested items', async () => {
    const c = await collection();
    const chapter = await createItem(f, c.id, {}, { item: c.item, nestedID: 'chapters' });
    const top = json(await upload(`collection/${c.id}/item/${c.item}/image?imageSlug=gallery`, [['imageFile', await jpeg(), 'a.jpg']]));
    const nested = json(await upload(`collection/${c.id}/item/${c.item}/image?imageSlug=cover&nestedID=chapters.${chapter._id}`, [['imageFile', await png(), 'b.png']]));
    const other = await createItem(f, c.id, { title: 'other' });
    const kept = json(await upload(`collection/${c.id}/item/${other._id}/image?imageSlug=photo`, [['imageFile', await jpeg(), 'c.jpg']]));

    expect((await f.call('DELETE', `collection/${c.id}/item/${c.item}`)).statusCode).toBe(204);
    await t.app.files.idle();
    expect(await stored(top.gallery[0].imageURL)).toBe(false);
    expect(await stored(nested.cover.imageURL)).toBe(false);
    expect(await stored(kept.photo.imageURL)).toBe(true);
    expect(await registered()).toContain(keyOf(kept.photo.imageURL));
  });

  it('clearing an image through the item write API, deleting its field or its collection deletes the files', async () => {
    const c = await collection();
    const photo = json(await upload(`collection/${c.id}/item/${c.item}/image?imageSlug=photo`, [['imageFile', await jpeg(), 'a.jpg']])).photo;
    const doc = json(await upload(`collection/${c.id}/item/${c.item}/image?imageSlug=doc`, [['imageFile', pdf, 'a.pdf']])).doc;
    const gallery = json(await upload(`collection/${c.id}/item/${c.item}/image?imageSlug=gallery`, [['imageFile', await jpeg(), 'b.jpg']])).gallery;

    expect((await f.call('PUT', `collection/${c.id}/item/${c.item}`, { photo: null })).statusCode).toBe(200);
    await t.app.files.idle();
    expect(await stored(photo.imageURL)).toBe(false);
    expect(await stored(doc.imageURL)).toBe(true);

    const schema = json(await f.call('GET', `collection/${c.id}/schema`)) as { id: string; slug: string }[];
    expect((await f.call('DELETE', `collection/${c.id}/field/${schema.find((s) => s.slug === 'doc')!.id}`)).statusCode).toBe(204);
    await t.app.files.idle();
    expect(await stored(doc.imageURL)).toBe(false);
    expect(await stored(gallery[0].imageURL)).toBe(true);

    expect((await f.call('DELETE', `collection/${c.id}`)).statusCode).toBe(204);
    await t.app.files.idle();
    expect(await stored(gallery[0].imageURL)).toBe(false);
    expect((await registered()).filter((key) => key.includes(`/i/${c.item}/`))).toEqual([]);
  });

  it('only members with the update right upload or delete; file addresses are readable without a token', async () => {
    const c = await collection();
    const at = `collection/${c.id}/item/${c.item}/image`;
    const before = await registered();
    for (const access of [viewer, stranger]) {
      const refused = await upload(`${at}?imageSlug=photo`, [['imageFile', await jpeg(), 'a.jpg']], { access });
      expect(refused.statusCode, refused.body).toBe(403);
      expect(json(refused).code).toMatch(/^(not_a_member|insufficient_permissions)$/);
      expect((await upload('asset', [['asset', await jpeg(), 'a.jpg']], { access })).statusCode).toBe(403);
    }
    expect(await registered()).toEqual(before);
    const noToken = await t.app.inject({ method: 'PUT', url: `/api/organization/${f.org}/project/${f.project}/${at}?imageSlug=photo`, ...(await multipart([['imageFile', await jpeg(), 'a.jpg']])) });
    expect(noToken.statusCode).toBe(401);

    const item = json(await upload(`${at}?imageSlug=photo`, [['imageFile', await jpeg(), 'a.jpg']]));
    for (const access of [viewer, stranger]) {
      expect((await f.call('DELETE', `${at}?fieldSlug=photo`, undefined, { access })).statusCode).toBe(403);
    }
    expect(await stored(item.photo.imageURL)).toBe(true);
    // Image addresses are capabilities: <img> tags carry no token (contract: URLs must be downloadable as they are).
    expect((await serve(item.photo.imageURL)).statusCode).toBe(200);
  });

  it('stores project assets and answers their URLs', async () => {
    const one = await upload('asset', [['asset', await png(), 'inline.png']]);
    expect(one.statusCode, one.body).toBe(201);
    const asset = json(one);
    expect(asset).toMatchObject({ url: expect.stringMatching(/^http:\/\/larder\.test\/files\/p\/[0-9a-f]{24}\/a\/[0-9a-f]{32}\.png$/), name: 'inline.png', extension: 'png', contentType: 'image/png' });
    expect((await serve(asset.url)).statusCode).toBe(200);
    const many = await upload('assets', [
      ['asset', await jpeg(), 'a.jpg'],
      ['asset', Buffer.from('a,b\n1,2\n'), 'table.csv'],
    ]);
    expect(many.statusCode, many.body).toBe(201);
    const list = json(many) as { url: string; contentType: string; extension: string }[];
    expect(list.map((entry) => [entry.extension, entry.contentType])).toEqual([
      ['jpg', 'image/jpeg'],
      ['csv', 'text/csv'],
    ]);
    const csv = await serve(list[1]!.url);
    expect(csv.headers['content-disposition']).toMatch(/^attachment/);
    expect(csv.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expectProblem(await upload('asset', [['asset', await jpeg(), 'a.jpg'], ['asset', await jpeg(), 'b.jpg']]), 400, 'validation_failed');
    expectProblem(await upload('asset', [['altText', 'x']]), 400, 'validation_failed');
  });

  it('refuses file addresses that are not the server’s own keys', async () => {
    const c = await collection();
    const item = json(await upload(`collection/${c.id}/item/${c.item}/image?imageSlug=photo`, [['imageFile', await jpeg(), 'a.jpg']]));
    const key = keyOf(item.photo.imageURL);
    for (const url of [
      '/files/../../etc/passwd',
      '/files/..%2F..%2Fetc%2Fpasswd',
      '/files/%2e%2e/%2e%2e/etc/passwd',
      `/files/${key.replace(/\/[^/]+$/, '')}/../../../../../etc/passwd`,
      `/files/${key}.w200`,
      `/files/${key}/`,
      `/files/${key.toUpperCase()}`,
      '/files/.tmp/x',
    ]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body).not.toMatch(/root:/);
    }
    // A NUL is refused before any route reads the address (docs/errors.md "Text").
    expectProblem(await t.app.inject({ method: 'GET', url: `/files/${key}%00.png` }), 400, 'invalid_text');
  });

  it('a periodic sweep removes files abandoned by a crash, keeping uploads still in progress', async () => {
    const c = await collection();
    const owner = { projectId: f.project, collectionId: '', rootItemId: c.item, itemTable: '', itemId: c.item, fieldColumn: '' };
    const row = (await t.database.db.execute(sql`select id, schema from content_collections where project_id = ${f.project} and slug = ${c.id}`)) as unknown as {
      rows: { id: string; schema: { id: string; slug: string }[] }[];
    };
    Object.assign(owner, { collectionId: row.rows[0]!.id, itemTable: `content_${row.rows[0]!.id}`, fieldColumn: `f_${row.rows[0]!.schema.find((s) => s.slug === 'photo')!.id}` });
    const put = async (key: string) => {
      await t.app.files.register(key, owner, { contentType: 'image/jpeg', name: 'x.jpg', size: 3 });
      const { Readable } = await import('node:stream');
      await t.app.files.storage.put(key, Readable.from([Buffer.from('abc')]), { size: 3, contentType: 'image/jpeg' });
    };
    const base = `p/${f.project}/c/${owner.collectionId}/i/${c.item}`;
    const abandoned = `${base}/${'a'.repeat(32)}.jpg`;
    const inProgress = `${base}/${'b'.repeat(32)}.jpg`;
    const ofGoneItem = `p/${f.project}/c/${owner.collectionId}/i/${'e'.repeat(24)}/${'c'.repeat(32)}.jpg`;
    await put(abandoned);
    await t.database.db.execute(sql`update stored_files set created_at = now() - interval '1 day' where key = ${abandoned}`);
    await put(inProgress);
    await t.app.files.register(ofGoneItem, { ...owner, rootItemId: 'e'.repeat(24), itemId: 'e'.repeat(24) }, { contentType: 'image/jpeg', name: 'x.jpg', size: 3 });
    await t.app.files.markAttached(ofGoneItem);

    await t.app.files.sweepAll();
    expect(await t.app.files.storage.exists(abandoned)).toBe(false);
    expect(await t.app.files.storage.exists(inProgress)).toBe(true);
    const left = await registered();
    expect(left).not.toContain(abandoned);
    expect(left).not.toContain(ofGoneItem);
    expect(left).toContain(inProgress);
    await t.app.files.remove(inProgress);
  });

  it('refuses a thumbnail of a pixel flood without decoding it, and stays up', async () => {
    // A valid PNG header claiming 30000 × 30000 pixels (900 million) over almost no data.
    const chunk = (type: string, data: Buffer) => {
      const length = Buffer.alloc(4);
      length.writeUInt32BE(data.length);
      const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(zlib.crc32(body));
      return Buffer.concat([length, body, crc]);
    };
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(30_000, 0);
    ihdr.writeUInt32BE(30_000, 4);
    ihdr.set([8, 0, 0, 0, 0], 8);
    const flood = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', ihdr),
      chunk('IDAT', zlib.deflateSync(Buffer.alloc(1000))),
      chunk('IEND', Buffer.alloc(0)),
    ]);
    const c = await collection();
    const response = await upload(`collection/${c.id}/item/${c.item}/image?imageSlug=photo`, [['imageFile', flood, 'flood.png']]);
    expect(response.statusCode, response.body).toBe(200);
    const url = json(response).photo.imageURL as string;
    const thumb = await serve(`${url}?resize=200`);
    expectProblem(thumb, 400, 'unreadable_image');
    expect(json(thumb).detail).toMatch(/pixel/i);
    expect(await t.app.files.storage.exists(`${keyOf(url)}.w200`)).toBe(false);
    expect((await serve(url)).statusCode).toBe(200);
  });

  it('deleting a project deletes its files, assets included', async () => {
    const other = await f.otherProject();
    await createCollection(other, { id: 'gone', name: 'Gone', schema: [{ name: 'Photo', slug: 'photo', type: 5 }] });
    const item = await createItem(other, 'gone', {});
    const body = await multipart([['imageFile', await jpeg(), 'a.jpg']]);
    const photo = json(await other.call('PUT', `collection/gone/item/${item._id}/image?imageSlug=photo`, body.payload, { headers: body.headers })).photo;
    const assetBody = await multipart([['asset', await png(), 'a.png']]);
    const asset = json(await other.call('PUT', 'asset', assetBody.payload, { headers: assetBody.headers }));
    expect(await stored(photo.imageURL)).toBe(true);
    expect(await stored(asset.url)).toBe(true);
    const deleted = await t.app.inject({ method: 'DELETE', url: `/api/organization/${f.org}/project/${other.project}`, headers: bearer(f.access) });
    expect(deleted.statusCode, deleted.body).toBe(204);
    await t.app.files.idle();
    expect(await stored(photo.imageURL)).toBe(false);
    expect(await stored(asset.url)).toBe(false);
    const left = (await t.database.db.execute(sql`select count(*)::int as n from stored_files where project_id = ${other.project}`)) as unknown as { rows: { n: number }[] };
    expect(left.rows[0]!.n).toBe(0);
  });

  describe('over real HTTP', () => {
    let origin: string;
    beforeAll(async () => {
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      origin = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    });

    /** Streams a multipart upload of `size` bytes of JPEG-looking data; resolves with the answer and how much had been sent by then. */
    function streamUpload(url: string, size: number): Promise<{ status: number; body: string; sentAtAnswer: number; total: number }> {
      const boundary = '----larder-test-boundary';
      const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="altText"\r\n\r\nbig\r\n--${boundary}\r\nContent-Disposition: form-data; name="imageFile"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`);
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
      const chunk = Buffer.alloc(64 * 1024, 0x41);
      chunk[0] = 0xff;
      chunk[1] = 0xd8;
      chunk[2] = 0xff;
      const total = head.length + size + tail.length;
      return new Promise((resolve, reject) => {
        let sent = 0;
        let answered = false;
        const request = http.request(url, {
          method: 'PUT',
          headers: { ...bearer(f.access), 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': total },
        });
        request.on('response', (response) => {
          const sentAtAnswer = sent;
          answered = true;
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (d: string) => (body += d));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, body, sentAtAnswer, total }));
        });
        request.on('error', (error) => (answered ? undefined : reject(error)));
        const write = () => {
          let ok = true;
          if (sent === 0) {
            ok = request.write(head);
            sent += head.length;
          }
          while (ok && !answered && sent < head.length + size) {
            const left = head.length + size - sent;
            const piece = left >= chunk.length ? chunk : chunk.subarray(0, left);
            ok = request.write(piece);
            sent += piece.length;
          }
          if (answered) return request.destroy();
          if (sent >= head.length + size) return request.end(tail);
          request.once('drain', write);
        };
        write();
      });
    }

    it('answers 413 to an 11 MB upload while it streams, keeping no part of it', async () => {
      const c = await collection();
      const before = await registered();
      const result = await streamUpload(`${origin}/api/organization/${f.org}/project/${f.project}/collection/${c.id}/item/${c.item}/image?imageSlug=photo&nestedID=`, 11_000_000);
      expect(result.status, result.body).toBe(413);
      expect(JSON.parse(result.body).code).toBe('file_too_large');
      expect(await registered()).toEqual(before);
      expect(spooled()).toEqual([]);
      expect(json(await f.call('GET', `collection/${c.id}/item/${c.item}`)).photo).toBeUndefined();
    });

    it('does not buffer: a 200 MB upload is answered long before it is all sent, and memory stays flat', async () => {
      const c = await collection();
      const baseline = process.memoryUsage();
      let peak = 0;
      const sampler = setInterval(() => {
        const now = process.memoryUsage();
        peak = Math.max(peak, now.rss - baseline.rss);
      }, 5);
      try {
        const result = await streamUpload(`${origin}/api/organization/${f.org}/project/${f.project}/collection/${c.id}/item/${c.item}/image?imageSlug=photo`, 200_000_000);
        expect(result.status, result.body).toBe(413);
        // The answer came at the limit (plus what the sockets hold), not after the whole body.
        expect(result.sentAtAnswer).toBeLessThan(result.total / 2);
      } finally {
        clearInterval(sampler);
      }
      // Buffering would cost at least the 10 MB limit; streaming costs a few socket buffers.
      expect(peak).toBeLessThan(100_000_000);
      expect(spooled()).toEqual([]);
    });

    it('takes a file of exactly the limit', async () => {
      const c = await collection();
      const bytes = await jpeg(16, 16);
      const filler = Buffer.alloc(10_000_000 - bytes.length, 0);
      const body = await multipart([['imageFile', Buffer.concat([bytes, filler]), 'exact.jpg']]);
      const response = await fetch(`${origin}/api/organization/${f.org}/project/${f.project}/collection/${c.id}/item/${c.item}/image?imageSlug=photo`, {
        method: 'PUT',
        headers: { ...bearer(f.access), ...body.headers },
        body: body.payload,
      });
      expect(response.status, await response.clone().text()).toBe(200);
      const item = (await response.json()) as { photo: { imageURL: string } };
      expect((await t.app.files.storage.stat(keyOf(item.photo.imageURL)))?.size).toBe(10_000_000);
    });
  });
});
