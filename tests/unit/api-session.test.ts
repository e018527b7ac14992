// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createSession, LAST_ORGANIZATION_STORAGE_KEY, parseTokens, TOKENS_STORAGE_KEY, type Session } from '../../src/api/session.ts';

const sessions: Session[] = [];
const open = (...args: Parameters<typeof createSession>) => {
  const session = createSession(...args);
  sessions.push(session);
  return session;
};
const otherTabWrites = (key: string | null, value: string | null) => {
  if (key !== null) {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } else localStorage.clear();
  window.dispatchEvent(new StorageEvent('storage', { key, newValue: value, storageArea: localStorage }));
};

beforeEach(() => localStorage.clear());
afterEach(() => {
  for (const session of sessions.splice(0)) session.dispose();
});

describe('session', () => {
  it('keeps the pair in localStorage under its key and tells this tab’s subscribers', () => {
    const session = open();
    const listener = vi.fn();
    session.subscribe(listener);
    session.write({ accessToken: 'a1', refreshToken: 'r1' });
    expect(JSON.parse(localStorage.getItem(TOKENS_STORAGE_KEY)!)).toEqual({ accessToken: 'a1', refreshToken: 'r1' });
    expect(session.read()).toEqual({ accessToken: 'a1', refreshToken: 'r1' });
    session.clear();
    expect(localStorage.getItem(TOKENS_STORAGE_KEY)).toBeNull();
    expect(listener.mock.calls).toEqual([[{ accessToken: 'a1', refreshToken: 'r1' }], [null]]);
  });

  it('hears pairs written and cleared by other tabs', () => {
    const session = open();
    const listener = vi.fn();
    session.subscribe(listener);
    otherTabWrites(TOKENS_STORAGE_KEY, JSON.stringify({ accessToken: 'a2', refreshToken: 'r2' }));
    otherTabWrites('larder.theme', 'dark');
    otherTabWrites(null, null);
    expect(listener.mock.calls).toEqual([[{ accessToken: 'a2', refreshToken: 'r2' }], [null]]);
    expect(session.read()).toBeNull();
  });

  it('stops listening to other tabs once the last subscriber leaves, and on dispose', () => {
    const session = open();
    const listener = vi.fn();
    const unsubscribe = session.subscribe(listener);
    unsubscribe();
    otherTabWrites(TOKENS_STORAGE_KEY, JSON.stringify({ accessToken: 'a3', refreshToken: 'r3' }));
    session.subscribe(listener);
    session.dispose();
    otherTabWrites(TOKENS_STORAGE_KEY, JSON.stringify({ accessToken: 'a4', refreshToken: 'r4' }));
    expect(listener).not.toHaveBeenCalled();
  });

  it('remembers the last organization', () => {
    const session = open();
    expect(session.getLastOrganization()).toBeNull();
    session.setLastOrganization('org-7');
    expect(localStorage.getItem(LAST_ORGANIZATION_STORAGE_KEY)).toBe('org-7');
    expect(LAST_ORGANIZATION_STORAGE_KEY).toBe('larder.lastOrganization');
    expect(session.getLastOrganization()).toBe('org-7');
    session.setLastOrganization(null);
    expect(session.getLastOrganization()).toBeNull();
  });

  it('ignores stored values that are not a token pair', () => {
    expect(parseTokens('not json')).toBeNull();
    expect(parseTokens('{"accessToken":1}')).toBeNull();
    expect(parseTokens('{"accessToken":"","refreshToken":"r"}')).toBeNull();
    expect(parseTokens(null)).toBeNull();
    localStorage.setItem(TOKENS_STORAGE_KEY, '{broken');
    expect(open().read()).toBeNull();
  });

  it('keeps the session in memory when storage refuses writes', () => {
    const refusing = {
      getItem: () => null,
      setItem: () => {
        throw new DOMException('Quota exceeded', 'QuotaExceededError');
      },
      removeItem: () => {},
    };
    const session = open({ storage: refusing, events: null });
    session.write({ accessToken: 'a5', refreshToken: 'r5' });
    expect(session.read()).toEqual({ accessToken: 'a5', refreshToken: 'r5' });
    session.clear();
    expect(session.read()).toBeNull();
  });
});
