/**
 * The next billing date of an organization's admin settings: a past day is refused by the server
 * (400 `billing_date_out_of_range`) and the form shows why at the date field, naming the allowed
 * range; nothing is saved. A day inside the range is saved with its toast. The date picker offers
 * the same range (min today, max two years on).
 */
import { expect, test } from '@playwright/test';
import { billingDateRange } from '../definitions/billing/billing-date.ts';
import { createVerifiedAccount } from './support/accounts.ts';
import { signIn } from './support/console.ts';
import { superAdmin, superAdminToken } from './support/super-admin.ts';
import { bearer, organizationWithProject, type Made } from './support/platform.ts';

let made: Made;
let organizationName: string;

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  const token = await superAdminToken(request);
  const own = await request.get('/api/user/me', { headers: bearer(token) });
  const organizations = ((await own.json()) as { organizations?: unknown[] }).organizations ?? [];
  if (organizations.length === 0) await organizationWithProject(request, superAdmin, { organization: 'Platform Kitchen', project: 'Operations' });
  const owner = await createVerifiedAccount(request, 'dateowner');
  organizationName = `Calendar Kitchen ${Date.now().toString(36)}`;
  made = await organizationWithProject(request, owner, { organization: organizationName, project: 'Recipes' });
});

test('a past billing date is refused at the field and nothing is saved; a day in the range is saved', async ({ page, request }) => {
  test.setTimeout(120_000);
  const { earliest, latest } = billingDateRange(new Date());
  await signIn(page, superAdmin);
  await expect(page.getByRole('button', { name: 'Account' })).toBeVisible();
  await page.goto(`/admin/billing/organization/${made.organizationID}/settings`);
  await expect(page.getByRole('heading', { level: 2, name: organizationName })).toBeVisible();

  const field = page.getByLabel('Next billing date');
  await expect(field).toHaveAttribute('min', earliest);
  await expect(field).toHaveAttribute('max', latest);
  const before = await (await request.get('/billing/billingDetails', { headers: bearer(await superAdminToken(request)), params: { organizationID: made.organizationID } })).json();

  await field.fill('1900-01-01');
  await page.getByRole('button', { name: 'Save billing date' }).click();
  const message = `Choose a next billing date from today (${earliest}) to two years ahead (${latest}).`;
  const error = page.locator('.field').filter({ has: field }).locator('.field-error');
  await expect(error).toHaveText(message);
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toHaveAttribute('aria-describedby', new RegExp(`${(await error.getAttribute('id'))!}`));
  const after = await (await request.get('/billing/billingDetails', { headers: bearer(await superAdminToken(request)), params: { organizationID: made.organizationID } })).json();
  expect(after.nextBillingDate).toBe(before.nextBillingDate);

  const next = `${new Date().getUTCFullYear() + 1}-01-15`;
  await field.fill(next);
  await page.getByRole('button', { name: 'Save billing date' }).click();
  await expect(page.getByText('Billing date saved')).toBeVisible();
  await expect(error).toHaveCount(0);
  const saved = await (await request.get('/billing/billingDetails', { headers: bearer(await superAdminToken(request)), params: { organizationID: made.organizationID } })).json();
  expect(String(saved.nextBillingDate).slice(0, 10)).toBe(next);
});
