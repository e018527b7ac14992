/**
 * The URL guard (server/lib/url-guard.ts) and the link preview calls built on it
 * (server/main/link-preview-routes.ts).
 *
 * A trap listens on 127.0.0.1:P (and [::1]:P where there is IPv6), counting every connection and
 * request: no refused address may ever reach it. A "site" listens on 127.0.0.2:P — the same port on
 * another loopback address — and is the only range the tests allow (`OUTBOUND_ALLOW_PRIVATE`), so a
 * guard that resolved a name twice, or followed a redirect unchecked, would land in the trap.
 * Names are resolved by an injected resolver: no network is used.
 */
import http from 'node:http';
import { gzipSync } from 'node:zlib';
import type { AddressInfo, Socket } from 'node:net';
import type { LookupAddress } from 'node:dns';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { OutboundError, refusalOf, UrlGuard, type Resolver } from '../../server/lib/url-guard.ts';
import { previewOfHtml } from '../../server/main/link-preview.ts';
import ipaddr from 'ipaddr.js';
import { bearer, verifiedUser } from './support/flows.ts';
import { databaseKinds, json, openTestDatabase, testEnv } from './support/test-app.ts';

interface Listener {
  server: http.Server;
  requests: string[];
  connections: number;
}

function listen(host: string, port: number, handler: http.RequestListener): Promise<Listener> {
  const listener: Listener = { server: http.createServer(), requests: [], connections: 0 };
  listener.server.on('connection', (socket: Socket) => {
    listener.connections++;
    socket.on('error', () => undefined);
  });
  listener.server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
    listener.requests.push(request.url ?? '');
    handler(request, response);
  });
  return new Promise((resolve, reject) => {
    listener.server.once('error', reject);
    listener.server.listen(port, host, () => resolve(listener));
  });
}

const close = (listener: Listener | undefined) =>
  listener ? new Promise<void>((resolve) => { listener.server.closeAllConnections(); listener.server.close(() => resolve()); }) : Promise.resolve();

let trap: Listener;
let trap6: Listener | undefined;
let site: Listener;
let port: number;
/** What the site saw of its last response: whether the guard read it to the end. */
const siteLog: { hugeFinished?: boolean; hugeSent?: number } = {};

const PAGE = `<!doctype html><html><head>
<meta charset="utf-8">
<title>Plain title</title>
<meta property="og:title" content="  The   Open Graph title ">
<meta property="og:description" content="What the page is about.">
<meta property="og:image" content="/images/cover.png">
<meta name="description" content="Plain description">
</head><body><h1>Hello</h1></body></html>`;

let png: Buffer;

function siteHandler(request: http.IncomingMessage, response: http.ServerResponse) {
  const url = new URL(request.url ?? '/', 'http://site');
  const send = (status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}) => {
    response.writeHead(status, { 'content-type': type, ...headers });
    response.end(body);
  };
  switch (url.pathname) {
    case '/page':
      return send(200, 'text/html; charset=utf-8', PAGE);
    case '/headers':
      return send(200, 'application/json', JSON.stringify(request.headers));
    case '/plain':
      return send(200, 'text/html', '<html><head><title>Only a title</title><meta name="description" content="Only a description"><link rel="image_src" href="pic.jpg"></head></html>');
    case '/twitter':
      return send(
        200,
        'text/html',
        '<head><base href="https://cdn.example/assets/"><meta name="twitter:title" content="Tweet title"><meta name="twitter:description" content="Tweet text"><meta name="twitter:image" content="card.png"></head>',
      );
    case '/latin1':
      return send(200, 'text/html; charset=windows-1252', Buffer.from('<title>Caf\xe9 cr\xe8me</title>', 'latin1'));
    case '/script-image':
      return send(200, 'text/html', '<meta property="og:image" content="javascript:alert(1)"><meta property="og:title" content="<b>bold</b>">');
    case '/image.png':
      return send(200, 'image/png', png);
    case '/image.svg':
      return send(200, 'image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    case '/lying.png':
      return send(200, 'image/png', '<html><script>alert(1)</script></html>');
    case '/json':
      return send(200, 'application/json', '{"title":"not html"}');
    case '/missing':
      return send(404, 'text/html', '<title>Not found</title>');
    case '/redirect': {
      const to = url.searchParams.get('to') ?? '/page';
      response.writeHead(302, { location: to });
      return response.end();
    }
    case '/loop':
      response.writeHead(301, { location: `/loop?n=${Number(url.searchParams.get('n') ?? 0) + 1}` });
      return response.end();
    case '/slow':
      return undefined; // never answers
    case '/huge': {
      // A title first, then 20 MB of padding written as fast as the reader takes it.
      response.writeHead(200, { 'content-type': 'text/html' });
      response.write('<html><head><title>Huge page</title></head><body>');
      const chunk = Buffer.alloc(64 * 1024, 'a');
      let sent = 0;
      siteLog.hugeFinished = false;
      const pump = () => {
        while (sent < 20_000_000) {
          sent += chunk.length;
          siteLog.hugeSent = sent;
          if (!response.write(chunk)) return void response.once('drain', pump);
        }
        response.end(() => (siteLog.hugeFinished = true));
      };
      pump();
      return undefined;
    }
    case '/bomb':
      // 50 MB of zeros in about 50 KB, compressed although the guard asked for identity.
      return send(200, 'text/html', gzipSync(Buffer.concat([Buffer.from('<title>Bomb</title>'), Buffer.alloc(50_000_000)])), { 'content-encoding': 'gzip' });
    default:
      return send(404, 'text/plain', 'no');
  }
}

/** Names the tests use and where they lead. */
const zone: Record<string, string[]> = {
  'site.example': ['127.0.0.2'],
  'public-looking.example': ['127.0.0.1'],
  'mapped.example': ['::ffff:127.0.0.1'],
  'mixed.example': ['127.0.0.2', '127.0.0.1'],
  'metadata.example': ['169.254.169.254'],
};
const resolver: Resolver = async (hostname) => {
  const addresses = zone[hostname];
  if (!addresses) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
  return addresses.map((address): LookupAddress => ({ address, family: address.includes(':') ? 6 : 4 }));
};

beforeAll(async () => {
  png = await sharp({ create: { width: 800, height: 600, channels: 3, background: '#3366cc' } }).png().toBuffer();
  const trapHandler: http.RequestListener = (_request, response) => response.end('<title>secret</title>');
  trap = await listen('127.0.0.1', 0, trapHandler);
  port = (trap.server.address() as AddressInfo).port;
  trap6 = await listen('::1', port, trapHandler).catch(() => undefined);
  site = await listen('127.0.0.2', port, siteHandler);
});

afterAll(async () => {
  await Promise.all([close(trap), close(trap6), close(site)]);
});

const trapHits = () => trap.connections + trap.requests.length + (trap6 ? trap6.connections + trap6.requests.length : 0);

describe('address ranges', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['169.254.169.254', 'linkLocal'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['::ffff:127.0.0.1', 'ipv4Mapped'],
    ['::ffff:8.8.8.8', 'ipv4Mapped'],
    // ipaddr.js reads this spelling as IPv4-mapped; the URL parser writes it ::7f00:1 (IPv4-compatible).
    ['::127.0.0.1', 'ipv4Mapped'],
    ['::7f00:1', 'ipv4Compatible'],
    ['fd00::1', 'uniqueLocal'],
    ['fe80::1', 'linkLocal'],
    ['ff02::1', 'multicast'],
    ['2002:7f00:1::', '6to4(loopback)'],
    ['2002:a00:1::', '6to4(private)'],
    ['64:ff9b::7f00:1', 'rfc6052(loopback)'],
    ['64:ff9b:1::1', 'nat64LocalUse'],
    ['2001::1', 'teredo'],
    ['2001:db8::1', 'reserved'],
  ])('%s is refused (%s)', (address, range) => {
    expect(refusalOf(ipaddr.parse(address))).toBe(range);
  });

  it.each(['8.8.8.8', '93.184.216.34', '2606:4700::1111', '2002:808:808::', '64:ff9b::808:808'])('%s is public', (address) => {
    expect(refusalOf(ipaddr.parse(address))).toBeUndefined();
  });

  it('lets an explicitly allowed range through, and only that range', () => {
    const guard = new UrlGuard({ allowPrivate: ['127.0.0.2/32'] });
    expect(guard.isAllowedAddress('127.0.0.2')).toBe(true);
    expect(guard.isAllowedAddress('127.0.0.1')).toBe(false);
    // The IPv6 spelling of an allowed IPv4 address is still refused.
    expect(guard.isAllowedAddress('::ffff:127.0.0.2')).toBe(false);
  });
});

describe('the guard', () => {
  afterEach(() => {
    expect(trapHits()).toBe(0);
  });

  const guardWith = (options: ConstructorParameters<typeof UrlGuard>[0] = {}) =>
    new UrlGuard({ resolve: resolver, allowPrivate: ['127.0.0.2/32'], timeoutMs: 2000, ...options });

  it('connects to the address it checked: a name is resolved once per connection (no rebinding window)', async () => {
    let calls = 0;
    // First answer: the allowed site. Any later answer: the trap, on the same port.
    const rebinding: Resolver = async () => [{ address: calls++ === 0 ? '127.0.0.2' : '127.0.0.1', family: 4 }];
    const before = site.requests.length;
    const response = await guardWith({ resolve: rebinding }).fetch(`http://rebind.example:${port}/page`, { maxBytes: 100_000, overflow: 'truncate' });
    expect(response.status).toBe(200);
    expect(calls).toBe(1);
    expect(site.requests.length).toBe(before + 1);
  });

  it('connects https to the checked address too (the TLS socket takes the same lookup)', async () => {
    const before = site.connections;
    // The site speaks plain HTTP, so the handshake fails: but on the site's socket, not the trap's.
    await expect(guardWith().fetch(`https://site.example:${port}/page`, { maxBytes: 1000, overflow: 'truncate' })).rejects.toMatchObject({ kind: 'unreachable' });
    expect(site.connections).toBe(before + 1);
  });

  it('refuses a name whose answer mixes an allowed and a refused address', async () => {
    await expect(guardWith().fetch(`http://mixed.example:${port}/page`, { maxBytes: 1000, overflow: 'truncate' })).rejects.toMatchObject({ kind: 'refused' });
  });

  it('refuses localhost through the system resolver', async () => {
    const guard = new UrlGuard({ timeoutMs: 2000 });
    await expect(guard.fetch(`http://localhost:${port}/`, { maxBytes: 1000, overflow: 'truncate' })).rejects.toMatchObject({ kind: 'refused' });
  });

  it('sends no cookies, credentials or caller headers: a fixed, small set', async () => {
    const response = await guardWith().fetch(`http://site.example:${port}/headers`, { maxBytes: 10_000, overflow: 'fail' });
    const headers = JSON.parse(response.body.toString()) as Record<string, string>;
    expect(Object.keys(headers).sort()).toEqual(['accept', 'accept-encoding', 'connection', 'host', 'user-agent'].filter((h) => h in headers).sort());
    expect(headers.cookie).toBeUndefined();
    expect(headers.authorization).toBeUndefined();
    expect(headers.host).toBe(`site.example:${port}`);
  });

  it('refuses addresses with credentials in them', async () => {
    await expect(guardWith().fetch(`http://user:secret@site.example:${port}/page`, { maxBytes: 1000, overflow: 'truncate' })).rejects.toMatchObject({ kind: 'refused' });
  });

  it('stops after the redirect limit', async () => {
    await expect(guardWith({ maxRedirects: 3 }).fetch(`http://site.example:${port}/loop`, { maxBytes: 1000, overflow: 'truncate' })).rejects.toMatchObject({
      kind: 'unreachable',
      message: 'too many redirects',
    });
  });

  it('gives up at the deadline', async () => {
    const started = Date.now();
    await expect(guardWith({ timeoutMs: 300 }).fetch(`http://site.example:${port}/slow`, { maxBytes: 1000, overflow: 'truncate' })).rejects.toMatchObject({ kind: 'timeout' });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('reads no more than the byte cap, and stops the sender', async () => {
    const response = await guardWith().fetch(`http://site.example:${port}/huge`, { maxBytes: 200_000, overflow: 'truncate' });
    expect(response.truncated).toBe(true);
    expect(response.body.length).toBe(200_000);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(siteLog.hugeFinished).toBe(false);
    expect(siteLog.hugeSent!).toBeLessThan(20_000_000);
    await expect(guardWith().fetch(`http://site.example:${port}/huge`, { maxBytes: 200_000, overflow: 'fail' })).rejects.toMatchObject({ kind: 'too_large' });
  });

  it('counts decompressed bytes against the cap (a compression bomb stops at the cap)', async () => {
    const response = await guardWith().fetch(`http://site.example:${port}/bomb`, { maxBytes: 100_000, overflow: 'truncate' });
    expect(response.truncated).toBe(true);
    expect(response.body.length).toBe(100_000);
    expect(response.body.subarray(0, 20).toString()).toBe('<title>Bomb</title>\0');
  });

  it('reports an unreachable address as such', async () => {
    const closed = await listen('127.0.0.2', 0, () => undefined);
    const closedPort = (closed.server.address() as AddressInfo).port;
    await close(closed);
    const error = await guardWith()
      .fetch(`http://127.0.0.2:${closedPort}/`, { maxBytes: 1000, overflow: 'truncate' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutboundError);
    expect((error as OutboundError).kind).toBe('unreachable');
  });
});

describe('reading a preview out of a page', () => {
  const base = new URL('https://news.example/articles/1');
  const read = (html: string, type = 'text/html') => previewOfHtml(Buffer.from(html), type, base);

  it('prefers Open Graph, then Twitter, then the title and description tags', () => {
    expect(read(PAGE)).toEqual({ title: 'The Open Graph title', description: 'What the page is about.', image: 'https://news.example/images/cover.png' });
    expect(read('<title>T</title><meta name="twitter:title" content="Tw"><meta name="description" content="D">')).toEqual({ title: 'Tw', description: 'D', image: null });
    expect(read('<p>nothing</p>')).toEqual({ title: null, description: null, image: null });
  });

  it('makes image addresses absolute against <base> or the page, and drops other schemes', () => {
    expect(read('<base href="/static/"><meta property="og:image" content="a.png">').image).toBe('https://news.example/static/a.png');
    expect(read('<meta property="og:image" content="//cdn.example/a.png">').image).toBe('https://cdn.example/a.png');
    expect(read('<meta property="og:image" content="javascript:alert(1)">').image).toBeNull();
    expect(read('<meta property="og:image" content="data:image/png;base64,AAAA">').image).toBeNull();
  });

  it('keeps text as text and bounds its length', () => {
    const preview = read(`<meta property="og:title" content="&lt;script&gt;x&lt;/script&gt;"><meta property="og:description" content="${'word '.repeat(500)}">`);
    expect(preview.title).toBe('<script>x</script>');
    expect(Array.from(preview.description!).length).toBe(1000);
  });

  it('ignores titles inside <svg> and <template>', () => {
    expect(read('<svg><title>icon</title></svg><template><title>t</title></template><title>Real</title>').title).toBe('Real');
  });

  it('decodes the page in its declared encoding', () => {
    expect(previewOfHtml(Buffer.from('<meta charset="windows-1252"><title>Caf\xe9</title>', 'latin1'), 'text/html', base).title).toBe('Café');
  });
});

describe.each(databaseKinds)('POST /api/generatePreview on %s', (kind) => {
  let app: App;
  let closeDatabase: () => Promise<void>;
  let auth: Record<string, string>;

  beforeAll(async () => {
    const database = await openTestDatabase(kind);
    closeDatabase = () => database.close();
    const config = loadConfig({ ...testEnv, OUTBOUND_ALLOW_PRIVATE: '127.0.0.2/32', RATE_LIMIT_PREVIEW_USER: '1000/1m' });
    app = await buildApp({ config, database, logger: false, resolve: resolver });
    await app.ready();
    const { tokens } = await verifiedUser(app, 'preview');
    auth = bearer(tokens.access_token);
  });
  afterAll(async () => {
    await app.close();
    await closeDatabase();
  });

  const preview = (url: unknown, headers = auth) => app.inject({ method: 'POST', url: '/api/generatePreview', headers, payload: { url } });

  describe('refuses, and the loopback listener sees nothing', () => {
    afterEach(() => {
      expect(trapHits()).toBe(0);
    });

    it.each([
      () => `http://127.0.0.1:${port}/`,
      () => `http://127.1:${port}/`,
      () => `http://2130706433:${port}/`,
      () => `http://0x7f.1:${port}/`,
      () => `http://0177.0.0.1:${port}/`,
      () => `http://0.0.0.0:${port}/`,
      () => `http://0:${port}/`,
      () => `http://[::1]:${port}/`,
      () => `http://[::]:${port}/`,
      () => `http://[::ffff:127.0.0.1]:${port}/`,
      () => `http://[::ffff:7f00:1]:${port}/`,
      () => `http://[::127.0.0.1]:${port}/`,
      () => `http://[2002:7f00:1::]:${port}/`,
      () => `https://127.0.0.1:${port}/`,
      () => 'http://169.254.169.254/latest/meta-data/',
      () => 'http://[fd00::1]/',
      () => 'http://[fe80::1]/',
      () => 'http://10.0.0.1/',
      () => 'http://100.64.0.1/',
      () => 'file:///etc/passwd',
      () => `gopher://127.0.0.1:${port}/_GET%20/`,
      () => `ftp://127.0.0.1:${port}/`,
      () => `http://public-looking.example:${port}/`,
      () => `http://mapped.example:${port}/`,
      () => 'http://metadata.example/latest/meta-data/',
      () => `http://mixed.example:${port}/page`,
      () => `http://site.example:${port}/redirect?to=${encodeURIComponent(`http://127.0.0.1:${port}/`)}`,
      () => `http://site.example:${port}/redirect?to=${encodeURIComponent(`http://[::1]:${port}/`)}`,
      () => `http://site.example:${port}/redirect?to=${encodeURIComponent(`http://public-looking.example:${port}/`)}`,
      () => `http://site.example:${port}/redirect?to=${encodeURIComponent('file:///etc/passwd')}`,
    ])('%#: 422 preview_refused', async (make) => {
      const url = make();
      const response = await preview(url);
      expect(response.statusCode, url).toBe(422);
      const body = json(response);
      expect(body).toMatchObject({ status: 422, code: 'preview_refused', detail: 'This address cannot be previewed.' });
      // Nothing internal is echoed: no address, range or reason.
      expect(response.body).not.toMatch(/127\.|::1|loopback|private|169\.254/);
    });
  });

  it('reads the title, description and an absolute image of an allowed page', async () => {
    const response = await preview(`http://site.example:${port}/page`);
    expect(response.statusCode).toBe(200);
    expect(json(response)).toEqual({ title: 'The Open Graph title', description: 'What the page is about.', image: `http://site.example:${port}/images/cover.png` });
  });

  it('follows a checked redirect and resolves against the final address', async () => {
    const response = await preview(`http://site.example:${port}/redirect?to=/plain`);
    expect(json(response)).toEqual({ title: 'Only a title', description: 'Only a description', image: `http://site.example:${port}/pic.jpg` });
  });

  it('falls back to Twitter cards and honours <base>', async () => {
    expect(json(await preview(`http://site.example:${port}/twitter`))).toEqual({ title: 'Tweet title', description: 'Tweet text', image: 'https://cdn.example/assets/card.png' });
  });

  it('decodes by the declared charset', async () => {
    expect(json(await preview(`http://site.example:${port}/latin1`)).title).toBe('Café crème');
  });

  it('drops script addresses and keeps markup as text', async () => {
    expect(json(await preview(`http://site.example:${port}/script-image`))).toEqual({ title: '<b>bold</b>', description: null, image: null });
  });

  it('previews an image address as its own image, and other types as nothing', async () => {
    expect(json(await preview(`http://site.example:${port}/image.png`))).toEqual({ title: null, description: null, image: `http://site.example:${port}/image.png` });
    expect(json(await preview(`http://site.example:${port}/json`))).toEqual({ title: null, description: null, image: null });
  });

  it('reads only the first megabyte of a huge page', async () => {
    const response = await preview(`http://site.example:${port}/huge`);
    expect(response.statusCode).toBe(200);
    expect(json(response).title).toBe('Huge page');
  });

  it('answers 502 for an error page or a closed port, never 500', async () => {
    const missing = await preview(`http://site.example:${port}/missing`);
    expect(missing.statusCode).toBe(502);
    expect(json(missing)).toMatchObject({ code: 'preview_unreachable', detail: 'The page could not be reached.' });
    const unknown = await preview('http://no-such-name.example/');
    expect(unknown.statusCode).toBe(502);
    expect(unknown.body).not.toContain('ENOTFOUND');
  });

  it('answers 400 for what is not an address, and needs a signed-in user', async () => {
    expect((await preview('not a url')).statusCode).toBe(400);
    expect(json(await preview('not a url')).code).toBe('invalid_url');
    expect((await preview(42)).statusCode).toBe(400);
    expect((await preview('x'.repeat(3000))).statusCode).toBe(400);
    expect((await preview(`http://site.example:${port}/page`, {})).statusCode).toBe(401);
  });

  describe('GET /api/generatePreview/image', () => {
    const image = (url: string, headers = auth) => app.inject({ method: 'GET', url: `/api/generatePreview/image?url=${encodeURIComponent(url)}`, headers });

    it('answers the image re-encoded as a small WebP', async () => {
      const response = await image(`http://site.example:${port}/image.png`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('image/webp');
      expect(response.headers['x-content-type-options']).toBe('nosniff');
      const meta = await sharp(response.rawPayload).metadata();
      expect(meta.format).toBe('webp');
      expect(meta.width).toBe(300);
      expect(meta.height).toBe(225);
    });

    it('refuses what is not a raster image, whatever its headers say', async () => {
      expect((await image(`http://site.example:${port}/image.svg`)).statusCode).toBe(502);
      expect((await image(`http://site.example:${port}/lying.png`)).statusCode).toBe(502);
      expect((await image(`http://site.example:${port}/huge`)).statusCode).toBe(502);
    });

    it('goes through the same guard', async () => {
      const response = await image(`http://127.1:${port}/image.png`);
      expect(response.statusCode).toBe(422);
      expect(trapHits()).toBe(0);
      expect((await image(`http://site.example:${port}/image.png`, {})).statusCode).toBe(401);
    });
  });
});

describe('rate limit', () => {
  it('limits previews and their images together, per user', async () => {
    const database = await openTestDatabase('pglite');
    const app = await buildApp({ config: loadConfig({ ...testEnv, OUTBOUND_ALLOW_PRIVATE: '127.0.0.2/32', RATE_LIMIT_PREVIEW_USER: '2/1m' }), database, logger: false, resolve: resolver });
    try {
      await app.ready();
      const one = bearer((await verifiedUser(app, 'limited')).tokens.access_token);
      const other = bearer((await verifiedUser(app, 'unlimited')).tokens.access_token);
      const ask = (headers: Record<string, string>) => app.inject({ method: 'POST', url: '/api/generatePreview', headers, payload: { url: `http://site.example:${port}/page` } });
      expect((await ask(one)).statusCode).toBe(200);
      expect((await app.inject({ method: 'GET', url: `/api/generatePreview/image?url=${encodeURIComponent(`http://site.example:${port}/image.png`)}`, headers: one })).statusCode).toBe(200);
      const refused = await ask(one);
      expect(refused.statusCode).toBe(429);
      expect(json(refused)).toMatchObject({ code: 'rate_limited' });
      expect((await ask(other)).statusCode).toBe(200);
    } finally {
      await app.close();
      await database.close();
    }
  });
});

describe('configuration', () => {
  it('allows no private range unless told, and refuses a malformed range', () => {
    expect(loadConfig({}).outboundAllowPrivate).toEqual([]);
    expect(loadConfig({ OUTBOUND_ALLOW_PRIVATE: '127.0.0.0/8, ::1/128' }).outboundAllowPrivate).toEqual(['127.0.0.0/8', '::1/128']);
    expect(() => loadConfig({ OUTBOUND_ALLOW_PRIVATE: 'localhost' })).toThrow(/OUTBOUND_ALLOW_PRIVATE/);
  });
});

describe('allowedAddress (the SMTP servers of projects connect to the address it answers)', () => {
  it('answers the checked address of a name, and refuses a later answer that is private', async () => {
    const answers: LookupAddress[][] = [[{ address: '93.184.216.34', family: 4 }], [{ address: '10.0.0.7', family: 4 }]];
    const guard = new UrlGuard({ resolve: async () => answers.shift()! });
    expect(await guard.allowedAddress('mail.example.com')).toBe('93.184.216.34');
    await expect(guard.allowedAddress('mail.example.com')).rejects.toMatchObject({ kind: 'refused' });
  });

  it('takes an IP literal as it is, brackets of IPv6 included, and refuses a private one', async () => {
    const guard = new UrlGuard({ resolve: async () => [] });
    expect(await guard.allowedAddress('93.184.216.34')).toBe('93.184.216.34');
    expect(await guard.allowedAddress('[2606:2800:220:1:248:1893:25c8:1946]')).toBe('2606:2800:220:1:248:1893:25c8:1946');
    await expect(guard.allowedAddress('127.0.0.1')).rejects.toBeInstanceOf(OutboundError);
  });

  it('gives nodemailer the address to connect to and the name for TLS', async () => {
    const { transportOptions } = await import('../../server/mail/project-delivery.ts');
    expect(transportOptions('smtps://mailer@mail.example.com:465', 'secret', '93.184.216.34')).toMatchObject({
      host: '93.184.216.34',
      port: 465,
      secure: true,
      tls: { servername: 'mail.example.com' },
      auth: { user: 'mailer', pass: 'secret' },
    });
    expect(transportOptions('smtp://127.0.0.1:2525', null, '127.0.0.1')).not.toHaveProperty('tls');
  });
});
