/** Forgot password → mail → reset: the new password works and every old session ends (README). */
import { expect, test } from '@playwright/test';
import { createVerifiedAccount, latestMail } from './support/accounts.ts';
import { expectSignedIn, signIn } from './support/console.ts';

test('reset the password from the mail; the session signed in before no longer works', async ({ browser, request }) => {
  const account = await createVerifiedAccount(request, 'reset');

  // The "old" session, in its own browser.
  const before = await browser.newContext();
  const oldPage = await before.newPage();
  await signIn(oldPage, account);
  await expect(oldPage).toHaveURL(/\/questionnaire$|\/$/);
  await oldPage.goto('/dovs');
  await expectSignedIn(oldPage);

  // Forgot password, elsewhere.
  const elsewhere = await browser.newContext();
  const page = await elsewhere.newPage();
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgotPassword$/);
  await page.getByLabel('E-mail address').fill(account.email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByRole('status')).toHaveText('Password Reset Email Sent');

  const mail = await latestMail(request, account.email, 'reset');
  await page.goto('/dev/mailbox');
  await page.getByRole('article', { name: mail.subject }).filter({ hasText: account.email }).getByRole('link', { name: /\/resetPassword\// }).click();
  await expect(page).toHaveURL(/\/resetPassword\//);

  // Too short first: the form says so and sends nothing.
  await page.getByLabel('New password', { exact: true }).fill('short');
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByText('Use at least 8 characters')).toBeVisible();

  const newPassword = `${account.password}-new`;
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText('Your password has been changed. Sign in with your new password.')).toBeVisible();

  // The old session is over: its next page load goes to login.
  await oldPage.reload();
  await expect(oldPage).toHaveURL(/\/login\?returnUrl=%2Fdovs$/);

  // The old password is refused, the new one works.
  await signIn(page, account);
  await expect(page.getByRole('alert')).toHaveText('The username or password is not correct.');
  await signIn(page, { username: account.username, password: newPassword });
  await expectSignedIn(page);

  // The reset link works once.
  await page.goto(new URL(mail.link!).pathname);
  await page.getByLabel('New password', { exact: true }).fill(`${newPassword}-again`);
  await page.getByRole('button', { name: 'Set new password' }).click();
  await expect(page.getByRole('alert')).toContainText('invalid, expired or already used');
  await before.close();
  await elsewhere.close();
});
