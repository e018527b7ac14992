/**
 * Two tabs whose access token expired refresh at the same moment with the same refresh token: the
 * server's reuse grace gives both the same new pair, so both stay signed in; signing out in one
 * signs out the other. Needs short-lived
 * access tokens, so this spec starts its own server with ACCESS_TOKEN_TTL_S=2.
 */
import { expect, request as playwrightRequest, test, type Page } from '@playwright/test';
import { createVerifiedAccount } from './support/accounts.ts';
import { expectSignedIn, signOut } from './support/console.ts';
import { startServer, type RunningServer } from './support/server.ts';

const TTL_S = 2;
let server: RunningServer;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  server = await startServer({ ACCESS_TOKEN_TTL_S: String(TTL_S), REFRESH_REUSE_GRACE_S: '10', LOG_LEVEL: 'error' });
});

test.afterAll(async () => {
  await server?.stop();
});

/** Resolves with the status of the next GET /api/user/me the page makes. */
const nextMe = (page: Page) =>
  page.waitForResponse((response) => response.url().endsWith('/api/user/me') && response.request().method() === 'GET' && response.status() !== 401);

test('two tabs refreshing at once both stay signed in', async ({ browser }) => {
  const api = await playwrightRequest.newContext({ baseURL: server.url });
  const account = await createVerifiedAccount(api, 'tabs');
  const context = await browser.newContext({ baseURL: server.url });
  const first = await context.newPage();
  await first.goto('/login');
  await first.getByLabel('Username or e-mail').fill(account.username);
  await first.getByLabel('Password').fill(account.password);
  await first.getByRole('button', { name: 'Sign in' }).click();
  await expectSignedIn(first);
  const second = await context.newPage();
  await second.goto('/');
  await expectSignedIn(second);

  const refreshes: string[] = [];
  context.on('response', (response) => {
    if (response.url().endsWith('/auth/token')) refreshes.push(`${response.status()}`);
  });

  for (let round = 0; round < 2; round += 1) {
    // Let the access token expire, then load both tabs at the same moment.
    await first.waitForTimeout((TTL_S + 1) * 1000);
    const answers = Promise.all([nextMe(first), nextMe(second)]);
    await Promise.all([first.reload(), second.reload()]);
    const [a, b] = await answers;
    expect([a.status(), b.status()]).toEqual([200, 200]);
    await expectSignedIn(first);
    await expectSignedIn(second);
    await expect(first).toHaveURL(`${server.url}/`);
    await expect(second).toHaveURL(`${server.url}/`);
  }
  // Refreshes happened, and none was refused.
  expect(refreshes.length).toBeGreaterThan(0);
  expect(refreshes.every((status) => status === '200')).toBe(true);
  expect(await first.evaluate(() => localStorage.getItem('larder.tokens'))).not.toBeNull();

  // Signing out in one tab signs the other out too.
  await second.goto('/dovs');
  await expectSignedIn(second);
  await signOut(first);
  await expect(second).toHaveURL(/\/login\?returnUrl=%2Fdovs$/);
  await context.close();
  await api.dispose();
});
