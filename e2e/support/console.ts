/** Steps through the console as a person does. */
import { expect, type Page } from '@playwright/test';
import type { Account } from './accounts.ts';

export async function signIn(page: Page, account: Pick<Account, 'username' | 'password'>, path = '/login') {
  await page.goto(path);
  await page.getByLabel('Username or e-mail').fill(account.username);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/**
 * The console's frame is drawn (signed in). Hidden elements count: a user without an organization
 * sees the frame behind the modal "Create your first organization" dialog.
 */
export async function expectSignedIn(page: Page) {
  await expect(page.getByRole('button', { name: 'Account', includeHidden: true })).toBeVisible();
}

/** Signs out from the account menu, or from the first-organization dialog when it covers the page. */
export async function signOut(page: Page) {
  const firstOrganization = page.getByRole('dialog', { name: 'Create your first organization' });
  if (await firstOrganization.isVisible()) {
    await firstOrganization.getByRole('button', { name: 'Sign out' }).click();
  } else {
    await page.getByRole('button', { name: 'Account' }).click();
    await page.getByRole('menuitem', { name: 'Sign out' }).click();
  }
  await expect(page).toHaveURL(/\/login$/);
}

/** Collects Content-Security-Policy violations reported on the console. */
export function watchCsp(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}
