/**
 * No enumeration signal: sign-up with a registered e-mail, reset-mail requests for unknown
 * addresses and sign-in with unknown names answer exactly like their counterparts, after the same
 * argon2 work (counted by wrapping @node-rs/argon2: the exact proof), and in comparable time.
 * The timing checks are deliberately lenient (medians of alternating runs, 50 ms plus half the
 * slower median, retried): the known-account paths do a few more database writes, which on a
 * loaded machine cost tens of milliseconds, so they only catch gross differences such as a
 * skipped hash on a quiet machine or a mail server round trip inside the request.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import * as argon2 from '@node-rs/argon2';
import { lastMailTo, mailsTo, newAccount, passwordGrant, signUp, verifiedUser } from './support/flows.ts';
import { median } from './support/assertions.ts';
import { createTestApp, databaseKinds, type TestApp } from './support/test-app.ts';

vi.mock('@node-rs/argon2', async (importOriginal) => {
  const real = await importOriginal<typeof import('@node-rs/argon2')>();
  return { ...real, hash: vi.fn(real.hash), verify: vi.fn(real.verify) };
});

const hash = vi.mocked(argon2.hash);
const verify = vi.mocked(argon2.verify);

/** The argon2 calls `run` makes, and what it answered. */
async function measure<T>(run: () => Promise<T>) {
  hash.mockClear();
  verify.mockClear();
  const started = performance.now();
  const result = await run();
  const ms = performance.now() - started;
  return { result, ms, hashes: hash.mock.calls.map((c) => c[1]), verifies: verify.mock.calls.length };
}

/** Medians of alternating runs are close: within 50 ms plus half of the slower one. */
async function expectComparableTiming(a: () => Promise<unknown>, b: () => Promise<unknown>, runs = 7) {
  const times: [number[], number[]] = [[], []];
  for (let i = 0; i < runs; i++) {
    for (const [index, run] of [a, b].entries()) {
      const started = performance.now();
      await run();
      times[index as 0 | 1].push(performance.now() - started);
    }
  }
  const [ma, mb] = [median(times[0]), median(times[1])];
  expect(Math.abs(ma - mb), `medians ${ma.toFixed(1)} ms vs ${mb.toFixed(1)} ms`).toBeLessThan(50 + Math.max(ma, mb) / 2);
}

describe.each(databaseKinds)('no account enumeration on %s', (kind) => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof verifiedUser>>;

  beforeAll(async () => {
    t = await createTestApp(kind);
    owner = await verifiedUser(t.app, 'owner');
    // Warm-up: the dummy hash for unknown users is made on first use.
    await passwordGrant(t.app, 'warm-up-nobody', 'some password');
  });
  beforeEach(() => {
    hash.mockClear();
    verify.mockClear();
  });
  afterAll(() => t?.close());

  it('sign-up: a registered e-mail answers byte for byte like a new one, after the same password hash', async () => {
    const fresh = newAccount('fresh');
    const created = await measure(() => signUp(t.app, fresh));
    const duplicate = await measure(() => signUp(t.app, { ...newAccount('dup'), email: owner.account.email }));
    expect(duplicate.result.statusCode).toBe(201);
    expect(duplicate.result.statusCode).toBe(created.result.statusCode);
    expect(duplicate.result.body).toBe(created.result.body);
    expect(duplicate.result.headers['content-type']).toBe(created.result.headers['content-type']);
    expect(Object.keys(duplicate.result.headers).sort()).toEqual(Object.keys(created.result.headers).sort());
    // The same argon2 work: one hash with the same parameters, no verification.
    expect(created.hashes).toHaveLength(1);
    expect(duplicate.hashes).toEqual(created.hashes);
    expect(duplicate.verifies).toBe(created.verifies);
    // The owner is told instead; the newcomer gets the confirmation.
    expect((await lastMailTo(t.app, owner.account.email)).kind).toBe('signup-existing');
    expect((await lastMailTo(t.app, fresh.email)).kind).toBe('confirm');
  });

  it('sign-in: an unknown name answers like a wrong password, after one argon2 verification each', async () => {
    const wrong = await measure(() => passwordGrant(t.app, owner.account.username, 'not the password'));
    const unknownName = await measure(() => passwordGrant(t.app, 'no-such-user-anywhere', 'not the password'));
    const unknownEmail = await measure(() => passwordGrant(t.app, 'no-such-user@example.com', 'not the password'));
    for (const other of [unknownName, unknownEmail]) {
      expect(other.result.statusCode).toBe(400);
      expect(other.result.body).toBe(wrong.result.body);
      expect(other.verifies).toBe(1);
      expect(other.hashes).toEqual(wrong.hashes);
    }
    expect(wrong.verifies).toBe(1);
    expect(wrong.hashes).toEqual([]);
  });

  it('reset mail: an unknown address answers like a known one, and only the owner gets mail', async () => {
    const unknown = 'not-registered-anywhere@example.com';
    const request = (email: string) => t.app.inject({ method: 'POST', url: '/auth/resetPasswordEmail', payload: { email } });
    const known = await measure(() => request(owner.account.email));
    const stranger = await measure(() => request(unknown));
    expect(stranger.result.statusCode).toBe(known.result.statusCode);
    expect(stranger.result.body).toBe(known.result.body);
    expect(Object.keys(stranger.result.headers).sort()).toEqual(Object.keys(known.result.headers).sort());
    expect([known.hashes.length, known.verifies]).toEqual([stranger.hashes.length, stranger.verifies]);
    expect((await lastMailTo(t.app, owner.account.email)).kind).toBe('reset');
    expect(await mailsTo(t.app, unknown)).toEqual([]);
  });

  it('takes comparable time for sign-up with a new or a registered e-mail', { retry: 2 }, async () => {
    await expectComparableTiming(
      () => signUp(t.app, newAccount('timing')),
      () => signUp(t.app, { ...newAccount('timingdup'), email: owner.account.email }),
    );
  });

  it('takes comparable time for a wrong password and an unknown user', { retry: 2 }, async () => {
    await expectComparableTiming(
      () => passwordGrant(t.app, owner.account.username, 'not the password'),
      () => passwordGrant(t.app, 'no-such-user-anywhere', 'not the password'),
    );
  });

  it('takes comparable time for reset mail to known and unknown addresses', { retry: 2 }, async () => {
    const request = (email: string) => t.app.inject({ method: 'POST', url: '/auth/resetPasswordEmail', payload: { email } });
    await expectComparableTiming(
      () => request(owner.account.email),
      () => request('not-registered-anywhere@example.com'),
    );
  });
});
