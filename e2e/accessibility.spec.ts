/** axe-core on every screen, in both themes, wide and at the 900 px breakpoint. */
import { expect, test, type Page } from '@playwright/test';
import { createVerifiedAccount, type Account } from './support/accounts.ts';
import { expectAccessible } from './support/axe.ts';
import { expectSignedIn, signIn } from './support/console.ts';

const publicScreens: { path: string; ready: (page: Page) => Promise<void> }[] = [
  { path: '/login', ready: (page) => expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible() },
  { path: '/login?confirmID=abc', ready: (page) => expect(page.getByRole('alert')).toBeVisible() },
  { path: '/signup', ready: (page) => expect(page.getByRole('button', { name: 'Create account' })).toBeVisible() },
  { path: '/forgotPassword', ready: (page) => expect(page.getByRole('button', { name: 'Send reset link' })).toBeVisible() },
  { path: '/resetPassword/some-token', ready: (page) => expect(page.getByRole('button', { name: 'Set new password' })).toBeVisible() },
  { path: '/dev/mailbox', ready: (page) => expect(page.getByRole('status')).toBeVisible() },
  { path: '/bagel-auth-reset-password/x', ready: (page) => expect(page.getByRole('button', { name: 'Set new password' })).toBeVisible() },
  // An invitation that cannot be found: said in a toast, then the sign-in page.
  { path: '/join/invite-1', ready: (page) => expect(page.getByText('Invitation can not be found')).toBeVisible() },
  { path: '/nothing/here', ready: (page) => expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible() },
];

// The organization and project screens, with real data, are in platform-accessibility.spec.ts.
const signedInScreens: { path: string; ready: (page: Page) => Promise<void> }[] = [
  // No organization yet: home asks for the first one.
  { path: '/', ready: (page) => expect(page.getByRole('dialog', { name: 'Create your first organization' })).toBeVisible() },
  { path: '/dovs', ready: (page) => expect(page.getByRole('heading', { name: 'Documentation', level: 1 })).toBeVisible() },
  { path: '/questionnaire', ready: (page) => expect(page.getByRole('heading', { name: 'Tell us about yourself', level: 1 })).toBeVisible() },
  { path: '/newOrganization', ready: (page) => expect(page.getByRole('heading', { name: 'New organization', level: 1 })).toBeVisible() },
  { path: '/billingComplete', ready: (page) => expect(page.getByRole('heading', { name: 'Billing complete', level: 1 })).toBeVisible() },
];

let account: Account;
test.beforeAll(async ({ request }) => {
  account = await createVerifiedAccount(request, 'axe');
});

for (const colorScheme of ['light', 'dark'] as const) {
  for (const width of [1280, 900]) {
    // One look per theme and per width (docs/architecture.md \"Looks in the browser suite\").
    if ((colorScheme === 'light') !== (width > 900)) continue;
    test(`every screen passes axe (${colorScheme}, ${width} px)`, async ({ browser }) => {
      test.setTimeout(150_000);
      // Reduced motion: a toast fading in would be scanned half transparent.
      const context = await browser.newContext({ colorScheme, reducedMotion: 'reduce', viewport: { width, height: 900 } });
      const page = await context.newPage();
      for (const screen of publicScreens) {
        await page.goto(screen.path);
        await screen.ready(page);
        await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
        await expectAccessible(page, `${screen.path} ${colorScheme} ${width}`);
      }
      // A form showing its errors.
      await page.goto('/signup');
      await page.getByLabel('E-mail address').fill('not-an-address');
      await page.getByRole('button', { name: 'Create account' }).click();
      await expect(page.getByText('Invalid email address')).toBeVisible();
      await expectAccessible(page, `signup errors ${colorScheme} ${width}`);

      await signIn(page, account);
      await expectSignedIn(page);
      for (const screen of signedInScreens) {
        await page.goto(screen.path);
        await screen.ready(page);
        await expectAccessible(page, `${screen.path} ${colorScheme} ${width}`);
      }
      // The open menu (account menu wide, navigation menu narrow).
      await page.goto('/dovs');
      await page.getByRole('button', { name: width > 900 ? 'Account' : 'Menu' }).click();
      await expect(page.getByRole('menu')).toBeVisible();
      await expectAccessible(page, `menu ${colorScheme} ${width}`);
      await page.keyboard.press('Escape');
      await context.close();
    });
  }
}
