/**
 * Billing as an admin uses it: organization settings › Billing, Edit Billing Info, a card set up
 * in the sandbox provider's page inside the Setup Credit Card dialog (published test number
 * 4242 4242 4242 4242), the return through /billingComplete to the settings, the card shown
 * masked; after an upgrade the History tab lists the invoice, whose PDF downloads under its number
 * and carries it in its text. Then axe on the section and its dialogs in both themes, wide and at
 * the 900 px breakpoint.
 */
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { createVerifiedAccount, type Account } from './support/accounts.ts';
import { expectAccessible } from './support/axe.ts';
import { signIn } from './support/console.ts';
import { pdfText } from './support/pdf-text.ts';
import { bearer, consoleToken, organizationWithProject, type Made } from './support/platform.ts';

test.describe.configure({ mode: 'serial' });

let account: Account;
let made: Made;

test.beforeAll(async ({ request }) => {
  account = await createVerifiedAccount(request, 'billing');
  made = await organizationWithProject(request, account, { organization: 'Billing Kitchen', project: 'Recipes' });
});

const settingsPath = () => `/organization/${made.organizationID}/settings`;
const billingSection = (page: Page) => page.locator('section[aria-labelledby="settings-billing"]');

/** The thank-you dialog of a finished card setup (Plan & Usage) may cover the page: close it. */
async function closeAnyDialog(page: Page) {
  const dialog = page.getByRole('dialog');
  if (await dialog.isVisible().catch(() => false)) {
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  }
}

test('an admin sets up a card in the sandbox frame, upgrades, and downloads the invoice', async ({ page, request }) => {
  test.setTimeout(120_000);
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await page.goto(settingsPath());
  const billing = billingSection(page);
  await expect(billing.getByRole('heading', { level: 2, name: 'Billing' })).toBeVisible();
  // The account is made on first open: billing e-mail the admin's, country US, no card yet.
  const info = billing.getByRole('tabpanel', { name: 'Info' });
  await expect(info.getByText(account.email)).toBeVisible();
  await expect(info.getByText('United States of America')).toBeVisible();
  await expect(billing.getByTestId('billing-card')).toHaveText('Not set');

  // Edit Billing Info, then on to the card.
  await billing.getByRole('button', { name: 'Edit Billing Info' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Billing Info' });
  await expect(edit.getByLabel('Country')).toHaveValue('US');
  await edit.getByLabel('Address').fill('1 Main Street');
  await edit.getByLabel('City').fill('Springfield');
  await edit.getByLabel('Postcode').fill('12345');
  await edit.getByRole('button', { name: 'Save & Setup Credit Card' }).click();
  await expect(page.getByText('Billing Info Updated')).toBeVisible();
  await expect(edit).toBeHidden();

  const card = page.getByRole('dialog', { name: 'Setup Credit Card' });
  await expect(card.getByRole('table')).toContainText('Total');
  await expect(card.getByText(/By saving a card you allow Larder/)).toBeVisible();
  const frame = page.frameLocator('iframe[title="Card payment page"]');
  await frame.getByLabel('Card number').fill('4242 4242 4242 4242');
  await frame.getByLabel('Expiry (MM/YY)').fill('12/39');
  await frame.getByLabel('CVC').fill('123');
  await frame.getByLabel('Name on card').fill('Ada Lovelace');
  await frame.getByRole('button', { name: 'Save card' }).click();

  // The provider's page sends the whole window to /billingComplete, which goes on to the settings.
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}/settings\\?billingComplete=true$`), { timeout: 20_000 });
  await closeAnyDialog(page);
  await expect(billing.getByTestId('billing-card')).toContainText('•••• 4242');

  // An upgrade (over the API: the plan cards are tested with Plan & Usage) charges at once.
  const token = await consoleToken(page);
  const upgrade = await request.put('/billing/plan', { headers: bearer(token), params: { organizationID: made.organizationID, planID: 'pro' } });
  expect(upgrade.status(), await upgrade.text()).toBe(200);

  await page.goto(settingsPath());
  await closeAnyDialog(page);
  await billing.getByRole('tab', { name: 'History' }).click();
  const history = billing.getByRole('tabpanel', { name: 'History' });
  const firstInvoice = history.getByRole('rowheader').first();
  await expect(firstInvoice).toBeVisible();
  const invoiceNumber = (await firstInvoice.textContent())!.trim();
  expect(invoiceNumber).not.toBe('');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    history.getByRole('button', { name: `Download invoice ${invoiceNumber}` }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`${invoiceNumber}.pdf`);
  const pdf = await readFile((await download.path())!);
  expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  expect(pdfText(pdf)).toContain(invoiceNumber);
});

for (const colorScheme of ['light', 'dark'] as const) {
  for (const width of [1280, 900]) {
    // One look per theme and per width (docs/architecture.md \"Looks in the browser suite\").
    if ((colorScheme === 'light') !== (width > 900)) continue;
    test(`the billing section and its dialogs pass axe (${colorScheme}, ${width} px)`, async ({ browser }) => {
      // Four axe scans, one with the card page's frame: up to 100 s each on a loaded machine.
      test.setTimeout(240_000);
      const context = await browser.newContext({ colorScheme, reducedMotion: 'reduce', viewport: { width, height: 900 } });
      const page = await context.newPage();
      const at = (what: string) => `${what} ${colorScheme} ${width}`;
      await signIn(page, account);
      await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
      await page.goto(settingsPath());
      await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
      const billing = billingSection(page);
      await expect(billing.getByTestId('billing-card')).toContainText('•••• 4242');
      await billing.scrollIntoViewIfNeeded();
      await expectAccessible(page, at('billing info'));

      // The tabs answer to the keyboard.
      await billing.getByRole('tab', { name: 'Info' }).focus();
      await page.keyboard.press('ArrowRight');
      await expect(billing.getByRole('tab', { name: 'History' })).toHaveAttribute('aria-selected', 'true');
      await expect(billing.getByRole('tabpanel', { name: 'History' }).getByRole('rowheader').first()).toBeVisible();
      await expectAccessible(page, at('billing history'));

      await billing.getByRole('button', { name: 'Edit Billing Info' }).click();
      await expect(page.getByRole('dialog', { name: 'Edit Billing Info' })).toBeVisible();
      await expectAccessible(page, at('edit billing info'));
      await page.keyboard.press('Escape');

      await billing.getByRole('button', { name: 'Setup Credit Card' }).click();
      const card = page.getByRole('dialog', { name: 'Setup Credit Card' });
      await expect(card.getByRole('table')).toContainText('Total');
      await expect(page.frameLocator('iframe[title="Card payment page"]').getByLabel('Card number')).toBeVisible();
      await expectAccessible(page, at('setup credit card'));
      await page.keyboard.press('Escape');
      await expect(card).toBeHidden();
      await context.close();
    });
  }
}
