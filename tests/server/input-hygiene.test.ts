/**
 * Input hygiene across the whole app (docs/errors.md): every route of the OpenAPI document is
 * sent a NUL character and a lone surrogate in its body, query, path parameters and multipart
 * parts, and must answer a 4xx problem (the one text rule: 400 invalid_text), never a 500; and
 * the framework's own refusals (router, body parsers, Node's HTTP parser) are problem details
 * too, checked over a real socket where app.inject cannot reach.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, databaseKinds, json, type DatabaseKind, type TestApp } from './support/test-app.ts';
import { bearer } from './support/flows.ts';
import { expectProblem } from './support/assertions.ts';
import { contentFixture, createCollection, createItem, type ContentFixture } from './support/content.ts';
import { mintToken } from './support/end-users.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
interface Operation {
  method: Method;
  path: string;
  parameters: { in: string; name: string }[];
  bodyKeys: string[];
}

const NUL = 'a\u0000b';
const LONE = 'a\ud800b';
const TEXT_DETAIL = 'Text may not contain a NUL character or an unpaired surrogate.';

/** A multipart body with one text part and one file part. */
function multipart(field: [string, string] | undefined, file: [string, string] | undefined) {
  const boundary = 'hygieneboundary0123456789';
  let body = '';
  if (field) body += `--${boundary}\r\nContent-Disposition: form-data; name="${field[0]}"\r\n\r\n${field[1]}\r\n`;
  if (file) body += `--${boundary}\r\nContent-Disposition: form-data; name="${file[0]}"; filename="${file[1]}"\r\nContent-Type: image/png\r\n\r\n\u0089PNG\r\n\r\n`;
  return { payload: Buffer.from(`${body}--${boundary}--\r\n`, 'utf8'), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Asserts a 4xx problem with its RFC 9457 members; answers the problem. */
function expect4xxProblem(response: LightMyRequestResponse, label: string) {
  expect(response.statusCode, `${label} → ${response.statusCode} ${response.body.slice(0, 300)}`).toBeGreaterThanOrEqual(400);
  expect(response.statusCode, `${label} → ${response.statusCode} ${response.body.slice(0, 300)}`).toBeLessThan(500);
  return expectProblem(response, response.statusCode) as unknown as { code: string; status: number; title: string; type: string; detail: string };
}

describe.each(databaseKinds)('input hygiene on %s', (kind: DatabaseKind) => {
  let t: TestApp;
  let f: ContentFixture;
  let apiToken: string;
  let item: string;
  let operations: Operation[];
  const values: Record<string, string> = {};

  beforeAll(async () => {
    t = await createTestApp(kind);
    f = await contentFixture(t);
    await createCollection(f, { id: 'things', name: 'Things', schema: [{ name: 'Title', slug: 'title', type: 1 }, { name: 'Photo', slug: 'photo', type: 5 }] });
    item = (await createItem(f, 'things', { title: 'one' }))._id as string;
    apiToken = await mintToken(t, f, { powerCreate: true, powerRead: true, powerUpdate: true, powerDelete: true });
    Object.assign(values, { org: f.org, proj: f.project, collection: 'things', item, field: 'title', email: 'someone@example.com', '*': 'x' });
    const doc = json(await t.app.inject({ method: 'GET', url: '/api/docs/json' })) as {
      paths: Record<string, Record<string, { parameters?: { in: string; name: string }[]; requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> } }>>;
    };
    operations = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        if (method === 'options' || method === 'head') continue;
        const schema = op.requestBody?.content?.['application/json']?.schema;
        operations.push({ method: method.toUpperCase() as Method, path, parameters: op.parameters ?? [], bodyKeys: Object.keys(schema?.properties ?? {}) });
      }
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  const urlOf = (op: Operation, override: Record<string, string> = {}) =>
    op.path.replace(/\{([^}]+)\}/g, (_, name: string) => override[name] ?? encodeURIComponent(values[name] ?? '0123456789abcdef01234567'));
  const authOf = (op: Operation) =>
    op.path.startsWith('/api/public') || op.path.startsWith('/auth/public') ? { ...bearer(apiToken), 'accept-version': 'v1' } : bearer(f.access);
  const send = (op: Operation, url: string, extra: { payload?: string | Buffer; headers?: Record<string, string> } = {}) =>
    t.app.inject({ method: op.method, url, headers: { ...authOf(op), ...(extra.headers ?? {}) }, ...(extra.payload !== undefined ? { payload: extra.payload } : {}) });

  // A query string is UTF-8 bytes: a surrogate has no valid encoding (`%ED%A0%80` stays that text
  // when decoded), so only NUL can reach a handler through it.
  it('refuses a NUL in any query parameter of any route with 400 invalid_text', async () => {
    expect(operations.length).toBeGreaterThan(100);
    for (const op of operations) {
      const names = [...op.parameters.filter((p) => p.in === 'query').map((p) => p.name), 'unknown'];
      for (const bad of ['%00', 'a%00b']) {
        for (const name of names) {
          const response = await send(op, `${urlOf(op)}?${encodeURIComponent(name)}=${bad}`);
          const body = expect4xxProblem(response, `${op.method} ${op.path}?${name}=${bad}`);
          expect(body.code, `${op.method} ${op.path}?${name}`).toBe('invalid_text');
        }
      }
    }
  });

  it('refuses a NUL or a lone surrogate in any path parameter of any route with a 4xx problem (NUL: 400 invalid_text)', async () => {
    for (const op of operations) {
      for (const param of op.parameters.filter((p) => p.in === 'path')) {
        for (const bad of ['%00', 'x%00y', '%ED%A0%80', '%E0%A4%A']) {
          const response = await send(op, urlOf(op, { [param.name]: bad }));
          const body = expect4xxProblem(response, `${op.method} ${op.path} {${param.name}}=${bad}`);
          if (bad.includes('%00')) expect(body.code, `${op.method} ${op.path} {${param.name}}`).toBe('invalid_text');
        }
      }
    }
  });

  it('refuses a NUL or a lone surrogate in any JSON or form body string (values and keys) of any route with 400 invalid_text', async () => {
    const jsonType = { 'content-type': 'application/json' };
    for (const op of operations) {
      if (op.method === 'GET') continue;
      const keys = [...new Set([...op.bodyKeys, 'name', 'email', 'username', 'password', 'token'])];
      for (const bad of [NUL, LONE, '\u0000', '\ud800', '\udc00x']) {
        const label = `${op.method} ${op.path} body ${JSON.stringify(bad)}`;
        const flat = Object.fromEntries(keys.map((key) => [key, bad]));
        const nested = { ...Object.fromEntries(keys.map((key) => [key, 'fine'])), deep: [{ inner: { text: bad } }] };
        const badKey = { [`key${bad}`]: 'fine' };
        for (const payload of [flat, nested, badKey]) {
          const body = expect4xxProblem(await send(op, urlOf(op), { payload: JSON.stringify(payload), headers: jsonType }), label);
          // An item import's body is a file, refused row by row or as a whole with 422 (docs/content-storage.md "Importing items").
          const statuses = op.path.endsWith('/import') ? [401, 403, 404, 415, 422] : [400, 401, 403, 404, 415];
          expect(statuses, label).toContain(body.status);
          if (body.status === 400) expect(body.code, label).toBe('invalid_text');
          if (body.status === 422) expect(body.code, label).toBe('import_refused');
        }
        // Form bodies decode as query strings do: only NUL can arrive in them.
        if ((op.method === 'POST' || op.method === 'PUT') && bad.includes('\u0000')) {
          const form = keys.map((key) => `${key}=x%00`).join('&');
          const answer = expect4xxProblem(await send(op, urlOf(op), { payload: form, headers: { 'content-type': 'application/x-www-form-urlencoded' } }), `${label} form`);
          // The public API reads every body as JSON (the BagelDB client's contract): a form is no JSON there.
          if (answer.status === 400) expect(['invalid_text', 'invalid_json'], `${label} form`).toContain(answer.code);
        }
      }
    }
  });

  it('refuses a NUL or a lone surrogate in a multipart part value or file name on any route', async () => {
    // The routes that read multipart bodies: uploads, and the project-user token route (fields).
    const readsMultipart = (op: Operation) => /\/(image|assets?)$/.test(op.path) || op.path === '/auth/public/user/token';
    const multipartOps = operations.filter((op) => (op.method === 'POST' || op.method === 'PUT') && readsMultipart(op));
    expect(multipartOps.length).toBeGreaterThanOrEqual(7);
    for (const op of multipartOps) {
      const bodies = [
        multipart(['altText', NUL], undefined),
        multipart(['altText', LONE], undefined),
        multipart(['grant_type', NUL], undefined),
        multipart(undefined, ['imageFile', 'a\u0000.png']),
        multipart(undefined, ['fileAssets', 'a\u0000.png']),
        multipart(undefined, ['asset', 'a\u0000.png']),
      ];
      for (const body of bodies) {
        const answer = expect4xxProblem(await send(op, `${urlOf(op)}${op.path.endsWith('/image') ? '?imageSlug=title' : ''}`, body), `${op.method} ${op.path} multipart`);
        // A file part where a route takes none is dropped by its limits, never read (the token route then misses its refresh token).
        if (answer.status === 400) expect(['invalid_text', 'validation_failed', 'invalid_request'], `${op.method} ${op.path}: ${answer.detail}`).toContain(answer.code);
      }
    }
  });

  it('names the text rule in the problem, with the place it found the text', async () => {
    const questionnaire = await t.app.inject({ method: 'PUT', url: '/api/user/questionnaire', headers: bearer(f.access), payload: { role: NUL, teamSize: '1' } });
    const body = expectProblem(questionnaire, 400, 'invalid_text') as unknown as { detail: string; errors: { path: string }[] };
    expect(body.detail).toBe(TEXT_DETAIL);
    expect(body.errors).toEqual([{ path: 'role', message: 'contains a NUL character or an unpaired surrogate' }]);
    const signIn = await t.app.inject({ method: 'POST', url: '/auth/resetPasswordEmail', payload: { email: `x${LONE}@example.com` } });
    expect((expectProblem(signIn, 400, 'invalid_text') as unknown as { errors: { path: string }[] }).errors[0]!.path).toBe('email');
    const query = await t.app.inject({ method: 'GET', url: `/api/organization/${f.org}/project/${f.project}/collection/things/item?search=a%00b`, headers: bearer(f.access) });
    expect((expectProblem(query, 400, 'invalid_text') as unknown as { errors: { path: string }[] }).errors[0]!.path).toBe('querystring.search');
    // Multipart: a file name or a text part, read as the upload routes stream them (its text is
    // UTF-8 bytes, decoded with replacement characters, so only NUL can arrive in it).
    const at = `collection/things/item/${item}/image?imageSlug=photo`;
    for (const [body, path] of [
      [multipart(undefined, ['imageFile', 'a\u0000.png']), 'imageFile'],
      [multipart(['altText', NUL], undefined), 'altText'],
      [multipart(['imageLink', `https://example.com/${NUL}.png`], undefined), 'imageLink'],
    ] as const) {
      const upload = await f.call('PUT', at, body.payload, { headers: body.headers });
      expect((expectProblem(upload, 400, 'invalid_text') as unknown as { errors: { path: string }[] }).errors[0]!.path).toBe(path);
    }
    const assets = multipart(undefined, ['fileAssets', 'a\u0000.png']);
    const stored = await t.app.inject({ method: 'POST', url: '/api/public/collection/things/assets', headers: { ...bearer(apiToken), 'accept-version': 'v1', ...assets.headers }, payload: assets.payload });
    expectProblem(stored, 400, 'invalid_text');
    // Nothing was created or renamed by the walk.
    const org = json(await t.app.inject({ method: 'GET', url: `/api/organization/${f.org}`, headers: bearer(f.access) }));
    expect(JSON.stringify(org)).not.toMatch(/\\u0000|\\ud800/);
    expect((await f.call('GET', `collection/things/item/${item}`)).statusCode).toBe(200);
  });

  it('answers the framework\u2019s own refusals as problem details: not found, wrong method, long parameter, bad encoding, media type, size, JSON', async () => {
    const notFound = expectProblem(await t.app.inject({ method: 'GET', url: '/api/no/such/route' }), 404, 'not_found');
    expect(notFound.title).toBe('Not Found');
    const wrongMethod = await t.app.inject({ method: 'PATCH', url: '/api/user/me', headers: bearer(f.access) });
    expectProblem(wrongMethod, 405, 'method_not_allowed');
    expect(wrongMethod.headers.allow).toContain('GET');
    const wrongOnItem = await t.app.inject({ method: 'PATCH', url: `/api/organization/${f.org}/project/${f.project}/collection/things/item/${item}`, headers: bearer(f.access) });
    expectProblem(wrongOnItem, 405, 'method_not_allowed');
    expect(String(wrongOnItem.headers.allow).split(', ')).toEqual(expect.arrayContaining(['DELETE', 'GET', 'POST', 'PUT']));
    expectProblem(await t.app.inject({ method: 'GET', url: `/api/organization/${'a'.repeat(300)}` }), 414, 'uri_too_long');
    expectProblem(await t.app.inject({ method: 'GET', url: '/api/organization/%E0%A4%A' }), 400, 'bad_url');
    expectProblem(await t.app.inject({ method: 'GET', url: '/api/organization/%ff%fe' }), 400, 'bad_url');
    expectProblem(await t.app.inject({ method: 'POST', url: '/api/organization', headers: { ...bearer(f.access), 'content-type': 'application/xml' }, payload: '<a/>' }), 415, 'unsupported_media_type');
    expectProblem(await t.app.inject({ method: 'POST', url: '/api/organization', headers: { ...bearer(f.access), 'content-type': 'application/json' }, payload: '{"name": ' }), 400, 'malformed_json');
    expectProblem(
      await t.app.inject({ method: 'POST', url: '/api/organization', headers: { ...bearer(f.access), 'content-type': 'application/json' }, payload: JSON.stringify({ name: 'x'.repeat(2 * 1024 * 1024) }) }),
      413,
      'payload_too_large',
    );
  });

  describe('over a real socket', () => {
    let port: number;
    beforeAll(async () => {
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      port = (t.app.server.address() as AddressInfo).port;
    });

    /** Sends raw bytes and reads the whole answer until the server closes the connection. */
    function raw(bytes: Buffer | string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
      return new Promise((resolve, reject) => {
        const socket = net.connect(port, '127.0.0.1');
        const chunks: Buffer[] = [];
        socket.on('data', (chunk) => chunks.push(chunk));
        socket.on('error', reject);
        socket.on('close', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const [head = '', ...rest] = text.split('\r\n\r\n');
          const [statusLine = '', ...lines] = head.split('\r\n');
          const headers = Object.fromEntries(lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]));
          resolve({ status: Number(statusLine.split(' ')[1]), headers, body: rest.join('\r\n\r\n') });
        });
        socket.setTimeout(10_000, () => socket.destroy(new Error('no answer')));
        socket.end(typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes);
      });
    }

    function expectRawProblem(answer: { status: number; headers: Record<string, string>; body: string }, status: number, code: string) {
      expect(answer.status, answer.body).toBe(status);
      expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
      const body = JSON.parse(answer.body) as { type: string; title: string; status: number; code: string };
      expect(body.status).toBe(status);
      expect(body.code).toBe(code);
      expect(body.type).toBe(`https://larder.dev/problems/${code}`);
      expect(body.title.length).toBeGreaterThan(0);
      return body;
    }

    it('answers oversized headers with 431 problem+json and closes the connection', async () => {
      const answer = await raw(`GET /api/health HTTP/1.1\r\nHost: x\r\nX-Pad: ${'a'.repeat(20_000)}\r\n\r\n`);
      expectRawProblem(answer, 431, 'headers_too_large');
      expect(answer.headers.connection).toBe('close');
    });

    it('answers an over-long address with 414 problem+json', async () => {
      const answer = await raw(`GET /api/health?pad=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
      expectRawProblem(answer, 414, 'uri_too_long');
      expect(answer.headers.connection).toBe('close');
    });

    it('answers invalid UTF-8 and bad percent-encoding in the path with a 4xx problem', async () => {
      expectRawProblem(await raw('GET /api/organization/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'), 400, 'bad_url');
      expectRawProblem(await raw('GET /api/organization/%C0%AF HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'), 400, 'bad_url');
      const rawBytes = Buffer.concat([Buffer.from('GET /api/organization/'), Buffer.from([0xff, 0xfe, 0xc3]), Buffer.from(' HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')]);
      const answer = await raw(rawBytes);
      expect(answer.status).toBeGreaterThanOrEqual(400);
      expect(answer.status).toBeLessThan(500);
      expect(answer.headers['content-type']).toMatch(/^application\/problem\+json/);
    });

    it('answers a request line or header Node cannot parse with 400 problem+json', async () => {
      expectRawProblem(await raw('NOT A REQUEST\r\n\r\n'), 400, 'bad_request');
      expectRawProblem(await raw('GET /api/health HTTP/1.1\r\nHost: x\r\nBad Header: x\u0000y\r\n\r\n'), 400, 'bad_request');
    });

    it('answers a NUL in a query string sent over the wire with 400 invalid_text', async () => {
      expectRawProblem(await raw(`GET /api/organizations?organizations=a%00b HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${f.access}\r\nConnection: close\r\n\r\n`), 400, 'invalid_text');
    });
  });
});
