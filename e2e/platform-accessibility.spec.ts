/**
 * axe-core on the organization and project screens with real data, with their dialogs open, in
 * both themes, wide and at the 900 px breakpoint.
 */
import { expect, test, type Page } from '@playwright/test';
import { createVerifiedAccount, type Account } from './support/accounts.ts';
import { expectAccessible } from './support/axe.ts';
import { signIn } from './support/console.ts';
import { bearer, mintApiToken, organizationWithProject, type Made } from './support/platform.ts';

let account: Account;
let made: Made;

test.beforeAll(async ({ request }) => {
  account = await createVerifiedAccount(request, 'axeplatform');
  made = await organizationWithProject(request, account, { organization: 'Accessible Kitchen', project: 'Recipes' });
  // A saved token and a pending invitation, so their views are scanned too.
  await mintApiToken(request, made, { powerRead: true }, 'Website');
  const invite = await request.put(`/api/organization/${made.organizationID}/users`, {
    headers: bearer(made.token),
    data: [{ email: `pending-${account.username}@example.test`, permissions: { update: true } }],
  });
  expect(invite.ok()).toBe(true);
});

async function scanDialog(page: Page, open: () => Promise<void>, name: string, label: string) {
  await open();
  await expect(page.getByRole('dialog', { name })).toBeVisible();
  await expectAccessible(page, label);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog', { name })).toBeHidden();
}

for (const colorScheme of ['light', 'dark'] as const) {
  for (const width of [1280, 900]) {
    // One look per theme and per width (docs/architecture.md \"Looks in the browser suite\").
    if ((colorScheme === 'light') !== (width > 900)) continue;
    test(`organization and project screens pass axe (${colorScheme}, ${width} px)`, async ({ browser }) => {
      test.setTimeout(180_000);
      // Reduced motion: a toast fading in would be scanned half transparent.
      const context = await browser.newContext({ colorScheme, reducedMotion: 'reduce', viewport: { width, height: 900 } });
      const page = await context.newPage();
      const at = (what: string) => `${what} ${colorScheme} ${width}`;
      await signIn(page, account);
      const organization = `/organization/${made.organizationID}`;
      const project = `${organization}/project/${made.projectID}`;

      await expect(page).toHaveURL(new RegExp(`${organization}$`));
      await expect(page.getByRole('link', { name: /Recipes/ })).toBeVisible();
      await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
      await expectAccessible(page, at('organization overview'));
      await scanDialog(page, () => page.getByRole('button', { name: 'New Project' }).click(), 'New Project', at('new project dialog'));
      await page.getByRole('button', { name: 'New Project' }).click();
      await page.getByRole('dialog').getByRole('switch', { name: 'Use a template?' }).click();
      await expect(page.getByRole('dialog').getByLabel('Select Template')).toBeVisible();
      await expectAccessible(page, at('new project dialog with a template'));
      await page.keyboard.press('Escape');

      await page.goto(`${organization}/settings`);
      await expect(page.getByRole('heading', { name: 'Danger Zone' })).toBeVisible();
      await expectAccessible(page, at('organization settings'));
      await page.getByRole('button', { name: 'Invite' }).click();
      const invite = page.getByRole('dialog', { name: 'Invite people' });
      await invite.getByRole('textbox', { name: /E-mail address/ }).fill('not-an-address');
      await invite.getByRole('button', { name: 'Add another person' }).click();
      await expect(invite.getByText('Invalid email address')).toBeVisible();
      await expectAccessible(page, at('invite dialog with an error'));
      await page.keyboard.press('Escape');
      await scanDialog(page, () => page.getByRole('button', { name: 'Add seats' }).click(), 'Add seats', at('add seats dialog'));
      await page.getByRole('button', { name: /^Actions for pending-/ }).click();
      await expect(page.getByRole('menu')).toBeVisible();
      await expectAccessible(page, at('member actions menu'));
      await page.getByRole('menuitem', { name: 'Edit permissions' }).click();
      await expect(page.getByRole('dialog', { name: /^Permissions of/ })).toBeVisible();
      await expectAccessible(page, at('edit permissions dialog'));
      await page.keyboard.press('Escape');
      await scanDialog(page, () => page.getByRole('button', { name: 'Delete organization' }).click(), 'Delete organization', at('delete organization dialog'));
      await page.goto(`${organization}/settings?view=plans`);
      await expect(page.getByRole('heading', { name: 'Plan & Usage' })).toBeInViewport();

      await page.goto(project);
      await expect(page.getByRole('heading', { name: 'Welcome to Recipes' })).toBeVisible();
      await expectAccessible(page, at('project home'));
      if (width <= 900) {
        await scanDialog(page, () => page.getByRole('button', { name: 'Open the project menu' }).click(), 'Recipes', at('project menu drawer'));
      }
      await page.getByRole('button', { name: 'Quick actions' }).click();
      await expect(page.getByRole('menu')).toBeVisible();
      await expectAccessible(page, at('floating menu'));
      await page.keyboard.press('Escape');

      await page.goto(`${project}/webhooks`);
      await expect(page.getByRole('heading', { name: 'Webhooks', level: 2 })).toBeVisible();
      await expectAccessible(page, at('a later section'));

      await page.goto(`${project}/settings`);
      await expect(page.getByRole('article', { name: 'Website' })).toBeVisible();
      await expect(page.getByRole('region', { name: 'Restricted view' }).getByRole('button', { name: 'Save restricted view' })).toBeVisible();
      await expectAccessible(page, at('project settings'));
      await page.getByRole('button', { name: 'Edit Website' }).click();
      await expect(page.getByRole('article', { name: 'Website' }).getByRole('button', { name: 'Save' })).toBeVisible();
      await expectAccessible(page, at('saved token in edit mode'));
      await scanDialog(page, () => page.getByRole('button', { name: 'Delete Project' }).click(), 'Delete Project', at('delete project dialog'));

      await page.goto(`${project}/newAPIKey`);
      await page.getByLabel('Token name').fill(`axe ${colorScheme} ${width}`);
      await page.getByRole('switch', { name: 'User Admin' }).click();
      await expectAccessible(page, at('new token form'));
      await page.getByRole('button', { name: 'Generate Token' }).click();
      await expect(page.getByRole('textbox', { name: 'API token' })).toBeVisible();
      await expectAccessible(page, at('minted token'));

      await page.goto('/newOrganization');
      await expect(page.getByRole('heading', { name: 'New organization', level: 1 })).toBeVisible();
      await page.getByRole('button', { name: /^Organization: / }).click();
      await expect(page.getByRole('menu')).toBeVisible();
      await expectAccessible(page, at('organization switcher'));
      await context.close();
    });
  }
}
