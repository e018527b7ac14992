/**
 * Delivery of the built console: precompressed brotli and gzip copies chosen by Accept-Encoding
 * (Vary: Accept-Encoding), long immutable caching of hashed assets, no-cache and revalidation of
 * index.html, 304 on a matching ETag, and the plain file when a compressed copy is missing.
 * The console's files touch no database, so these run once, on a console built into a temporary
 * directory (docs/console-delivery.md).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../server/config.ts';
import { consoleRoutes } from '../../server/console.ts';
import { registerErrorHandling } from '../../server/lib/errors.ts';
import { precompressDirectory } from '../../vite-plugin-precompress.ts';
import { testEnv } from './support/test-app.ts';

const script = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word number ${i}`))};\n`;
const indexHtml = `<!doctype html><html lang="en"><head><title>Larder</title><script type="module" src="/assets/index-abc123.js"></script>${' '.repeat(40)}<link rel="stylesheet" href="/assets/index-abc123.css"></head><body><div id="root"></div></body></html>\n`;

let dir: string;
let app: FastifyInstance;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'larder-console-'));
  mkdirSync(path.join(dir, 'assets'));
  writeFileSync(path.join(dir, 'index.html'), indexHtml);
  writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), script);
  writeFileSync(path.join(dir, 'assets', 'index-abc123.css'), `body { color: black; }\n`.repeat(50));
  writeFileSync(path.join(dir, 'assets', 'only-gzip-abc123.js'), script);
  writeFileSync(path.join(dir, 'assets', 'plain-abc123.js'), script);
  writeFileSync(path.join(dir, 'assets', 'logo-abc123.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]));
  await precompressDirectory(dir);
  // A build whose compressed copies went missing: the server falls back to what is there.
  unlinkSync(path.join(dir, 'assets', 'only-gzip-abc123.js.br'));
  unlinkSync(path.join(dir, 'assets', 'plain-abc123.js.br'));
  unlinkSync(path.join(dir, 'assets', 'plain-abc123.js.gz'));
  app = Fastify({ logger: false });
  app.decorate('ctx', { config: loadConfig(testEnv) } as never);
  registerErrorHandling(app);
  await app.register(consoleRoutes, { dir });
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  rmSync(dir, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });

describe('the build step', () => {
  it('writes brotli and gzip copies of text files that decompress to the file, and none of images', () => {
    const file = path.join(dir, 'assets', 'index-abc123.js');
    expect(brotliDecompressSync(readFileSync(`${file}.br`)).toString()).toBe(script);
    expect(gunzipSync(readFileSync(`${file}.gz`)).toString()).toBe(script);
    expect(readFileSync(`${file}.br`).length).toBeLessThan(script.length / 4);
    expect(existsSync(path.join(dir, 'index.html.br'))).toBe(true);
    expect(existsSync(path.join(dir, 'assets', 'logo-abc123.png.br'))).toBe(false);
  });
});

describe('hashed assets', () => {
  it('sends the brotli copy to a client that accepts it, cached for a year, immutable, varying on Accept-Encoding', async () => {
    const response = await get('/assets/index-abc123.js', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(String(response.headers.vary).toLowerCase()).toContain('accept-encoding');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(script);
  });

  it('sends gzip when brotli is not accepted, and the file itself when nothing is', async () => {
    const gz = await get('/assets/index-abc123.js', { 'accept-encoding': 'gzip, br;q=0' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);
    const plain = await get('/assets/index-abc123.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    expect(String(plain.headers.vary).toLowerCase()).toContain('accept-encoding');
    const identity = await get('/assets/index-abc123.js', { 'accept-encoding': 'identity' });
    expect(identity.headers['content-encoding']).toBeUndefined();
    expect(identity.body).toBe(script);
  });

  it('falls back to gzip, then to the file itself, when a compressed copy is missing', async () => {
    const onlyGzip = await get('/assets/only-gzip-abc123.js', { 'accept-encoding': 'br, gzip' });
    expect(onlyGzip.statusCode).toBe(200);
    expect(onlyGzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(onlyGzip.rawPayload).toString()).toBe(script);
    const plain = await get('/assets/plain-abc123.js', { 'accept-encoding': 'br, gzip' });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
    expect(String(plain.headers.vary).toLowerCase()).toContain('accept-encoding');
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers 304 to a matching ETag, with a tag of its own per encoding', async () => {
    const br = await get('/assets/index-abc123.js', { 'accept-encoding': 'br' });
    const gz = await get('/assets/index-abc123.js', { 'accept-encoding': 'gzip' });
    expect(br.headers.etag).toBeTruthy();
    expect(gz.headers.etag).toBeTruthy();
    expect(br.headers.etag).not.toBe(gz.headers.etag);
    const again = await get('/assets/index-abc123.js', { 'accept-encoding': 'br', 'if-none-match': String(br.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.rawPayload.length).toBe(0);
    // A tag of another encoding is not a match.
    const other = await get('/assets/index-abc123.js', { 'accept-encoding': 'br', 'if-none-match': String(gz.headers.etag) });
    expect(other.statusCode).toBe(200);
  });

  it('answers 404 problem+json for an asset that does not exist', async () => {
    const response = await get('/assets/nope-abc123.js', { 'accept-encoding': 'br' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toContain('application/problem+json');
  });
});

describe('index.html', () => {
  it.each(['/', '/login', '/organization/o1/project/p1'])('is sent compressed for %s, never cached without revalidation, with the CSP', async (url) => {
    const response = await get(url, { 'accept-encoding': 'br, gzip' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(String(response.headers.vary).toLowerCase()).toContain('accept-encoding');
    expect(response.headers['content-security-policy']).toContain("script-src 'self'");
    expect(brotliDecompressSync(response.rawPayload).toString()).toBe(indexHtml);
    const plain = await get(url);
    expect(plain.body).toBe(indexHtml);
  });

  it('answers 304 when it has not changed', async () => {
    const first = await get('/login', { 'accept-encoding': 'gzip' });
    expect(first.headers.etag).toBeTruthy();
    const again = await get('/login', { 'accept-encoding': 'gzip', 'if-none-match': String(first.headers.etag) });
    expect(again.statusCode).toBe(304);
    expect(again.headers['cache-control']).toBe('no-cache');
  });

  it('is not the answer under a service prefix', async () => {
    const response = await get('/api/nothing-here', { 'accept-encoding': 'br' });
    expect(response.statusCode).toBe(404);
    expect(response.headers['content-type']).toContain('application/problem+json');
  });
});
