/**
 * The official BagelDB client's `users()` against a listening Larder: sign-up,
 * sign-in, the signed-in user, the 401 → refresh → retry flow, codes, reset and the User Admin's
 * password change. User sessions only exist where `document` does, so a stub
 * `document` and a persistent `customStorage` stand in for a browser while a test needs them.
 */
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, databaseKinds, type TestApp } from './support/test-app.ts';
import { sleep } from './support/assertions.ts';
import { contentFixture, type ContentFixture } from './support/content.ts';
import { lastCode, mintToken, newEmail } from './support/end-users.ts';
import { lastMailTo } from './support/flows.ts';

const require = createRequire(import.meta.url);
type Client = any;

/** Storage the client keeps its user in (without it nothing persists on Node). */
function memoryStorage() {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, String(value)),
    removeItem: (key: string) => void map.delete(key),
  };
}

describe.each(databaseKinds)('the official client’s users() against Larder on %s', (kind) => {
  let t: TestApp;
  let f: ContentFixture;
  let base: string;
  let BagelDB: any;
  let apiToken: string;
  let adminToken: string;
  const saved = { FormData: globalThis.FormData, document: (globalThis as any).document };
  let requests = 0;

  const client = (token: string, storage = memoryStorage()): { db: Client; storage: ReturnType<typeof memoryStorage> } => ({
    db: new BagelDB(token, { baseEndpoint: `${base}/api/public`, authEndpoint: `${base}/auth/public`, customStorage: storage }),
    storage,
  });
  /** Runs `body` as in a browser (a `document` exists), so the client uses the user's tokens. */
  const asBrowser = async <T>(body: () => Promise<T>): Promise<T> => {
    (globalThis as any).document = {};
    try {
      return await body();
    } finally {
      delete (globalThis as any).document;
    }
  };

  beforeAll(async () => {
    (globalThis as any).FormData = require('form-data');
    BagelDB = require('@bageldb/bagel-db/dist/serverSpread.cjs').BagelDB;
    // Short-lived access tokens, so the refresh flow can be seen.
    t = await createTestApp(kind, { ACCESS_TOKEN_TTL_S: '3' });
    base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
    t.app.server.on('request', () => {
      requests++;
    });
    f = await contentFixture(t);
    apiToken = await mintToken(t, f, { powerRead: true });
    adminToken = await mintToken(t, f, { userAdmin: true });
  });

  afterAll(async () => {
    (globalThis as any).FormData = saved.FormData;
    if (saved.document === undefined) delete (globalThis as any).document;
    await t?.close();
  });

  it('create, getUser, the 401 → refresh → retry flow, and a wrong password while signed in (no loop)', async () => {
    const { db, storage } = client(apiToken);
    const email = newEmail('client');
    await asBrowser(async () => {
      const userId = await db.users().create(` ${email.toUpperCase()} `, 'a long enough password');
      expect(userId).toMatch(/^[0-9a-f]{24}$/);
      expect(storage.map.get('bagel-user')).toBe(userId);
      expect(Number(storage.map.get('bagel-expires'))).toBeGreaterThan(Date.now());
      await expect(Promise.resolve(db.users().getBagelUserID())).resolves.toBe(userId);

      const me = await db.users().getUser();
      expect(me.data ?? me).toMatchObject({ userID: userId, email });

      // The access token expires; the client only learns it from a 401, refreshes and retries.
      const firstAccess = storage.map.get('bagel-access');
      await sleep(3200);
      const again = await db.users().getUser();
      expect(again.data ?? again).toMatchObject({ userID: userId });
      expect(storage.map.get('bagel-access')).not.toBe(firstAccess);
      expect(storage.map.get('bagel-user')).toBe(userId);

      // A wrong password while signed in is a 400: one request, no refresh loop, still signed in.
      const before = requests;
      const wrong = await db.users().validate(email, 'not the password').catch((error: any) => error);
      expect(wrong?.response?.status ?? wrong?.status).toBe(400);
      expect(requests - before).toBe(1);
      expect(storage.map.get('bagel-user')).toBe(userId);

      const right = await db.users().validate(email, 'a long enough password');
      expect(right).toBe(userId);
    });
  });

  it('refresh() rotates the stored tokens; a refused refresh logs the user out', async () => {
    const { db, storage } = client(apiToken);
    await asBrowser(async () => {
      const userId = await db.users().create(newEmail('refresh'), 'a long enough password');
      const refresh = storage.map.get('bagel-refresh');
      const access = await db.users().refresh();
      expect(typeof access).toBe('string');
      expect(storage.map.get('bagel-refresh')).not.toBe(refresh);
      expect(storage.map.get('bagel-user')).toBe(userId);

      storage.map.set('bagel-refresh', 'stolen-or-stale');
      const refused = await db.users().refresh().catch((error: any) => error);
      expect(String(refused?.message ?? refused)).toMatch(/logged out/);
      expect(storage.map.has('bagel-user')).toBe(false);
    });
  });

  it('requestOtp and validateOtp sign in by code; a wrong code rejects', async () => {
    const { db, storage } = client(apiToken);
    const email = newEmail('clientotp');
    await asBrowser(async () => {
      const nonce = await db.users().requestOtp(email);
      expect(typeof nonce).toBe('string');
      expect(storage.map.get('bagel-nonce')).toBe(nonce);
      const code = await lastCode(t, email);
      const wrong = await db.users().validateOtp(code === '000000' ? '111111' : '000000').catch((error: any) => error);
      expect(String(wrong?.message ?? wrong)).toMatch(/wrong authorization code/);
      const userId = await db.users().validateOtp(code);
      expect(userId).toMatch(/^[0-9a-f]{24}$/);
      expect(storage.map.get('bagel-user')).toBe(userId);
    });
  });

  it('requestPasswordReset resolves (exactly 200) and mails the reset page; updatePassword works with a User Admin token on a server', async () => {
    const email = newEmail('clientreset');
    const { db } = client(apiToken);
    await asBrowser(() => db.users().create(email, 'a long enough password'));
    await db.users().requestPasswordReset(email);
    expect((await lastMailTo(t.app, email, 'project-user-reset')).link).toMatch(/\/bagel-auth-reset-password\//);

    const plain = await client(apiToken).db.users().updatePassword(email, 'changed by admin 1').catch((error: any) => error);
    expect(plain?.response?.status).toBe(403);
    const { db: admin } = client(adminToken);
    await admin.users().updatePassword(email, 'changed by admin 1');
    const signedIn = await client(apiToken).db.users().validate(email, 'changed by admin 1');
    expect(signedIn).toMatch(/^[0-9a-f]{24}$/);
  });
});
