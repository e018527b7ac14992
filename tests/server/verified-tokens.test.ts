/**
 * Checked tokens are kept by their exact string until their `exp` (server/auth/verified-tokens.ts):
 * past it the same string is 'expired' and forgotten, a not-before token is never kept, and the
 * oldest goes first once full.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { VerifiedTokens } from '../../server/auth/verified-tokens.ts';

describe('VerifiedTokens', () => {
  afterEach(() => vi.useRealTimers());

  it('keeps a token until its exp, then answers expired once and forgets it', () => {
    vi.useFakeTimers({ now: new Date('2026-11-29T12:00:00Z') });
    const memo = new VerifiedTokens<{ exp: number | undefined; id: string }>();
    const exp = Math.floor(Date.now() / 1000) + 60;
    memo.remember('a', { exp, id: 'one' }, undefined);
    expect(memo.get('a')).toEqual({ exp, id: 'one' });
    expect(memo.get('b')).toBeUndefined();
    vi.setSystemTime((exp - 1) * 1000 + 999);
    expect(memo.get('a')).toEqual({ exp, id: 'one' });
    vi.setSystemTime(exp * 1000);
    expect(memo.get('a')).toBe('expired');
    expect(memo.get('a')).toBeUndefined();
  });

  it('keeps a token without exp for good, never one with a not-before claim', () => {
    const memo = new VerifiedTokens<{ exp: number | undefined }>();
    memo.remember('forever', { exp: undefined }, undefined);
    memo.remember('later', { exp: undefined }, 1_900_000_000);
    expect(memo.get('forever')).toEqual({ exp: undefined });
    expect(memo.get('later')).toBeUndefined();
  });

  it('drops the oldest once full', () => {
    const memo = new VerifiedTokens<{ exp: number | undefined }>(2);
    for (const token of ['a', 'b', 'c']) memo.remember(token, { exp: undefined }, undefined);
    expect([memo.get('a'), memo.get('b'), memo.get('c')]).toEqual([undefined, { exp: undefined }, { exp: undefined }]);
  });
});
