/**
 * A new user's way in, as a person does it: sign up, read the confirmation mail in the Dev
 * mailbox, follow its link, sign in, answer the questionnaire, come back later, sign out.
 */
import { expect, test } from '@playwright/test';
import { newAccount } from './support/accounts.ts';
import { expectSignedIn, signOut, watchCsp } from './support/console.ts';

test('sign up, confirm through the Dev mailbox, questionnaire, reload, sign out', async ({ page }) => {
  const csp = watchCsp(page);
  const account = newAccount('flow');

  await page.goto('/signup');
  await page.getByLabel('Username').fill(account.username);
  await page.getByLabel('E-mail address').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('status')).toHaveText(
    'User has been created. Please follow link in the email we just sent you to verify your account.',
  );

  await page.getByRole('link', { name: 'Dev mailbox' }).first().click();
  await expect(page).toHaveURL(/\/dev\/mailbox$/);
  const mail = page.getByRole('article', { name: 'Confirm your e-mail address for Larder' }).filter({ hasText: account.email });
  await expect(mail).toBeVisible();
  await mail.getByRole('link', { name: /\/confirm\// }).click();

  // Not signed in: the confirm guard sends the user to sign in first.
  await expect(page).toHaveURL(/\/login\?confirmID=/);
  await expect(page.getByRole('alert')).toHaveText('Login to verify email address');

  await page.getByLabel('Username or e-mail').fill(account.username);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();

  await expect(page).toHaveURL(/\/questionnaire$/);
  await expect(page.getByText('Email address has been verified')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Tell us about yourself' })).toBeVisible();

  // The questionnaire validates before sending.
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByLabel('What describes you best?')).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('What describes you best?').selectOption({ label: 'Developer' });
  await page.getByLabel('How large is your team?').selectOption({ label: '2 to 10 people' });
  await page.getByLabel('What will you build with Larder? (optional)').fill('A recipe app');
  await page.getByRole('button', { name: 'Continue' }).click();

  // No organization yet: home stays home, and asks for the first one.
  await expect(page).toHaveURL(/\/$/);
  await expectSignedIn(page);
  await expect(page.getByRole('dialog', { name: 'Create your first organization' })).toBeVisible();

  await page.reload();
  await expectSignedIn(page);
  await expect(page).toHaveURL(/\/$/);

  await signOut(page);
  // Signed out: a console page asks to sign in and comes back afterwards.
  await page.goto('/dovs');
  await expect(page).toHaveURL(/\/login\?returnUrl=%2Fdovs$/);
  expect(csp).toEqual([]);
});

test('a confirmation link opened while signed in confirms at once and goes home', async ({ page, request }) => {
  const account = newAccount('direct');
  const created = await request.post('/api/user', { data: account });
  expect(created.status()).toBe(201);
  const { mails } = (await (await request.get('/api/dev/mailbox', { params: { to: account.email } })).json()) as {
    mails: { link: string; kind: string }[];
  };
  const link = mails.find((m) => m.kind === 'confirm')!.link;

  // Signing in unverified without the link is refused (see unverified.spec.ts); with it, it confirms.
  await page.goto(new URL(link).pathname);
  await page.getByLabel('Username or e-mail').fill(account.email);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/questionnaire$/);

  // The same link again, now signed in: the guard confirms (harmless twice) and goes home with the toast.
  await page.goto(new URL(link).pathname);
  await expect(page.getByText('Email address has been verified')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expectSignedIn(page);
});
