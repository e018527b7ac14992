/**
 * The file calls (src/api/files.ts): an upload goes through the console's ky client (bearer, query
 * parameters) over XMLHttpRequest, reporting progress; the multipart body holds `altText` before
 * `imageFile`; the answer's item and ETag come back; a refusal is an ApiError with the server's
 * code; a delete names the field and the image; thumbnail and download addresses.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApiClient, type ApiClient } from '../../src/api/client.ts';
import { ApiError } from '../../src/api/errors.ts';
import { createFilesApi, downloadUrl, isStoredFileUrl, thumbnailUrl } from '../../src/api/files.ts';
import { createSession } from '../../src/api/session.ts';

const ORG = '0123456789abcdef01234567';
const PROJ = 'fedcba9876543210fedcba98';
const ITEM = 'aaaaaaaaaaaaaaaaaaaaaaaa';
const scope = { organizationID: ORG, projectID: PROJ };
const item = { _id: ITEM, _createdDate: '', _lastUpdatedDate: '2026-01-02T00:00:00.000Z', _order: 1, _rank: 'a0', photo: { imageURL: 'http://x/files/p/a.png' } };

/** A stand-in XMLHttpRequest: records what is sent and lets the test answer. */
class FakeXhr {
  static last: FakeXhr | null = null;
  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: Blob | null = null;
  status = 0;
  statusText = '';
  response: Blob | null = null;
  responseType = '';
  responseHeaders = '';
  upload: { onprogress: ((event: { loaded: number; total: number; lengthComputable: boolean }) => void) | null } = { onprogress: null };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  ontimeout: (() => void) | null = null;
  onabort: (() => void) | null = null;
  constructor() {
    FakeXhr.last = this;
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader(name: string, value: string) {
    this.headers[name.toLowerCase()] = value;
  }
  getAllResponseHeaders() {
    return this.responseHeaders;
  }
  send(body: Blob | null) {
    this.body = body;
  }
  abort() {
    this.onabort?.();
  }
  answer(status: number, body: unknown, headers: Record<string, string> = {}) {
    this.status = status;
    this.response = new Blob([JSON.stringify(body)]);
    this.responseHeaders = Object.entries({ 'content-type': status >= 400 ? 'application/problem+json' : 'application/json', ...headers })
      .map(([name, value]) => `${name}: ${value}`)
      .join('\r\n');
    this.onload?.();
  }
}

const clients: ApiClient[] = [];
afterEach(() => {
  for (const client of clients.splice(0)) client.dispose();
  vi.unstubAllGlobals();
});

function start() {
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  const session = createSession({ events: null });
  session.write({ accessToken: 'access-1', refreshToken: 'refresh-1' });
  const client = createApiClient({ session, prefixUrl: 'http://localhost/' });
  clients.push(client);
  return createFilesApi(client);
}

const sentXhr = async () => {
  for (let i = 0; i < 50 && !FakeXhr.last?.body; i += 1) await new Promise((resolve) => setTimeout(resolve, 1));
  return FakeXhr.last!;
};

describe('files api', () => {
  it('uploads with the bearer, reporting progress, altText before the file, and answers the item and its ETag', async () => {
    FakeXhr.last = null;
    const api = start();
    const progress: [number, number][] = [];
    const call = api.uploadImage(scope, { collectionID: 'posts', itemID: ITEM, nestedID: `chapters.${ITEM}`, slug: 'photo' }, {
      file: new File([new Uint8Array(300)], 'photo.png', { type: 'image/png' }),
      altText: 'A photo',
      onProgress: (sent, total) => progress.push([sent, total]),
    });
    const xhr = await sentXhr();
    expect(xhr.method).toBe('PUT');
    const url = new URL(xhr.url);
    expect(url.pathname).toBe(`/api/organization/${ORG}/project/${PROJ}/collection/posts/item/${ITEM}/image`);
    expect(Object.fromEntries(url.searchParams)).toEqual({ imageSlug: 'photo', nestedID: `chapters.${ITEM}` });
    expect(xhr.headers.authorization).toBe('Bearer access-1');
    expect(xhr.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
    const body = await xhr.body!.text();
    expect(body.indexOf('name="altText"')).toBeGreaterThan(-1);
    expect(body.indexOf('name="altText"')).toBeLessThan(body.indexOf('name="imageFile"; filename="photo.png"'));
    expect(body).toContain('A photo');
    xhr.upload.onprogress?.({ loaded: 100, total: 400, lengthComputable: true });
    xhr.answer(200, item, { etag: '"2026-01-02T00:00:00.000Z"' });
    await expect(call).resolves.toEqual({ item, etag: '"2026-01-02T00:00:00.000Z"' });
    expect(progress[0]).toEqual([100, 400]);
    expect(progress.at(-1)![0]).toBe(progress.at(-1)![1]);
  });

  it('turns a refusal into an ApiError with the server’s code', async () => {
    FakeXhr.last = null;
    const api = start();
    const call = api.uploadImage(scope, { collectionID: 'posts', itemID: ITEM, slug: 'photo' }, { file: new File(['x'], 'a.txt') });
    const xhr = await sentXhr();
    xhr.answer(415, { type: 'about:blank', title: 'Unsupported', status: 415, code: 'type_not_accepted', detail: 'This field accepts image/*; the file is text/plain.' });
    const error = await call.catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 415, code: 'type_not_accepted' });
  });

  it('reports a failed connection as a network error, and an abort as aborted', async () => {
    FakeXhr.last = null;
    const api = start();
    const call = api.uploadImage(scope, { collectionID: 'posts', itemID: ITEM, slug: 'photo' }, { file: new File(['x'], 'a.png') });
    (await sentXhr()).onerror?.();
    await expect(call).rejects.toMatchObject({ status: 0, code: 'network_error' });
    FakeXhr.last = null;
    const controller = new AbortController();
    const aborted = api.uploadImage(scope, { collectionID: 'posts', itemID: ITEM, slug: 'photo' }, { file: new File(['x'], 'a.png'), signal: controller.signal });
    await sentXhr();
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ status: 0, code: 'aborted' });
  });

  it('deletes an image of a set by its id', async () => {
    const calls: Request[] = [];
    const session = createSession({ events: null });
    session.write({ accessToken: 'access-1', refreshToken: 'refresh-1' });
    const client = createApiClient({
      session,
      prefixUrl: 'http://localhost/',
      fetch: async (input) => {
        calls.push(input as Request);
        return new Response(JSON.stringify(item), { status: 200, headers: { 'content-type': 'application/json', etag: '"v2"' } });
      },
    });
    clients.push(client);
    const result = await createFilesApi(client).deleteImage(scope, { collectionID: 'posts', itemID: ITEM, slug: 'gallery' }, { imageID: 'img1' });
    expect(result.etag).toBe('"v2"');
    const url = new URL(calls[0]!.url);
    expect(calls[0]!.method).toBe('DELETE');
    expect(Object.fromEntries(url.searchParams)).toEqual({ fieldSlug: 'gallery', imageID: 'img1' });
  });

  it('builds thumbnail and download addresses, and knows stored files', () => {
    expect(thumbnailUrl('http://x/files/p/a.png', 200)).toBe('http://x/files/p/a.png?resize=200');
    expect(thumbnailUrl('http://x/files/p/a.png', 300)).toBe('http://x/files/p/a.png?resize=300');
    expect(downloadUrl('http://x/files/p/a.png')).toBe('http://x/files/p/a.png?download=true');
    expect(isStoredFileUrl('http://x/files/p/1/a.png')).toBe(true);
    expect(isStoredFileUrl('https://example.com/a.png')).toBe(false);
    expect(isStoredFileUrl('data:image/png;base64,AAAA')).toBe(false);
  });
});
