/**
 * The billing status as an admin meets it: an organization whose card (the sandbox's
 * 4000 0000 0000 0341: the first charge succeeds, every later one is declined) paid for an upgrade
 * and then failed its period charge is in GRACE. Signing in shows the "Billing Account Status"
 * dialog; closed, it stays away for the hour, while every route but the organization's pages goes
 * to its settings; its "Update Payment Information" leads to the settings with the card setup
 * open. The account is made over the API (the screens are tested with the billing section); a
 * platform super-admin (SUPER_ADMIN_USERNAMES in e2e/run.ts) moves the billing date to today and
 * runs billing. At 1280 px and 900 px, light and dark, axe clean with the dialog open.
 */
import { expect, test, type Page } from '@playwright/test';
import { createVerifiedAccount, type Account } from './support/accounts.ts';
import { expectAccessible } from './support/axe.ts';
import { signIn } from './support/console.ts';
import { superAdmin, superAdminToken } from './support/super-admin.ts';
import { bearer, organizationWithProject, type Made } from './support/platform.ts';

test.describe.configure({ mode: 'serial' });


let account: Account;
let made: Made;


async function ok(response: Promise<import('@playwright/test').APIResponse>, status = 200) {
  const answer = await response;
  expect(answer.status(), await answer.text()).toBe(status);
  return answer;
}

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  account = await createVerifiedAccount(request, 'unpaid');
  made = await organizationWithProject(request, account, { organization: 'Unpaid Kitchen', project: 'Recipes' });
  const headers = bearer(made.token);
  const organizationID = made.organizationID;

  // Billing details with a city, then a card that pays once and fails later, choosing the Pro plan.
  await ok(request.post('/billing/billingDetails/organizationDetails', { headers, params: { organizationID } }));
  await ok(
    request.put('/billing/billingDetails', {
      headers,
      params: { organizationID },
      data: { billingEmail: account.email, billingAddress: { address: '1 Main Street', city: 'Springfield', country: 'US', postcode: '12345' } },
    }),
  );
  const link = (await (await ok(request.get('/billing/creditCardProcessingLink', { headers, params: { organizationID, planID: 'pro' } }))).json()) as {
    url: string;
    sessionID: string;
  };
  await ok(request.post(new URL(link.url, 'http://x').pathname, { form: { number: '4000 0000 0000 0341', expiry: '12/39', cvc: '123', name: 'Ada Lovelace' } }));
  await ok(request.post('/billing/creditCardBillingComplete', { headers, params: { sessionID: link.sessionID } }));
  const details = (await (await ok(request.get('/billing/billingDetails', { headers, params: { organizationID } }))).json()) as { plan: unknown };
  expect(JSON.stringify(details.plan)).toContain('pro');

  // The super-admin makes today the billing date and runs billing: the period charge is declined.
  const admin = bearer(await superAdminToken(request));
  const today = new Date().toISOString().slice(0, 10);
  await ok(request.put('/billing/billingDetails/billingDate', { headers: admin, params: { organizationID }, data: { nextBillingDate: today } }));
  const report = (await (await ok(request.post('/billing/admin/run', { headers: admin }))).json()) as { declined: number; retried: number };
  expect(report.declined + report.retried).toBeGreaterThanOrEqual(1);
  const organization = (await (await ok(request.get(`/api/organization/${organizationID}`, { headers }))).json()) as { initialBillingFailedDate: string | null };
  expect(organization.initialBillingFailedDate).not.toBeNull();
});

const statusDialog = (page: Page) => page.getByRole('alertdialog', { name: 'Billing Account Status' });

for (const colorScheme of ['light', 'dark'] as const) {
  for (const width of [1280, 900]) {
    // One look per theme and per width (docs/architecture.md \"Looks in the browser suite\").
    if ((colorScheme === 'light') !== (width > 900)) continue;
    test(`GRACE: the dialog on sign-in, the diversion, and Update Payment Information (${colorScheme}, ${width} px)`, async ({ browser }) => {
      test.setTimeout(180_000);
      const context = await browser.newContext({ colorScheme, reducedMotion: 'reduce', viewport: { width, height: 900 } });
      const page = await context.newPage();
      const { organizationID, projectID } = made;
      const settings = `/organization/${organizationID}/settings`;

      // Signing in lands on the organization, where the dialog shows; axe with it open.
      await signIn(page, account);
      await expect(page).toHaveURL(new RegExp(`/organization/${organizationID}$`));
      const dialog = statusDialog(page);
      await expect(dialog).toBeVisible({ timeout: 20_000 });
      await expect(dialog).toContainText('The last payment for this organization did not go through.');
      await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
      await expectAccessible(page, `billing status dialog ${colorScheme} ${width}`);

      // GRACE can be closed; a project's page goes to the organization's settings instead.
      await dialog.getByRole('button', { name: 'Close' }).click();
      await expect(dialog).toBeHidden();
      await page.goto(`/organization/${organizationID}/project/${projectID}`);
      await expect(page).toHaveURL(new RegExp(`${settings}$`));
      await expect(page.getByRole('heading', { level: 2, name: 'Billing' })).toBeVisible();
      // Within the hour, the dialog does not come back.
      await expect(statusDialog(page)).toHaveCount(0);
      await page.goto('/');
      await expect(page).toHaveURL(new RegExp(`${settings}$`));
      // Settled (the organization read, so the machine has decided) before the time is forgotten.
      await expect(page.getByRole('heading', { level: 2, name: 'Billing' })).toBeVisible();
      await expect(statusDialog(page)).toHaveCount(0);

      // An hour later (the time it last showed forgotten), the next page load shows it again. The
      // time is forgotten as the next page starts, before the console runs: the page being left may
      // still be reading the organization, and a read that found no time would show the dialog
      // there and write the time again just before the navigation.
      await page.addInitScript((key) => {
        if (sessionStorage.getItem('e2e.forgotten') === key) return;
        localStorage.removeItem(key);
        sessionStorage.setItem('e2e.forgotten', key);
      }, `larder.billingStatusAlert.${organizationID}`);
      await page.goto(`/organization/${organizationID}`);
      await expect(statusDialog(page)).toBeVisible({ timeout: 20_000 });
      await statusDialog(page).getByRole('button', { name: 'Update Payment Information' }).click();
      await expect(statusDialog(page)).toBeHidden();
      await expect(page).toHaveURL(new RegExp(`${settings}\\?setupCreditCard=true$`));
      await expect(page.getByRole('dialog', { name: 'Setup Credit Card' })).toBeVisible();
      await context.close();
    });
  }
}
