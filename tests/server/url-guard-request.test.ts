/**
 * `UrlGuard.request` (server/lib/url-guard.ts): `send` for any method, as an API client needs
 * (GET and DELETE without a body, PATCH with one). The same checks: a refused address is never
 * contacted, a name connects to the address it resolved to, no redirect is followed, the answer is
 * read up to the cap.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UrlGuard, type Resolver } from '../../server/lib/url-guard.ts';

describe('UrlGuard.request', () => {
  let server: http.Server;
  let port: number;
  const seen: { method: string; url: string; body: string; authorization?: string }[] = [];

  beforeAll(async () => {
    server = http.createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        seen.push({ method: request.method ?? '', url: request.url ?? '', body, ...(request.headers.authorization ? { authorization: request.headers.authorization } : {}) });
        if (request.url === '/moved') return void response.writeHead(302, { location: '/elsewhere' }).end();
        if (request.url === '/big') return void response.writeHead(200).end('x'.repeat(5000));
        response.writeHead(request.method === 'DELETE' ? 202 : 200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: request.method, body }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const resolver: Resolver = async (name) => (name === 'api.example' ? [{ address: '127.0.0.1', family: 4 }] : []);
  const guard = () => new UrlGuard({ resolve: resolver, allowPrivate: ['127.0.0.1/32'], timeoutMs: 2000 });

  it('sends GET and DELETE without a body and PATCH with one, headers included, to the checked address', async () => {
    const g = guard();
    const got = await g.request(`http://api.example:${port}/tasks/1`, { method: 'GET', headers: { authorization: 'Bearer k' }, maxBytes: 1000 });
    expect(got.status).toBe(200);
    expect(JSON.parse(got.body.toString())).toEqual({ method: 'GET', body: '' });
    const removed = await g.request(`http://api.example:${port}/indexes/a/documents/1`, { method: 'DELETE', headers: {}, maxBytes: 1000 });
    expect(removed.status).toBe(202);
    const patched = await g.request(`http://api.example:${port}/indexes/a`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: '{"a":1}', maxBytes: 1000 });
    expect(JSON.parse(patched.body.toString())).toEqual({ method: 'PATCH', body: '{"a":1}' });
    expect(seen.slice(-3).map((r) => [r.method, r.url])).toEqual([
      ['GET', '/tasks/1'],
      ['DELETE', '/indexes/a/documents/1'],
      ['PATCH', '/indexes/a'],
    ]);
    expect(seen.at(-3)!.authorization).toBe('Bearer k');
    await g.close();
  });

  it('answers a redirect as it is, and keeps only the first maxBytes of the body', async () => {
    const g = guard();
    const moved = await g.request(`http://127.0.0.1:${port}/moved`, { method: 'GET', headers: {}, maxBytes: 1000 });
    expect(moved.status).toBe(302);
    expect(seen.at(-1)!.url).toBe('/moved');
    const big = await g.request(`http://127.0.0.1:${port}/big`, { method: 'GET', headers: {}, maxBytes: 100 });
    expect(big).toMatchObject({ truncated: true });
    expect(big.body.length).toBe(100);
    await g.close();
  });

  it('refuses an address the installation does not allow before connecting', async () => {
    const before = seen.length;
    const strict = new UrlGuard({ resolve: resolver, timeoutMs: 2000 });
    await expect(strict.request(`http://api.example:${port}/tasks/1`, { method: 'GET', headers: {}, maxBytes: 1000 })).rejects.toMatchObject({ kind: 'refused' });
    await expect(strict.request(`http://127.0.0.1:${port}/x`, { method: 'DELETE', headers: {}, maxBytes: 1000 })).rejects.toMatchObject({ kind: 'refused' });
    expect(seen.length).toBe(before);
  });
});
