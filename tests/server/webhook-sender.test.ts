/**
 * The webhook sender off the server's thread (server/webhooks/sender.ts): in a worker thread and in
 * a child process it checks addresses exactly as the app's guard does, returns the receiver's status
 * and the start of its answer, and closes without leaving anything running; a guard that cannot
 * cross threads (its own name resolver) sends in-process.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OutboundError, UrlGuard } from '../../server/lib/url-guard.ts';
import { OffThreadSender } from '../../server/webhooks/sender.ts';

const log = { warn: () => undefined } as never;
let server: Server;
let base = '';
const seen: { path: string; body: string; signature: string | undefined }[] = [];

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      seen.push({ path: request.url ?? '', body, signature: request.headers['x-test-signature'] as string | undefined });
      if (request.url === '/big') response.end('x'.repeat(10_000));
      else if (request.url === '/fail') response.writeHead(503).end('down');
      else response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const send = (sender: OffThreadSender, path: string, body = '{"a":1}') =>
  sender.send(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-test-signature': 'sig' }, body, maxBytes: 2048, timeoutMs: 5000 });

describe.each(['thread', 'process'] as const)('webhook sender in a %s', (kind) => {
  it('sends, answers status and the start of the body, refuses what the guard refuses, and closes', async () => {
    const sender = new OffThreadSender(new UrlGuard({ allowPrivate: ['127.0.0.1/32'] }), log, kind, kind === 'process' ? 10 : 0);
    const ok = await send(sender, '/hook', '{"item":"é"}');
    expect(ok.status).toBe(200);
    expect(ok.body.toString('utf8')).toBe('ok');
    expect(seen.at(-1)).toEqual({ path: '/hook', body: '{"item":"é"}', signature: 'sig' });

    const big = await send(sender, '/big');
    expect(big.truncated).toBe(true);
    expect(big.body.length).toBe(2048);
    expect((await send(sender, '/fail')).status).toBe(503);
    // Many at once over the kept connections.
    const many = await Promise.all(Array.from({ length: 40 }, (_, i) => send(sender, `/hook?n=${i}`)));
    expect(many.every((r) => r.status === 200)).toBe(true);

    // An address the guard does not allow is refused in the sender as in the app.
    const refused = await sender.send('http://10.1.2.3/hook', { method: 'POST', headers: {}, body: '{}', maxBytes: 10, timeoutMs: 2000 }).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(OutboundError);
    expect((refused as OutboundError).kind).toBe('refused');
    await sender.close();
  });
});

it('sends in-process when the guard resolves names its own way (it cannot cross threads)', async () => {
  const guard = new UrlGuard({ allowPrivate: ['127.0.0.1/32'], resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
  expect(guard.threadOptions()).toBeUndefined();
  const sender = new OffThreadSender(guard, log, 'process');
  const port = new URL(base).port;
  const answer = await sender.send(`http://receiver.example:${port}/named`, { method: 'POST', headers: {}, body: '{}', maxBytes: 100, timeoutMs: 5000 });
  expect(answer.status).toBe(200);
  expect(seen.at(-1)!.path).toBe('/named');
  await sender.close();
});
