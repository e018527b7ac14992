/** The console's shell: CSP, lean sign-in page, theme, Dev mailbox, third-party button, API events. */
import { gzipSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { createVerifiedAccount } from './support/accounts.ts';
import { expectSignedIn, signIn, watchCsp } from './support/console.ts';

test('the console is served under its CSP and runs without violations', async ({ page }) => {
  const csp = watchCsp(page);
  const response = await page.goto('/login');
  const policy = response?.headers()['content-security-policy'] ?? '';
  expect(policy).toContain("script-src 'self'");
  expect(policy).not.toContain('unsafe-eval');
  await expect(page.getByRole('heading', { name: 'Sign in to Larder' })).toBeVisible();
  for (const path of ['/signup', '/forgotPassword', '/dev/mailbox', '/resetPassword/abc', '/no/such/page']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  }
  expect(csp).toEqual([]);
});

test('the sign-in page loads only the sign-in code, under 200 KB gzip', async ({ page }) => {
  const scripts: { url: string; body: Buffer }[] = [];
  page.on('response', async (response) => {
    if (response.request().resourceType() === 'script') scripts.push({ url: response.url(), body: await response.body() });
  });
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await page.waitForLoadState('networkidle');
  const names = scripts.map((s) => new URL(s.url).pathname);
  expect(names.some((name) => name.includes('LoginScreen'))).toBe(true);
  for (const other of ['ConsoleLayout', 'SignupScreen', 'QuestionnaireScreen', 'DevMailboxScreen', 'DocsScreen', 'DialogRenderer', 'SonnerToaster']) {
    expect(names.filter((name) => name.includes(other)), `${other} is not loaded by /login`).toEqual([]);
  }
  const gzip = scripts.reduce((sum, s) => sum + gzipSync(s.body, { level: 9 }).length, 0);
  test.info().annotations.push({ type: 'sign-in scripts, gzip 9', description: `${gzip} B` });
  console.log(`sign-in page scripts: ${gzip} B gzip`);
  expect(gzip).toBeLessThanOrEqual(200 * 1024);
  // ajv's compiler stays out of the browser: the validators are precompiled.
  for (const script of scripts) expect(script.body.toString()).not.toMatch(/new Function\(|\bnew Ajv\b/);
});

test('the theme follows the system until chosen, and the choice is kept', async ({ browser }) => {
  const context = await browser.newContext({ colorScheme: 'dark' });
  const page = await context.newPage();
  await page.goto('/login');
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.getByRole('button', { name: 'Switch to light theme' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  expect(await page.evaluate(() => localStorage.getItem('larder.theme'))).toBe('light');
  await page.getByRole('button', { name: 'Switch to dark theme' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await context.close();
});

test('the Dev mailbox explains itself when the server answers 404 (not loopback)', async ({ page }) => {
  await page.route('**/api/dev/mailbox**', (route) =>
    route.fulfill({ status: 404, contentType: 'application/problem+json', body: JSON.stringify({ status: 404, code: 'not_found', detail: 'No route' }) }),
  );
  await page.goto('/dev/mailbox');
  await expect(page.getByRole('alert')).toContainText('It answers only requests from this computer (loopback)');
});

test('"Sign in with Google" shows only when the server has a Google client id', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Sign in with Google' })).toHaveCount(0);

  await page.route('**/api/config', async (route) => {
    const response = await route.fetch();
    route.fulfill({ response, json: { ...(await response.json()), googleClientId: 'client-123.apps.example' } });
  });
  let authorization: URL | null = null;
  await page.route('https://accounts.google.com/**', (route) => {
    authorization = new URL(route.request().url());
    return route.fulfill({ status: 200, contentType: 'text/html', body: '<title>Google</title>' });
  });
  await page.reload();
  await page.getByRole('button', { name: 'Sign in with Google' }).click();
  await expect.poll(() => authorization?.searchParams.get('client_id')).toBe('client-123.apps.example');
  expect(authorization!.searchParams.get('response_type')).toBe('id_token');
  expect(authorization!.searchParams.get('redirect_uri')).toMatch(/\/login$/);
  await page.goto('/signup');
  await expect(page.getByRole('button', { name: 'Sign up with Google' })).toBeVisible();
});

test('HTTP 429 opens "API Limit Reached" at most once, and "See Plans" goes to the plans', async ({ page, request }) => {
  const account = await createVerifiedAccount(request, 'limits');
  await signIn(page, account);
  await expectSignedIn(page);
  await page.evaluate(() => localStorage.setItem('larder.lastOrganization', 'org-1'));
  await page.route('**/api/user/me', (route) =>
    route.fulfill({
      status: 429,
      contentType: 'application/problem+json',
      body: JSON.stringify({ status: 429, code: 'rate_limited', detail: 'Slow down' }),
    }),
  );
  await page.goto('/dovs');
  const dialog = page.getByRole('alertdialog', { name: 'API Limit Reached' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Remind me in 5 minutes' }).click();
  await expect(dialog).toBeHidden();
  // Another 429 within the throttle window: no dialog.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Home' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(dialog).toBeHidden();

  await page.reload();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'See Plans' }).click();
  await expect(page).toHaveURL(/\/organization\/org-1\/settings\?view=plans$/);
  await expect(page.getByRole('heading', { name: 'Organization settings' })).toBeVisible();
});

test('keyboard: skip link, form fields and buttons in order, focus always visible', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  const focused = () =>
    page.evaluate(() => {
      const element = document.activeElement as HTMLElement;
      const style = getComputedStyle(element);
      return { text: element.getAttribute('aria-label') ?? element.textContent?.trim() ?? '', id: element.id, outline: style.outlineStyle, tag: element.tagName };
    });
  await page.keyboard.press('Tab');
  expect(await focused()).toMatchObject({ text: 'Skip to content', outline: 'solid' });
  await page.keyboard.press('Enter');
  const order: string[] = [];
  for (let i = 0; i < 5; i += 1) {
    await page.keyboard.press('Tab');
    const now = await focused();
    expect(now.outline, `focus visible on ${now.tag} ${now.text}`).toBe('solid');
    order.push(now.tag === 'INPUT' ? `input` : now.text);
  }
  expect(order).toEqual(['input', 'input', 'Sign in', 'Forgot password?', 'Create an account']);
  // Submitting from the keyboard validates and points at the first problem.
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Enter');
  await expect(page.getByText('This field is required').first()).toBeVisible();
  await expect(page.getByLabel('Username or e-mail')).toBeFocused();
});
