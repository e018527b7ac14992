/**
 * Billing of all organizations as a super-admin (SUPER_ADMIN_USERNAMES in e2e/run.ts) uses it:
 * finds an organization in the table by search, opens its admin settings, adds credit (typed 5:
 * shown as $5.00, 500 cents on the server) and an add-on, each with its toast; turns soft launch
 * on after the confirmation and whitelists the organization, then puts both back (the server is
 * shared with the other browser tests). A normal user's token gets 403 from the soft-launch calls. Both
 * screens and the confirmation at 1280 px and 900 px, light and dark, axe clean.
 */
import { expect, test, type Page } from '@playwright/test';
import { createVerifiedAccount, type Account } from './support/accounts.ts';
import { expectAccessible } from './support/axe.ts';
import { signIn } from './support/console.ts';
import { superAdmin, superAdminToken } from './support/super-admin.ts';
import { bearer, organizationWithProject, type Made } from './support/platform.ts';

test.describe.configure({ mode: 'serial' });


let owner: Account;
let made: Made;
let organizationName: string;


test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  const token = await superAdminToken(request);
  // An organization of its own, so signing in lands on it rather than on the first-organization dialog.
  const own = await request.get('/api/user/me', { headers: bearer(token) });
  const organizations = ((await own.json()) as { organizations?: unknown[] }).organizations ?? [];
  if (organizations.length === 0) await organizationWithProject(request, superAdmin, { organization: 'Platform Kitchen', project: 'Operations' });
  owner = await createVerifiedAccount(request, 'billingowner');
  organizationName = `Ledger Kitchen ${Date.now().toString(36)}`;
  made = await organizationWithProject(request, owner, { organization: organizationName, project: 'Recipes' });
});

// Soft launch is global: whatever a test here left behind, the specs after this one meet billing as usual.
test.afterAll(async ({ request }) => {
  const admin = bearer(await superAdminToken(request));
  const cleared = await request.put('/billing/softLaunch/whitelistOrgs', { headers: admin, data: { organizationIDs: [] } });
  expect(cleared.status(), await cleared.text()).toBe(200);
  const off = await request.put('/billing/softLaunch', { headers: admin, data: { enabled: false } });
  expect(off.status(), await off.text()).toBe(200);
});

async function openBilling(page: Page) {
  await page.goto('/admin/billing');
  await expect(page.getByRole('heading', { level: 2, name: 'Billing of all organizations' })).toBeVisible();
}

async function findOrganization(page: Page) {
  await page.getByLabel('Search organizations').fill(organizationName);
  await expect(page).toHaveURL(/search=Ledger/);
  await expect(page.locator('tbody tr')).toHaveCount(1);
  return page.locator(`tr[data-organization="${made.organizationID}"]`);
}

test('a super-admin finds an organization, adds credit and an add-on, toggles soft launch and whitelists it', async ({ browser, request }) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ colorScheme: 'light', reducedMotion: 'reduce', viewport: { width: 1280, height: 900 } });
  const page = await context.newPage();
  await signIn(page, superAdmin);
  await expect(page.getByRole('button', { name: 'Account' })).toBeVisible();
  await openBilling(page);
  const row = await findOrganization(page);
  await expect(row).toContainText('Free Plan');
  await expect(row).toContainText('OK');

  // The organization's admin settings.
  await row.getByRole('link', { name: organizationName }).click();
  await expect(page).toHaveURL(new RegExp(`/admin/billing/organization/${made.organizationID}/settings$`));
  await expect(page.getByRole('heading', { level: 2, name: organizationName })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Members' })).toContainText(owner.email);
  await expect(page.getByRole('table', { name: 'Projects' })).toContainText('Recipes');

  // Credit: 5 typed, 500 cents sent, $5.00 shown.
  const usd = page.getByLabel('Amount in USD');
  await usd.fill('5.5');
  await page.getByRole('button', { name: 'Add credit' }).click();
  await expect(page.getByText('Enter a whole number, 0 or more')).toBeVisible();
  await usd.fill('5');
  const credited = page.waitForResponse((r) => r.url().includes('/billing/billingDetails/credit') && r.request().method() === 'PUT');
  await page.getByRole('button', { name: 'Add credit' }).click();
  expect((await credited).status()).toBe(200);
  await expect(page.getByText('Credit added to organization')).toBeVisible();
  await expect(page.getByTestId('credit-usd')).toHaveText('$5.00');
  const admin = bearer(await superAdminToken(request));
  const details = await request.get('/billing/adminBillingDetails', { headers: admin, params: { organizationIDs: made.organizationID } });
  expect(details.status(), await details.text()).toBe(200);
  const [account] = (await details.json()) as { credit: { amount: number; nisAmount: number } }[];
  expect(account!.credit).toEqual({ amount: 500, nisAmount: 0 });

  // An add-on.
  await page.getByLabel('Title').fill('Priority support');
  await page.getByLabel('Price in USD').fill('12');
  await page.getByLabel('Price in NIS').fill('40');
  await page.getByRole('button', { name: 'Add add-on' }).click();
  await expect(page.getByText('Billing Add-Ons Updated')).toBeVisible();
  await expect(page.getByTestId('add-ons')).toContainText('Priority support');
  await expect(page.getByTestId('add-ons')).toContainText('$12.00');
  await expect(page.getByTestId('add-ons')).toContainText('₪40.00');

  // Back to the table: the credit shows there too.
  await page.getByRole('link', { name: 'All organizations', exact: true }).click();
  const again = await findOrganization(page);
  await expect(again.getByTestId('organization-credit')).toHaveText('$5.00');

  // Soft launch on, after the confirmation; the organization whitelisted from its row.
  const toggle = page.getByRole('switch', { name: 'Soft launch' });
  await expect(toggle).toBeEnabled();
  const wasOn = (await toggle.getAttribute('aria-checked')) === 'true';
  if (wasOn) {
    await toggle.click();
    await page.getByRole('dialog', { name: 'Turn soft launch off?' }).getByRole('button', { name: 'Turn off' }).click();
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
  }
  await toggle.click();
  const confirm = page.getByRole('dialog', { name: 'Turn soft launch on?' });
  await expect(confirm).toContainText('Billing will apply only to');
  await confirm.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByText('Soft launch is on', { exact: true })).toBeVisible();
  await expect(toggle).toHaveAttribute('aria-checked', 'true');
  await again.getByRole('button', { name: `Add ${organizationName} to the soft-launch whitelist` }).click();
  await expect(page.getByText(`${organizationName} is on the soft-launch whitelist`)).toBeVisible();
  await expect(again).toContainText('Yes');
  await expect(page.locator('.admin-whitelist')).toContainText(organizationName);
  const listed = await request.get('/billing/softLaunch/whitelistOrgs', { headers: admin });
  expect(((await listed.json()) as { organizationIDs: string[] }).organizationIDs).toContain(made.organizationID);

  // Put both back: other specs share this server and its billing.
  await page.locator('.admin-whitelist').getByRole('button', { name: `Remove ${organizationName} from the soft-launch whitelist` }).click();
  await expect(page.getByText(`${organizationName} is off the soft-launch whitelist`)).toBeVisible();
  await toggle.click();
  await page.getByRole('dialog', { name: 'Turn soft launch off?' }).getByRole('button', { name: 'Turn off' }).click();
  await expect(toggle).toHaveAttribute('aria-checked', 'false');
  const softLaunch = await request.get('/billing/softLaunch', { headers: admin });
  expect(await softLaunch.json()).toEqual({ enabled: false });
  await context.close();
});

test("a normal user's token gets 403 from the soft-launch and admin billing calls", async ({ request }) => {
  const token = bearer(made.token);
  for (const call of [
    request.get('/billing/softLaunch', { headers: token }),
    request.put('/billing/softLaunch', { headers: token, data: { enabled: true } }),
    request.get('/billing/softLaunch/whitelistOrgs', { headers: token }),
    request.get('/billing/adminBillingDetails', { headers: token, params: { organizationIDs: made.organizationID } }),
    request.get('/api/admin/organizations', { headers: token }),
  ]) {
    const answer = await call;
    expect(answer.status(), `${answer.url()}: ${await answer.text()}`).toBe(403);
  }
  const admin = bearer(await superAdminToken(request));
  expect(await (await request.get('/billing/softLaunch', { headers: admin })).json()).toEqual({ enabled: false });
});

for (const colorScheme of ['light', 'dark'] as const) {
  for (const width of [1280, 900]) {
    // One look per theme and per width (docs/architecture.md \"Looks in the browser suite\").
    if ((colorScheme === 'light') !== (width > 900)) continue;
    test(`the billing table, soft launch and an organization's admin settings pass axe (${colorScheme}, ${width} px)`, async ({ browser }) => {
      test.setTimeout(240_000);
      const context = await browser.newContext({ colorScheme, reducedMotion: 'reduce', viewport: { width, height: 900 } });
      const page = await context.newPage();
      const at = (what: string) => `${what} ${colorScheme} ${width}`;
      await signIn(page, superAdmin);
      await expect(page.getByRole('button', { name: 'Account' })).toBeVisible();
      await openBilling(page);
      await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
      await findOrganization(page);
      await expectAccessible(page, at('billing table'));

      // Keyboard: the sort buttons and the soft-launch switch are reached and worked with keys.
      const sortSeats = page.getByRole('button', { name: 'Seats' });
      await sortSeats.focus();
      await page.keyboard.press('Enter');
      await expect(page).toHaveURL(/sort=seats&order=asc/);
      await expect(page.getByRole('columnheader', { name: 'Seats' })).toHaveAttribute('aria-sort', 'ascending');
      const toggle = page.getByRole('switch', { name: 'Soft launch' });
      await toggle.focus();
      await page.keyboard.press('Space');
      const confirm = page.getByRole('dialog', { name: 'Turn soft launch on?' });
      await expect(confirm).toBeVisible();
      await expectAccessible(page, at('soft launch confirmation'));
      await page.keyboard.press('Escape');
      await expect(confirm).toBeHidden();
      await expect(toggle).toHaveAttribute('aria-checked', 'false');

      await page.goto(`/admin/billing/organization/${made.organizationID}/settings`);
      await expect(page.getByRole('heading', { level: 2, name: organizationName })).toBeVisible();
      await expect(page.getByTestId('admin-org-facts')).toBeVisible();
      // A refused amount, so the field's error is measured too.
      await page.getByLabel('Amount in USD').fill('-1');
      await page.getByRole('button', { name: 'Add credit' }).click();
      await expect(page.getByText('Enter a whole number, 0 or more')).toBeVisible();
      await expectAccessible(page, at('organization admin settings'));
      await context.close();
    });
  }
}
