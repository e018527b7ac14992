/**
 * The platform admin area as a super-admin (SUPER_ADMIN_USERNAMES in e2e/run.ts) meets it: Admin
 * from the navigation opens Metrics (a chart per metric and its figures as a table); All users
 * finds a user by search, disables them (their token stops working at once) and enables them
 * again; the audit log lists both actions. A normal user has no Admin entry, `/admin` sends them
 * home and the admin API answers 403. Every screen at 1280 px and 900 px, light and dark, axe
 * clean.
 */
import { expect, test, type Page } from '@playwright/test';
import { createVerifiedAccount, passwordGrant, type Account } from './support/accounts.ts';
import { expectAccessible } from './support/axe.ts';
import { signIn } from './support/console.ts';
import { superAdmin, superAdminToken } from './support/super-admin.ts';
import { bearer, organizationWithProject } from './support/platform.ts';

test.describe.configure({ mode: 'serial' });


let target: Account;
let normal: Account;


test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  await superAdminToken(request);
  // An organization, so signing in lands on it rather than on the first-organization dialog.
  await organizationWithProject(request, superAdmin, { organization: 'Platform Kitchen', project: 'Operations' });
  target = await createVerifiedAccount(request, 'admintarget');
  normal = await createVerifiedAccount(request, 'adminnormal');
  await organizationWithProject(request, normal, { organization: 'Normal Kitchen', project: 'Recipes' });
});

const userRow = (page: Page, username: string) => page.locator(`tr[data-user="${username}"]`);

test('a super-admin reads metrics, disables and enables a user, and finds both in the audit log', async ({ browser, request }) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ colorScheme: 'light', reducedMotion: 'reduce', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signIn(page, superAdmin);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' }).click();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Platform admin' })).toBeVisible();
  const sections = page.getByRole('navigation', { name: 'Admin sections' });
  await expect(sections.getByRole('link', { name: 'Metrics' })).toHaveAttribute('aria-current', 'page');

  // Metrics: a canvas per chart, and each chart's figures as a table with numbers in it.
  await expect(page.getByRole('heading', { level: 2, name: 'Metrics' })).toBeVisible();
  await expect(page.locator('.admin-chart canvas').first()).toBeVisible({ timeout: 20_000 });
  expect(await page.locator('.admin-chart canvas').count()).toBeGreaterThanOrEqual(6);
  const users = page.getByRole('figure', { name: /New users/ });
  await users.getByText('Show the figures as a table').click();
  const table = users.getByRole('table', { name: 'New users per day' });
  await expect(table).toBeVisible();
  expect(await table.locator('tbody tr').count()).toBe(30);
  await expect(table.locator('tbody td').filter({ hasText: /^\d[\d,]*$/ }).first()).toBeVisible();
  await page.getByRole('radio', { name: '90 days' }).click();
  await expect(page.getByText('Per day, last 90 days')).toBeVisible();

  // All users: search finds the user; disable, with a confirmation.
  await sections.getByRole('link', { name: 'All users' }).click();
  await expect(page).toHaveURL(/\/admin\/users/);
  await page.getByLabel('Search', { exact: true }).fill(target.username);
  await expect(page).toHaveURL(new RegExp(`search=${target.username}`));
  await expect(page.locator('tbody tr')).toHaveCount(1);
  const row = userRow(page, target.username);
  await expect(row).toContainText(target.email);
  const before = await passwordGrant(request, target);
  expect((await request.get('/api/user/me', { headers: bearer(before) })).status()).toBe(200);

  await row.getByRole('button', { name: `Actions for ${target.username}` }).click();
  await page.getByRole('menuitem', { name: 'Disable' }).click();
  const dialog = page.getByRole('dialog', { name: `Disable ${target.username}?` });
  await expect(dialog).toBeVisible();
  await expectAccessible(page, 'disable dialog light 1280');
  await dialog.getByRole('button', { name: 'Disable' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText(`${target.username} is disabled`)).toBeVisible();
  await expect(row).toContainText('Disabled');
  // Their token stops working at once.
  expect((await request.get('/api/user/me', { headers: bearer(before) })).status()).not.toBe(200);

  await row.getByRole('button', { name: `Actions for ${target.username}` }).click();
  await page.getByRole('menuitem', { name: 'Enable' }).click();
  await page.getByRole('dialog', { name: `Enable ${target.username}?` }).getByRole('button', { name: 'Enable' }).click();
  await expect(page.getByText(`${target.username} is enabled`)).toBeVisible();
  await expect(row).not.toContainText('Disabled');
  await passwordGrant(request, target);

  // Sorting by username: the header says so.
  await page.getByRole('button', { name: 'Username' }).click();
  await expect(page.getByRole('columnheader', { name: 'Username' })).toHaveAttribute('aria-sort', 'ascending');
  await expect(page).toHaveURL(/sort=username/);

  // The audit log: both actions, newest first, with the user as their target.
  const admin = await passwordGrant(request, superAdmin);
  const found = (await (await request.get('/api/admin/users', { headers: bearer(admin), params: { search: target.username } })).json()) as { users: { id: string }[] };
  const targetID = found.users[0]!.id;
  await sections.getByRole('link', { name: 'Audit log' }).click();
  await expect(page).toHaveURL(/\/admin\/audit$/);
  const entries = page.locator('tbody tr', { hasText: targetID });
  await expect(entries).toHaveCount(2);
  await expect(entries.nth(0)).toHaveAttribute('data-action', 'user.enable');
  await expect(entries.nth(1)).toHaveAttribute('data-action', 'user.disable');
  await expect(entries.nth(1)).toContainText(superAdmin.email);
  await page.getByLabel('Action').selectOption('user.disable');
  await expect(page).toHaveURL(/action=user\.disable/);
  await expect(page.locator('tbody tr', { hasText: targetID })).toHaveCount(1);
  await context.close();
});

for (const colorScheme of ['light', 'dark'] as const) {
  for (const width of [1280, 900]) {
    // One look per theme and per width (docs/architecture.md \"Looks in the browser suite\").
    if ((colorScheme === 'light') !== (width > 900)) continue;
    test(`the admin screens pass axe (${colorScheme}, ${width} px)`, async ({ browser }) => {
      test.setTimeout(180_000);
      const context = await browser.newContext({ colorScheme, reducedMotion: 'reduce', viewport: { width, height: 900 } });
      const page = await context.newPage();
      const at = (what: string) => `${what} ${colorScheme} ${width}`;
      await signIn(page, superAdmin);
      await expect(page).toHaveURL(/\/organization\//);
      await page.goto('/admin/metrics');
      await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
      await expect(page.locator('.admin-chart canvas').first()).toBeVisible({ timeout: 20_000 });
      // The charts fit their boxes at either width.
      const fits = await page.locator('.admin-chart').evaluateAll((boxes) => boxes.every((box) => (box.querySelector('canvas')?.getBoundingClientRect().width ?? 0) <= box.getBoundingClientRect().width + 1));
      expect(fits).toBe(true);
      await page.getByRole('figure', { name: /API calls/ }).getByText('Show the figures as a table').click();
      await expectAccessible(page, at('metrics'));

      await page.goto('/admin/users');
      await expect(page.locator('tbody tr').first()).toBeVisible();
      await expectAccessible(page, at('all users'));
      await userRow(page, target.username).getByRole('button', { name: `Actions for ${target.username}` }).click();
      await expect(page.getByRole('menuitem', { name: 'Disable' })).toBeVisible();
      await expectAccessible(page, at('user actions menu'));
      await page.keyboard.press('Escape');

      await page.goto('/admin/audit');
      await expect(page.locator('tbody tr').first()).toBeVisible();
      await expectAccessible(page, at('audit log'));

      // The sub-navigation by keyboard: Tab reaches the links, Enter follows one.
      await sectionsByKeyboard(page);
      await context.close();
    });
  }
}

async function sectionsByKeyboard(page: Page) {
  const link = page.getByRole('navigation', { name: 'Admin sections' }).getByRole('link', { name: 'All users' });
  await link.focus();
  await expect(link).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/admin\/users$/);
}

test('a normal user has no Admin entry, is sent home from /admin and gets 403 from the admin API', async ({ browser, request }) => {
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signIn(page, normal);
  await expect(page).toHaveURL(/\/organization\//);
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Admin' })).toHaveCount(0);
  await page.goto('/admin/users');
  await expect(page).not.toHaveURL(/\/admin/);
  await expect(page.getByRole('heading', { name: 'Platform admin' })).toHaveCount(0);
  const token = await passwordGrant(request, normal);
  const answer = await request.get('/api/admin/users', { headers: bearer(token) });
  expect(answer.status()).toBe(403);
  expect(((await answer.json()) as { code: string }).code).toBe('super_admin_required');
  await context.close();
});
