/**
 * Requests before background work (server/lib/foreground.ts): a Fastify app on a real port, whose
 * slow route keeps a request in flight as long as the test says.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { Foreground } from '../../server/lib/foreground.ts';

let app: FastifyInstance | undefined;

afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** An app with a route that answers when `release` is called, and a live-stream-like route. */
async function start() {
  const foreground = new Foreground();
  const held: (() => void)[] = [];
  app = Fastify();
  foreground.register(app);
  app.get('/slow', () => new Promise<string>((resolve) => held.push(() => resolve('done'))));
  app.get('/fast', () => 'ok');
  app.get('/stream', (request, reply) => {
    reply.hijack();
    foreground.release(reply.raw);
    reply.raw.writeHead(200, { 'content-type': 'text/event-stream' });
    reply.raw.write(': open\n\n');
  });
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  return { foreground, base, answer: () => held.shift()?.() };
}

/** Resolves to the ms quiet() took, or 'pending' if it has not resolved after `ms`. */
const within = async (promise: Promise<void>, ms: number) => {
  const started = Date.now();
  return Promise.race([promise.then(() => Date.now() - started), new Promise<'pending'>((resolve) => setTimeout(() => resolve('pending'), ms))]);
};

describe('Foreground', () => {
  it('waits while a request from outside is in flight, and for a short quiet after it', async () => {
    const { foreground, base, answer } = await start();
    const slow = fetch(`${base}/slow`);
    await expect.poll(() => foreground.busy).toBe(1);
    const quiet = foreground.quiet(Date.now() + 10_000);
    expect(await within(quiet, 150)).toBe('pending');
    answer();
    expect(await (await slow).text()).toBe('done');
    const waited = await within(quiet, 1000);
    expect(waited).not.toBe('pending');
    expect(foreground.busy).toBe(0);
  });

  it('goes ahead at its time limit however busy the process is', async () => {
    const { foreground, base, answer } = await start();
    const slow = fetch(`${base}/slow`);
    await expect.poll(() => foreground.busy).toBe(1);
    const waited = await within(foreground.quiet(Date.now() + 200), 2000);
    expect(waited).not.toBe('pending');
    expect(waited as number).toBeGreaterThanOrEqual(150);
    expect(foreground.busy).toBe(1);
    answer();
    await slow;
  });

  it('stops waiting when its signal aborts (its owner stops)', async () => {
    const { foreground, base, answer } = await start();
    const slow = fetch(`${base}/slow`);
    await expect.poll(() => foreground.busy).toBe(1);
    const stopping = new AbortController();
    const quiet = foreground.quiet(Date.now() + 10_000, stopping.signal);
    expect(await within(quiet, 150)).toBe('pending');
    stopping.abort();
    expect(await within(quiet, 1000)).not.toBe('pending');
    expect(foreground.busy).toBe(1);
    answer();
    await slow;
  });

  it('does not count the calls the process makes to itself, nor a stream under way', async () => {
    const { foreground, base, answer } = await start();
    const injected = app!.inject({ method: 'GET', url: '/slow' });
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(foreground.busy).toBe(0);
    const controller = new AbortController();
    const stream = await fetch(`${base}/stream`, { signal: controller.signal });
    expect(stream.status).toBe(200);
    expect(foreground.busy).toBe(0);
    expect(await within(foreground.quiet(Date.now() + 10_000), 1000)).not.toBe('pending');
    controller.abort();
    answer();
    expect((await injected).body).toBe('done');
  });

  it('counts a request its client abandons only until it goes', async () => {
    const { foreground, base, answer } = await start();
    const controller = new AbortController();
    const abandoned = fetch(`${base}/slow`, { signal: controller.signal }).catch(() => 'aborted');
    await expect.poll(() => foreground.busy).toBe(1);
    controller.abort();
    expect(await abandoned).toBe('aborted');
    await expect.poll(() => foreground.busy).toBe(0);
    answer();
    const fast = await fetch(`${base}/fast`);
    expect(await fast.text()).toBe('ok');
    await expect.poll(() => foreground.busy).toBe(0);
  });
});
