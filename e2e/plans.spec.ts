/**
 * Plan & Usage as an admin uses it (organization settings, `view=plans`): a paid plan chosen on
 * the Free Plan sets up a card in the sandbox frame (published test number 4242 4242 4242 4242)
 * and comes back with the thank-you dialog; a dearer plan is then bought with the card on file
 * after the price is shown; the Free Plan waits for the next billing date (Confirm Free Plan, then
 * "Free Plan from <date>" on its card); Contact Us sends its toast. A second organization on the
 * Free Plan is driven past 80 % of its SMS limit through the apps' sign-in API and meets the
 * "API Limit Reached" dialog, whose See Plans leads back here. Axe on the section and its dialogs
 * in both themes, wide and at the 900 px breakpoint.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createVerifiedAccount, type Account } from './support/accounts.ts';
import { expectAccessible } from './support/axe.ts';
import { signIn } from './support/console.ts';
import { bearer, mintApiToken, organizationWithProject, type Made } from './support/platform.ts';

test.describe.configure({ mode: 'serial' });

let account: Account;
let made: Made;

/** The billing address the card setup asks for first, given over the API (the Billing section's own test fills it in). */
async function billingAddress(request: APIRequestContext, target: Made, email: string) {
  const ensure = await request.post('/billing/billingDetails/organizationDetails', { headers: bearer(target.token), params: { organizationID: target.organizationID } });
  expect(ensure.status(), await ensure.text()).toBeLessThan(300);
  const saved = await request.put('/billing/billingDetails', {
    headers: bearer(target.token),
    params: { organizationID: target.organizationID },
    data: { billingEmail: email, billingAddress: { address: '1 Main Street', city: 'Springfield', country: 'US', postcode: '12345' } },
  });
  expect(saved.status(), await saved.text()).toBe(200);
}

test.beforeAll(async ({ request }) => {
  account = await createVerifiedAccount(request, 'plans');
  made = await organizationWithProject(request, account, { organization: 'Plans Kitchen', project: 'Recipes' });
  await billingAddress(request, made, account.email);
});

const plansPath = (organizationID: string) => `/organization/${organizationID}/settings?view=plans`;
const plansSection = (page: Page) => page.locator('section#plans');
const planCard = (page: Page, name: string) => plansSection(page).getByRole('listitem', { name });

async function openPlans(page: Page, organizationID = made.organizationID) {
  await page.goto(plansPath(organizationID));
  await expect(plansSection(page).getByRole('heading', { level: 3, name: 'Plans' })).toBeVisible();
}

test('an admin upgrades through the card page, then with the card on file, then chooses the Free Plan and contacts sales', async ({ page }) => {
  test.setTimeout(150_000);
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await openPlans(page);
  await expect(planCard(page, 'Free Plan')).toHaveAttribute('aria-current', 'true');
  await expect(plansSection(page).getByRole('table', { name: 'Usage this month' })).toContainText('Asset Storage');
  await expect(plansSection(page).getByRole('table', { name: 'Usage this month' })).toContainText('SMS OTP Count');

  // No card yet: choosing the Basic Plan opens Setup Credit Card for it.
  await planCard(page, 'Basic Plan').getByRole('button', { name: 'Choose Basic Plan' }).click();
  const setup = page.getByRole('dialog', { name: 'Setup Credit Card' });
  await expect(setup.getByRole('table')).toContainText('Basic Plan');
  const frame = page.frameLocator('iframe[title="Card payment page"]');
  await frame.getByLabel('Card number').fill('4242 4242 4242 4242');
  await frame.getByLabel('Expiry (MM/YY)').fill('12/39');
  await frame.getByLabel('CVC').fill('123');
  await frame.getByLabel('Name on card').fill('Ada Lovelace');
  await frame.getByRole('button', { name: 'Save card' }).click();

  // Back through /billingComplete: the thank-you names the plan; closing it drops the query.
  await expect(page).toHaveURL(/billingComplete=true/, { timeout: 20_000 });
  const thanks = page.getByRole('dialog', { name: 'Thank you!' });
  await expect(thanks).toContainText('Plans Kitchen is now on the Basic Plan');
  await thanks.getByRole('button', { name: 'Continue' }).click();
  await expect(thanks).toBeHidden();
  await expect(page).not.toHaveURL(/billingComplete/);
  await expect(planCard(page, 'Basic Plan')).toHaveAttribute('aria-current', 'true');

  // With the card on file: the price first, then the change and the thanks.
  await planCard(page, 'Pro Plan').getByRole('button', { name: 'Choose Pro Plan' }).click();
  const change = page.getByRole('dialog', { name: 'Change to the Pro Plan' });
  await expect(change).toContainText('•••• 4242');
  await expect(change.getByTestId('plan-summary-total')).toContainText('$');
  await change.getByRole('button', { name: 'Change plan' }).click();
  await expect(page.getByRole('dialog', { name: 'Thank you!' })).toContainText('now on the Pro Plan');
  await page.getByRole('dialog', { name: 'Thank you!' }).getByRole('button', { name: 'Continue' }).click();
  await expect(planCard(page, 'Pro Plan')).toHaveAttribute('aria-current', 'true');

  // The Free Plan waits for the next billing date.
  await planCard(page, 'Free Plan').getByRole('button', { name: 'Choose Free Plan' }).click();
  const confirm = page.getByRole('dialog', { name: 'Confirm Free Plan' });
  await expect(confirm).toContainText('takes effect at the next billing date');
  await confirm.getByRole('button', { name: 'Confirm Free Plan' }).click();
  await expect(page.getByText(/^The Free Plan takes effect on /)).toBeVisible();
  await expect(confirm).toBeHidden();
  await expect(planCard(page, 'Free Plan')).toContainText(/Free Plan from \w+ \d{1,2}, \d{4}/);
  await expect(planCard(page, 'Pro Plan')).toHaveAttribute('aria-current', 'true');
  await expect(planCard(page, 'Pro Plan')).toContainText(/Until \w+ \d{1,2}, \d{4}/);

  // Contact Us.
  await plansSection(page).getByRole('button', { name: 'Contact Us' }).click();
  const contact = page.getByRole('dialog', { name: 'Contact Us' });
  await expect(contact.getByLabel('E-mail')).toHaveValue(account.email);
  await contact.getByLabel('Phone number').fill('+1 555 0100');
  await contact.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('Contact request sent. One of our representatives will in touch with you soon')).toBeVisible();
  await expect(contact).toBeHidden();
});

test('an organization past 80 % of a Free Plan limit meets the API limit dialog, and See Plans leads to the plans', async ({ page, request }) => {
  test.setTimeout(120_000);
  const other = await organizationWithProject(request, account, { organization: 'Texting Kitchen', project: 'App' });
  const apiToken = await mintApiToken(request, other);
  // The Free Plan sends 50 SMS codes a month: 40 is 80 %.
  for (let n = 0; n < 40; n += 1) {
    const sent = await request.post('/auth/public/user/otp', {
      headers: { ...bearer(apiToken), 'accept-version': 'v1' },
      data: { emailOrPhone: `+1555010${String(n).padStart(4, '0')}` },
    });
    expect(sent.status(), await sent.text()).toBe(200);
  }

  await signIn(page, account);
  await expect(page).toHaveURL(/\/organization\/[0-9a-f]{24}$/);
  const limit = page.getByRole('alertdialog', { name: 'API Limit Reached' });
  // The console's answers for the organization carry the warning once the server's figures (re-read every few seconds) show it.
  await expect(async () => {
    await page.goto(`/organization/${other.organizationID}`);
    await expect(limit).toBeVisible({ timeout: 3_000 });
  }).toPass({ timeout: 45_000 });
  await limit.getByRole('button', { name: 'See Plans' }).click();
  await expect(page).toHaveURL(new RegExp(`/organization/${other.organizationID}/settings\\?view=plans$`));
  const usage = plansSection(page).getByRole('table', { name: 'Usage this month' });
  const sms = usage.getByRole('row', { name: /SMS OTP Count/ });
  await expect(sms).toContainText('40 of 50');
  await expect(sms).toContainText('80%');
  await expect(sms).toContainText('Hard limit');
});

for (const colorScheme of ['light', 'dark'] as const) {
  for (const width of [1280, 900]) {
    // One look per theme and per width (docs/architecture.md \"Looks in the browser suite\").
    if ((colorScheme === 'light') !== (width > 900)) continue;
    test(`Plan & Usage and its dialogs pass axe (${colorScheme}, ${width} px)`, async ({ browser }, testInfo) => {
      // Four axe scans: about a minute and a half on a busy two-core machine.
      test.setTimeout(240_000);
      const context = await browser.newContext({ colorScheme, reducedMotion: 'reduce', viewport: { width, height: 900 } });
      const page = await context.newPage();
      const at = (what: string) => `${what} ${colorScheme} ${width}`;
      await signIn(page, account);
      await expect(page).toHaveURL(/\/organization\/[0-9a-f]{24}$/);
      await openPlans(page);
      await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
      await expect(planCard(page, 'Free Plan')).toContainText('Free Plan from');
      await plansSection(page).getByRole('table', { name: 'Usage this month' }).scrollIntoViewIfNeeded();
      await expectAccessible(page, at('plans and usage'));
      // For a person reviewing the layout: the section as drawn (kept with the test's results).
      await plansSection(page).screenshot({ path: testInfo.outputPath('plans-section.png') });

      await planCard(page, 'Basic Plan').getByRole('button', { name: 'Choose Basic Plan' }).click();
      const change = page.getByRole('dialog', { name: 'Change to the Basic Plan' });
      await expect(change.getByTestId('plan-summary-total')).toBeVisible();
      await expectAccessible(page, at('change plan'));
      await change.getByRole('button', { name: 'Cancel' }).click();
      await expect(change).toBeHidden();

      await plansSection(page).getByRole('button', { name: 'Contact Us' }).click();
      await expect(page.getByRole('dialog', { name: 'Contact Us' })).toBeVisible();
      await expectAccessible(page, at('contact us'));
      await page.keyboard.press('Escape');

      await page.goto(`${plansPath(made.organizationID)}&billingComplete=true`);
      await expect(page.getByRole('dialog', { name: 'Thank you!' })).toBeVisible();
      await expectAccessible(page, at('thank you'));
      await page.getByRole('dialog', { name: 'Thank you!' }).getByRole('button', { name: 'Continue' }).click();
      await context.close();
    });
  }
}
