/**
 * TRUST_PROXY (docs/operations.md "Several processes"): a request from a configured proxy counts
 * as from the address its X-Forwarded-For names, so the per-address sign-up limit counts clients
 * apart; the same header from anyone else is ignored, and without the setting every client behind
 * the proxy counts as the proxy.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from './support/test-app.ts';

const signUp = (t: TestApp, n: string, remoteAddress: string, forwardedFor?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/user',
    remoteAddress,
    headers: { 'content-type': 'application/json', ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
    payload: JSON.stringify({ username: `proxied-${n}`, email: `proxied-${n}@example.com`, password: 'a password long enough' }),
  });

describe('client addresses behind a proxy', () => {
  let trusting: TestApp;
  let plain: TestApp;
  beforeAll(async () => {
    trusting = await createTestApp('pglite', { TRUST_PROXY: '10.0.0.0/8', RATE_LIMIT_SIGNUP_ADDRESS: '1/1h' });
    plain = await createTestApp('pglite', { RATE_LIMIT_SIGNUP_ADDRESS: '1/1h' });
  });
  afterAll(async () => {
    await trusting?.close();
    await plain?.close();
  });

  it('counts each forwarded client apart when the proxy is trusted', async () => {
    expect((await signUp(trusting, 'a1', '10.1.2.3', '203.0.113.1')).statusCode).toBe(201);
    expect((await signUp(trusting, 'b1', '10.1.2.3', '203.0.113.2')).statusCode).toBe(201);
    expect((await signUp(trusting, 'a2', '10.1.2.3', '203.0.113.1')).statusCode).toBe(429);
    // Not from a trusted proxy: the header is the client's own claim and is ignored.
    expect((await signUp(trusting, 'c1', '198.51.100.7', '203.0.113.3')).statusCode).toBe(201);
    expect((await signUp(trusting, 'c2', '198.51.100.7', '203.0.113.4')).statusCode).toBe(429);
  });

  it('counts every client behind an untrusted proxy as the proxy', async () => {
    expect((await signUp(plain, 'd1', '10.1.2.3', '203.0.113.1')).statusCode).toBe(201);
    expect((await signUp(plain, 'd2', '10.1.2.3', '203.0.113.2')).statusCode).toBe(429);
  });
});
