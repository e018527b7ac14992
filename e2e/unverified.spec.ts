/** An account whose e-mail is not verified cannot sign in without the confirmation link. */
import { expect, test } from '@playwright/test';
import { newAccount, signUpOverApi } from './support/accounts.ts';
import { signIn } from './support/console.ts';

test('an unverified sign-in without confirmID is refused with the spec message and signed out', async ({ page, request }) => {
  const account = newAccount('unverified');
  await signUpOverApi(request, account);

  await signIn(page, account);
  await expect(page.getByRole('alert')).toHaveText('Email account has not been verified. Please verify email to continue');
  await expect(page).toHaveURL(/\/login$/);
  // Logged out again: no tokens are kept, and a console page asks to sign in.
  expect(await page.evaluate(() => localStorage.getItem('larder.tokens'))).toBeNull();
  // What was typed stays, so the user can correct it.
  await expect(page.getByLabel('Username or e-mail')).toHaveValue(account.username);
  await page.goto('/dovs');
  await expect(page).toHaveURL(/\/login\?returnUrl=/);
});

test('a wrong password keeps what was typed and shows the server message', async ({ page, request }) => {
  const account = newAccount('wrongpw');
  await signUpOverApi(request, account);
  await signIn(page, { username: account.username, password: 'not-the-password' });
  await expect(page.getByRole('alert')).toHaveText('The username or password is not correct.');
  await expect(page.getByLabel('Username or e-mail')).toHaveValue(account.username);
  await expect(page.getByLabel('Password')).toHaveValue('not-the-password');
});

test('sign-up with a taken username keeps the form and shows the server message', async ({ page, request }) => {
  const account = newAccount('taken');
  await signUpOverApi(request, account);
  await page.goto('/signup');
  await page.getByLabel('Username').fill(account.username);
  await page.getByLabel('E-mail address').fill(`other-${account.email}`);
  await page.getByLabel('Password').fill('another-password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('alert')).toHaveText('This username is taken. Choose another one.');
  await expect(page.getByLabel('Username')).toHaveValue(account.username);
  await expect(page.getByLabel('E-mail address')).toHaveValue(`other-${account.email}`);
  await expect(page.getByLabel('Password')).toHaveValue('another-password');
});
