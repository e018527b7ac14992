/**
 * A project as people use it: its settings, deleting it by typing its name, API tokens from
 * minting to refusal, the restricted view, and the shell on a narrow screen.
 */
import { expect, test } from '@playwright/test';
import { createVerifiedAccount, latestMail, passwordGrant } from './support/accounts.ts';
import { signIn } from './support/console.ts';
import { bearer, organizationWithProject } from './support/platform.ts';

test('deleting a project needs its exact name: a wrong one deletes nothing', async ({ page, request }) => {
  const admin = await createVerifiedAccount(request, 'deleter');
  const made = await organizationWithProject(request, admin, { organization: 'Deletes', project: 'Doomed' });
  await signIn(page, admin);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await page.getByRole('link', { name: /Doomed/ }).click();
  await page.getByRole('navigation', { name: 'Project menu' }).getByRole('button', { name: 'Project Settings' }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByText(made.projectID)).toBeVisible();

  await page.getByRole('button', { name: 'Delete Project' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete Project' });
  expect((await dialog.boundingBox())!.width).toBeCloseTo(500, 0);
  await dialog.getByLabel('Project name').fill('doomed');
  await dialog.getByRole('button', { name: 'Delete Project' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Project name does not match');
  const still = await request.get(`/api/organization/${made.organizationID}/project/${made.projectID}`, { headers: bearer(made.token) });
  expect(still.status()).toBe(200);

  await dialog.getByLabel('Project name').fill('Doomed');
  await dialog.getByRole('button', { name: 'Delete Project' }).click();
  await expect(page.getByText('Project Deleted')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await expect(page.getByRole('link', { name: /Doomed/ })).toHaveCount(0);
  const gone = await request.get(`/api/organization/${made.organizationID}/project/${made.projectID}`, { headers: bearer(made.token) });
  expect(gone.status()).toBe(404);
});

test('an API token is minted, listed, edited, deleted, and then refused', async ({ page, request }) => {
  const admin = await createVerifiedAccount(request, 'minter');
  const made = await organizationWithProject(request, admin, { organization: 'Tokens', project: 'Shop' });
  await signIn(page, admin);
  await page.getByRole('link', { name: /Shop/ }).click();

  // No token yet: the shell asks for the first one.
  const prompt = page.getByRole('complementary', { name: 'Create an API token' });
  await expect(prompt).toContainText('This project has no API token yet.');
  await prompt.getByRole('link', { name: 'Create an API token' }).click();
  await expect(page).toHaveURL(/\/newAPIKey$/);
  await expect(prompt).toHaveCount(0);

  await expect(page.getByRole('button', { name: 'Generate Token' })).toBeDisabled();
  await page.getByLabel('Token name').fill('Storefront');
  await page.getByRole('switch', { name: 'Read' }).click();
  await page.getByRole('switch', { name: 'User Admin' }).click();
  await expect(page.getByLabel('User group of users created with this token')).toBeDisabled();
  await page.getByRole('button', { name: 'Generate Token' }).click();
  const secret = page.getByRole('textbox', { name: 'API token' });
  await expect(secret).toBeVisible();
  const jwt = await secret.inputValue();
  expect(jwt.split('.')).toHaveLength(3);
  // The form starts again.
  await expect(page.getByLabel('Token name')).toHaveValue('');

  const live = await request.get('/api/public/project', { headers: bearer(jwt) });
  expect(live.status()).toBe(200);
  expect(((await live.json()) as { name: string }).name).toBe('Shop');

  // Listed in Project Settings, with its header; edit mode renames it.
  await page.getByRole('navigation', { name: 'Project menu' }).getByRole('button', { name: 'Project Settings' }).click();
  const card = page.getByRole('article', { name: 'Storefront' });
  await expect(card).toContainText('Any collection: Read');
  await expect(card).toContainText('User Admin');
  await card.getByRole('button', { name: 'Edit Storefront' }).click();
  await card.getByLabel('Token name').fill('');
  await expect(card.getByRole('button', { name: 'Save' })).toBeDisabled();
  await card.getByLabel('Token name').fill('Storefront v2');
  await card.getByRole('switch', { name: 'Create' }).click();
  await card.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Token has been updated')).toBeVisible();
  const renamed = page.getByRole('article', { name: 'Storefront v2' });
  await expect(renamed).toContainText('Any collection: Create, Read');

  await renamed.getByRole('button', { name: 'Edit Storefront v2' }).click();
  await renamed.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('Token has been deleted')).toBeVisible();
  await expect(page.getByText('This project has no API tokens yet.')).toBeVisible();
  const refused = await request.get('/api/public/project', { headers: bearer(jwt) });
  expect(refused.status()).toBe(401);
});

test('at 800 px the project shell has a menu button and the bottom navigation', async ({ browser, request }) => {
  const admin = await createVerifiedAccount(request, 'narrow');
  const made = await organizationWithProject(request, admin, { organization: 'Narrow', project: 'Mobile' });
  const context = await browser.newContext({ viewport: { width: 800, height: 900 } });
  const page = await context.newPage();
  await signIn(page, admin);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await page.goto(`/organization/${made.organizationID}/project/${made.projectID}`);
  const bottom = page.getByRole('navigation', { name: 'Project navigation' });
  await expect(bottom).toBeVisible();
  await expect(bottom.getByRole('button')).toHaveText(['Home', 'Collections', 'Auth', 'Webhooks']);
  // The side menu is not drawn until the menu button opens it as a drawer.
  await expect(page.getByRole('navigation', { name: 'Project menu' })).toBeHidden();
  await page.getByRole('button', { name: 'Open the project menu' }).click();
  const drawer = page.getByRole('dialog', { name: 'Mobile' });
  await expect(drawer.getByRole('navigation', { name: 'Project menu' })).toBeVisible();
  await drawer.getByRole('link', { name: 'Users' }).click();
  await expect(drawer).toBeHidden();
  await expect(page).toHaveURL(/\/auth\/users$/);
  await expect(bottom.getByRole('button', { name: 'Auth' })).toHaveAttribute('aria-current', 'true');
  await bottom.getByRole('button', { name: 'Webhooks' }).click();
  await expect(page).toHaveURL(/\/webhooks$/);
  await bottom.getByRole('button', { name: 'Home' }).click();
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));

  // Wide, the bottom navigation is hidden and the side menu shows.
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/organization/${made.organizationID}/project/${made.projectID}`);
  await expect(page.getByRole('navigation', { name: 'Project menu' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Project navigation' })).toBeHidden();
  await context.close();
});

test('keyboard: tabs, the New Project dialog and the floating menu work without a mouse', async ({ page, request }) => {
  const admin = await createVerifiedAccount(request, 'keys');
  const made = await organizationWithProject(request, admin, { organization: 'Keys', project: 'First' });
  await signIn(page, admin);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));

  // Tabs: arrows move, Enter chooses.
  await page.getByRole('tab', { name: 'Overview' }).focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Settings' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/settings$/);
  await expect(page.getByRole('tab', { name: 'Settings' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tab', { name: 'Settings' })).toBeFocused();
  await page.keyboard.press('ArrowLeft');
  // A person presses Enter once the focus has moved; under load the move can trail the key press.
  await expect(page.getByRole('tab', { name: 'Overview' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));

  // The New Project card opens its dialog; focus lands in it, Escape closes it and returns focus.
  const card = page.getByRole('button', { name: 'New Project' });
  await card.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'New Project' });
  await expect(dialog.getByLabel('Project Name')).toBeFocused();
  await page.keyboard.type('Typed');
  await page.keyboard.press('Tab');
  await page.keyboard.type('From the keyboard');
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('switch', { name: 'Use a template?' })).toBeFocused();
  await page.keyboard.press('Space');
  await expect(dialog.getByRole('switch', { name: 'Use a template?' })).toHaveAttribute('aria-checked', 'true');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(card).toBeFocused();
  await page.keyboard.press('Enter');
  await dialog.getByLabel('Project Name').fill('Typed');
  await dialog.getByLabel('Project Name').press('Enter');
  await expect(page.getByText('Project Created')).toBeVisible();

  // The floating menu: Enter opens, arrows move, Enter chooses.
  await page.getByRole('button', { name: 'Quick actions' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('menuitem', { name: 'Project Settings' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/settings$/);
});

test('an admin restricts a colleague to one collection: the colleague sees only it, the server hides the rest', async ({ page, browser, request }) => {
  const admin = await createVerifiedAccount(request, 'restrictor');
  const colleague = await createVerifiedAccount(request, 'narrowed');
  const made = await organizationWithProject(request, admin, { organization: 'Views', project: 'Magazine' });
  const base = `/api/organization/${made.organizationID}/project/${made.projectID}`;
  for (const [id, name] of [['posts', 'Posts'], ['secrets', 'Secrets']]) {
    expect((await request.post(`${base}/collection`, { headers: bearer(made.token), data: { id, name } })).status()).toBe(201);
  }
  // The colleague joins with read and write.
  const invited = await request.put(`/api/organization/${made.organizationID}/users`, {
    headers: bearer(made.token),
    data: [{ email: colleague.email, permissions: { create: true, update: true, delete: true } }],
  });
  expect(invited.status()).toBe(200);
  const inviteID = new URL((await latestMail(request, colleague.email, 'invite')).link!).pathname.split('/').pop()!;
  const colleagueToken = await passwordGrant(request, colleague);
  expect((await request.post(`/api/user/invite/${inviteID}/accept`, { headers: bearer(colleagueToken) })).status()).toBe(200);

  await signIn(page, admin);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await page.goto(`/organization/${made.organizationID}/project/${made.projectID}/settings`);
  const panel = page.getByRole('region', { name: 'Restricted view' });
  await expect(panel.getByText('Off: every member sees every collection.')).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Save restricted view' })).toBeDisabled();
  await panel.getByRole('checkbox', { name: new RegExp(colleague.email) }).check();
  await panel.getByRole('checkbox', { name: 'Posts' }).check();
  await panel.getByRole('button', { name: 'Save restricted view' }).click();
  await expect(page.getByText('Restricted view saved')).toBeVisible();
  await expect(panel.getByText('On: 1 member sees 1 collection.')).toBeVisible();

  // The server hides the rest from the colleague.
  const seen = (await (await request.get(base, { headers: bearer(colleagueToken) })).json()) as { collections: { id: string }[] };
  expect(seen.collections.map((c) => c.id)).toEqual(['posts']);
  expect((await request.get(`${base}/collection/secrets/schema`, { headers: bearer(colleagueToken) })).status()).toBe(404);

  // The colleague's side menu lists only Posts, and choosing Data opens it.
  const context = await browser.newContext();
  const other = await context.newPage();
  await signIn(other, colleague);
  await expect(other).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await other.goto(`/organization/${made.organizationID}/project/${made.projectID}/settings`);
  const menu = other.getByRole('navigation', { name: 'Project menu' });
  await expect(menu.getByRole('link', { name: 'Posts', exact: true })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Secrets', exact: true })).toHaveCount(0);
  // Not an admin: no restricted-view section for them.
  await expect(other.getByRole('region', { name: 'Restricted view' })).toHaveCount(0);
  await menu.getByRole('button', { name: 'Data' }).click();
  await expect(other).toHaveURL(/\/posts$/);
  await context.close();

  // The admin turns it off: everyone sees everything again.
  await panel.getByRole('button', { name: 'Turn off' }).click();
  await expect(page.getByText('Restricted view turned off')).toBeVisible();
  await expect(panel.getByText('Off: every member sees every collection.')).toBeVisible();
  const after = (await (await request.get(base, { headers: bearer(colleagueToken) })).json()) as { collections: { id: string }[] };
  expect(after.collections.map((c) => c.id)).toEqual(['posts', 'secrets']);
});
