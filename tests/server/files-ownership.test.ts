/**
 * Who owns a stored file once its address is copied (docs/files.md, docs/files.md): a duplicate
 * made by the console, an item created or changed through the console or public API with values
 * naming files another item holds, each get copies of their own, so deleting the original (and
 * the sweep that follows) never breaks them. Also: an upload keeps the name it was sent with.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { createTestApp, databaseKinds, json, type TestApp } from './support/test-app.ts';
import { bearer } from './support/flows.ts';
import { contentFixture, createCollection, createItem, type ContentFixture } from './support/content.ts';
import { mintToken } from './support/end-users.ts';
import { duplicateValues } from '../../machines/item-form-rules.ts';

const jpeg = () => sharp({ create: { width: 64, height: 48, channels: 3, background: '#c33' } }).jpeg().toBuffer();
const png = () => sharp({ create: { width: 40, height: 30, channels: 4, background: { r: 0, g: 90, b: 200, alpha: 0.5 } } }).png().toBuffer();

async function multipart(parts: ([string, string] | [string, Buffer, string])[]) {
  const form = new FormData();
  for (const part of parts) {
    if (part.length === 2) form.append(part[0], part[1]);
    else form.append(part[0], new Blob([new Uint8Array(part[1])]), part[2]);
  }
  const request = new Request('http://larder.test/', { method: 'PUT', body: form });
  return { payload: Buffer.from(await request.arrayBuffer()), headers: { 'content-type': request.headers.get('content-type')! } };
}

describe.each(databaseKinds)('file ownership on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let dataDir: string;
  let n = 0;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'larder-files-owner-'));
    t = await createTestApp(kind, { DATA_DIR: dataDir, FILES_SWEEP_INTERVAL_S: '0'});
    f = await contentFixture(t);
  });
  afterAll(async () => {
    await t?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const schema = [
    { name: 'Title', slug: 'title', type: 1 },
    { name: 'Photo', slug: 'photo', type: 5 },
    { name: 'Gallery', slug: 'gallery', type: 11 },
    { name: 'Chapters', slug: 'chapters', type: 12, nestedCollectionSchema: [{ name: 'Cover', slug: 'cover', type: 5 }] },
  ];

  async function collection() {
    const id = `owned${++n}`;
    await createCollection(f, { id, name: 'Owned', schema });
    return id;
  }

  async function upload(where: string, parts: ([string, string] | [string, Buffer, string])[]) {
    const body = await multipart(parts);
    const response = await f.call('PUT', where, body.payload, { headers: body.headers });
    expect(response.statusCode, response.body).toBe(200);
    return json(response);
  }

  /** An item with a photo and two gallery images, as uploaded in the console. */
  async function original(c: string) {
    const item = await createItem(f, c, { title: 'original' });
    const photo = await jpeg();
    const first = await png();
    await upload(`collection/${c}/item/${item._id}/image?imageSlug=photo&nestedID=`, [['altText', 'Red'], ['imageFile', photo, 'Red square.jpg']]);
    await upload(`collection/${c}/item/${item._id}/image?imageSlug=gallery`, [['imageFile', first, 'first.png']]);
    const full = await upload(`collection/${c}/item/${item._id}/image?imageSlug=gallery`, [['altText', 'Second'], ['imageFile', photo, 'second.jpg']]);
    return { item: full, bytes: { photo, first } };
  }

  const download = (url: string) => t.app.inject({ method: 'GET', url: new URL(url).pathname });
  const schemaOf = () => schema.map((field, i) => ({ ...field, id: `f${i}` })) as never;

  /** Deletes an item, then runs the request's sweep and the periodic one. */
  async function deleteAndSweep(c: string, id: string) {
    expect((await f.call('DELETE', `collection/${c}/item/${id}`)).statusCode).toBe(204);
    await t.app.files.idle();
    await t.app.files.sweepAll();
  }

  it('a duplicate made as the console makes it owns copies of the files: they still download after the original is deleted and swept', async () => {
    const c = await collection();
    const { item, bytes } = await original(c);
    const copy = await createItem(f, c, duplicateValues(schemaOf(), item));
    expect(copy.photo.imageURL).not.toBe(item.photo.imageURL);
    expect(copy.photo).toEqual({ imageURL: expect.stringContaining(`/i/${copy._id}/`), imageName: copy.photo.imageURL.split('/').pop(), altText: 'Red', extension: 'jpg', fileName: 'Red square.jpg' });
    expect(copy.gallery.map((entry: { altText: string; fileName: string }) => [entry.altText, entry.fileName])).toEqual([['', 'first.png'], ['Second', 'second.jpg']]);
    for (const entry of copy.gallery) expect(entry.imageURL).toContain(`/i/${copy._id}/`);
    // The copy's value is what is stored, not only what was answered.
    expect(json(await f.call('GET', `collection/${c}/item/${copy._id}`)).photo).toEqual(copy.photo);

    await deleteAndSweep(c, item._id);
    expect((await download(item.photo.imageURL)).statusCode).toBe(404);
    const photo = await download(copy.photo.imageURL);
    expect(photo.statusCode).toBe(200);
    expect(photo.rawPayload.equals(bytes.photo)).toBe(true);
    expect(photo.headers['content-disposition']).toContain('Red square.jpg');
    const first = await download(copy.gallery[0].imageURL);
    expect(first.statusCode).toBe(200);
    expect(first.rawPayload.equals(bytes.first)).toBe(true);
    expect((await download(copy.gallery[1].imageURL)).statusCode).toBe(200);
  });

  it('an item created through the public API with another item’s file addresses gets its own copies', async () => {
    const c = await collection();
    const { item, bytes } = await original(c);
    const token = await mintToken(t, f, { powerCreate: true, powerRead: true, powerUpdate: true, powerDelete: true });
    const created = await t.app.inject({
      method: 'POST',
      url: `/api/public/collection/${c}/items`,
      headers: { ...bearer(token), 'accept-version': 'v1' },
      payload: { title: 'from an app', photo: { imageURL: item.photo.imageURL, altText: 'Red' }, gallery: [item.gallery[1]] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const copy = json(await f.call('GET', `collection/${c}/item/${json(created).id}`));
    expect(copy.photo.imageURL).toContain(`/i/${copy._id}/`);
    expect(copy.photo.fileName).toBe('Red square.jpg');
    expect(copy.gallery[0].imageURL).toContain(`/i/${copy._id}/`);

    await deleteAndSweep(c, item._id);
    const photo = await download(copy.photo.imageURL);
    expect(photo.statusCode).toBe(200);
    expect(photo.rawPayload.equals(bytes.photo)).toBe(true);
    expect((await download(copy.gallery[0].imageURL)).statusCode).toBe(200);
  });

  it('a nested item and an update naming another item’s file get copies; a value naming the item’s own file, another project’s or a gone one is kept as it is', async () => {
    const c = await collection();
    const { item, bytes } = await original(c);
    const other = await createItem(f, c, { title: 'other' });
    const nested = await createItem(f, c, { cover: { imageURL: item.photo.imageURL } }, { item: other._id, nestedID: 'chapters' });
    expect(nested.cover.imageURL).toContain(`/i/${other._id}/`);
    expect(nested.cover.imageURL).not.toBe(item.photo.imageURL);

    const changed = json(await f.call('PUT', `collection/${c}/item/${other._id}`, { photo: item.photo }));
    expect(changed.photo.imageURL).toContain(`/i/${other._id}/`);
    // Writing the value it already holds keeps the same file (no copy of a copy).
    const again = json(await f.call('PUT', `collection/${c}/item/${other._id}`, { photo: changed.photo, title: 'again' }));
    expect(again.photo).toEqual(changed.photo);
    // Moving the file to another field of the same item copies it too: each field owns its files.
    const moved = json(await f.call('PUT', `collection/${c}/item/${other._id}`, { gallery: [changed.photo] }));
    expect(moved.gallery[0].imageURL).not.toBe(changed.photo.imageURL);

    await deleteAndSweep(c, item._id);
    for (const url of [nested.cover.imageURL, changed.photo.imageURL, moved.gallery[0].imageURL]) {
      const file = await download(url);
      expect(file.statusCode, url).toBe(200);
      expect(file.rawPayload.equals(bytes.photo)).toBe(true);
    }

    // An address of a file of another project, or of one no longer stored, is kept as the link it is.
    const elsewhere = await f.otherProject();
    await createCollection(elsewhere, { id: 'far', name: 'Far', schema });
    const far = await createItem(elsewhere, 'far', { title: 'far' });
    const body = await multipart([['imageFile', await jpeg(), 'far.jpg']]);
    const farPhoto = json(await elsewhere.call('PUT', `collection/far/item/${far._id}/image?imageSlug=photo`, body.payload, { headers: body.headers })).photo;
    const gone = `http://larder.test/files/p/${f.project}/c/${'a'.repeat(24)}/i/${'b'.repeat(24)}/${'c'.repeat(32)}.jpg`;
    const linked = await createItem(f, c, { photo: { imageURL: farPhoto.imageURL }, gallery: [{ imageURL: gone }] });
    expect(linked.photo.imageURL).toBe(farPhoto.imageURL);
    expect(linked.gallery[0].imageURL).toBe(gone);
  });

  it('an upload keeps the name it was sent with as fileName, beside the stored imageName', async () => {
    const c = await collection();
    const item = await createItem(f, c, { title: 'named' });
    const photo = (await upload(`collection/${c}/item/${item._id}/image?imageSlug=photo`, [['imageFile', await jpeg(), 'Holiday – beach.jpg']])).photo;
    expect(photo).toEqual({ imageURL: expect.any(String), imageName: expect.stringMatching(/^[0-9a-f]{32}\.jpg$/), altText: '', extension: 'jpg', fileName: 'Holiday – beach.jpg' });
    const token = await mintToken(t, f, { powerCreate: true, powerRead: true, powerUpdate: true, powerDelete: true });
    const body = await multipart([['imageFile', await png(), 'Map of the bay.png']]);
    const response = await t.app.inject({
      method: 'PUT',
      url: `/api/public/collection/${c}/items/${item._id}/image?imageSlug=gallery&nestedID=`,
      headers: { ...bearer(token), 'accept-version': 'v1', ...body.headers },
      payload: body.payload,
    });
    expect(response.statusCode, response.body).toBe(200);
    const gallery = json(await f.call('GET', `collection/${c}/item/${item._id}`)).gallery;
    expect(gallery[0].fileName).toBe('Map of the bay.png');
  });
});
