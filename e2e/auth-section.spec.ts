/**
 * The Auth section as a project's editor uses it:
 * app users signed up through the public Auth API (`POST /auth/public/user` with an API token)
 * are listed, viewed and deleted; a user group is created and its rights ticked; the token form
 * offers the group; a user is given the group (and keeps it after a reload); a user is added to an item's Users panel. axe in light at 1280 px and in dark
 * at 900 px.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createVerifiedAccount } from './support/accounts.ts';
import { expectAccessible } from './support/axe.ts';
import { signIn } from './support/console.ts';
import { bearer, mintApiToken, organizationWithProject, type Made } from './support/platform.ts';

const api = (made: Made, ...rest: string[]) => [`/api/organization/${made.organizationID}/project/${made.projectID}`, ...rest].join('/');
const projectPath = (made: Made) => `/organization/${made.organizationID}/project/${made.projectID}`;

/** A collection with an item, an API token that may create users, and two app users signed up through it. */
async function seed(request: APIRequestContext, made: Made, prefix: string) {
  const collection = await request.post(api(made, 'collection'), {
    headers: bearer(made.token),
    data: { id: 'posts', name: 'Posts', schema: [{ name: 'Title', slug: 'title', type: 1, primaryField: true }] },
  });
  expect(collection.status(), await collection.text()).toBe(201);
  const item = await request.post(api(made, 'collection', 'posts', 'item'), { headers: bearer(made.token), data: { title: 'Hello' } });
  expect(item.status(), await item.text()).toBe(201);
  const itemID = ((await item.json()) as { _id: string })._id;

  const apiToken = await mintApiToken(request, made);

  const emails = [`${prefix}-ada@example.com`, `${prefix}-bob@example.com`];
  const userIDs: string[] = [];
  for (const email of emails) {
    const signup = await request.post('/auth/public/user', {
      headers: { ...bearer(apiToken), 'accept-version': 'v1' },
      data: { email, password: 'app user password 42' },
    });
    expect(signup.status(), await signup.text()).toBe(201);
    userIDs.push(((await signup.json()) as { user_id: string }).user_id);
  }
  return { itemID, emails, userIDs };
}

/** Signs in through the login page and waits for the console to land on the organization. */
async function signInTo(page: Page, account: Parameters<typeof signIn>[1], made: Made) {
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
}

async function openAuth(page: Page) {
  await page.getByRole('navigation', { name: 'Project menu' }).getByRole('button', { name: /^Auth/ }).first().click();
  await expect(page).toHaveURL(/\/auth\/users$/);
}

test('app users are listed, viewed and deleted; a group is made and its rights ticked; an item gets a user', async ({ page, request }) => {
  test.setTimeout(120_000);
  const admin = await createVerifiedAccount(request, 'authadmin');
  const made = await organizationWithProject(request, admin, { organization: 'Auth', project: 'App' });
  const seeded = await seed(request, made, 'e2e');
  await signInTo(page, admin, made);
  await page.goto(projectPath(made));

  // Choosing Auth opens Users.
  await openAuth(page);
  await expect(page.getByRole('heading', { name: 'Users Beta' })).toBeVisible();
  const table = page.getByRole('table', { name: /Users/ });
  for (const email of seeded.emails) await expect(table.getByRole('rowheader', { name: email })).toBeVisible();
  await expectAccessible(page, 'users');

  // Search narrows the list.
  await page.getByRole('searchbox', { name: 'Search users' }).fill('bob');
  await expect(table.getByRole('rowheader', { name: seeded.emails[0]! })).toHaveCount(0);
  await expect(table.getByRole('rowheader', { name: seeded.emails[1]! })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search users' }).fill('');

  // View one.
  await page.getByRole('button', { name: `View ${seeded.emails[0]}` }).click();
  const details = page.getByRole('dialog', { name: seeded.emails[0] });
  await expect(details.getByText(seeded.userIDs[0]!)).toBeVisible();
  await expect(details.getByText('Last login')).toBeVisible();
  await expect(details.getByText('This project has no user groups yet: create one under Groups.')).toBeVisible();
  await expectAccessible(page, 'user dialog');
  await details.getByRole('button', { name: 'Close' }).first().click();

  // Groups: create one and tick rights.
  await page.getByRole('navigation', { name: 'Project menu' }).getByRole('link', { name: 'Groups' }).click();
  await expect(page).toHaveURL(/\/auth\/viewRoles$/);
  await expect(page.getByRole('heading', { name: 'Groups Beta' })).toBeVisible();
  await page.getByLabel('New group name').fill('Editors');
  await page.getByRole('button', { name: 'Create group' }).click();
  const matrix = page.getByRole('table', { name: 'Rights of Editors' });
  await matrix.getByRole('checkbox', { name: 'Read in Posts' }).check();
  await matrix.getByRole('checkbox', { name: 'Update in Posts' }).check();
  await matrix.getByRole('checkbox', { name: 'Associated items only in Posts' }).check();
  await page.getByRole('button', { name: 'Save group' }).click();
  await expect(page.getByText('User group has been updated')).toBeVisible();
  const groups = await request.get(api(made, 'userGroups'), { headers: bearer(made.token) });
  expect(groups.status()).toBe(200);
  const [group] = (await groups.json()) as { groupID: string; name: string; permissions: { collection: string; read: boolean; update: boolean; create: boolean; associatedOnly: boolean }[] }[];
  expect(group).toMatchObject({ name: 'Editors', permissions: [{ collection: 'posts', create: false, read: true, update: true, associatedOnly: true }] });
  await expectAccessible(page, 'groups');

  // The token form offers the group now.
  await page.goto(`${projectPath(made)}/newAPIKey`);
  await expect(page.getByLabel('User group of users created with this token').getByRole('option', { name: 'Editors' })).toHaveCount(1);
  await expect(page.getByText('To get started with users, first create a User Group in the Auth section')).toHaveCount(0);

  // Give a user the group: Space ticks it, the pointer saves; seen again after a reload.
  await page.goto(`${projectPath(made)}/auth/users`);
  await page.getByRole('button', { name: `View ${seeded.emails[0]}` }).click();
  const userDialog = page.getByRole('dialog', { name: seeded.emails[0] });
  const editorsBox = userDialog.getByRole('group', { name: 'Groups' }).getByRole('checkbox', { name: 'Editors' });
  await expect(editorsBox).not.toBeChecked();
  await editorsBox.focus();
  await page.keyboard.press('Space');
  await expect(editorsBox).toBeChecked();
  await expectAccessible(page, 'user groups editor');
  await userDialog.getByRole('button', { name: 'Save groups' }).click();
  await expect(page.getByText('User groups have been updated')).toBeVisible();
  const assigned = await request.get(api(made, 'user', seeded.userIDs[0]!), { headers: bearer(made.token) });
  expect(((await assigned.json()) as { userGroups: string[] }).userGroups).toEqual([group!.groupID]);
  await page.reload();
  await page.getByRole('button', { name: `View ${seeded.emails[0]}` }).click();
  await expect(page.getByRole('dialog', { name: seeded.emails[0] }).getByRole('checkbox', { name: 'Editors' })).toBeChecked();
  await page.getByRole('dialog', { name: seeded.emails[0] }).getByRole('button', { name: 'Close' }).first().click();

  // Delete a user.
  await page.goto(`${projectPath(made)}/auth/users`);
  await page.getByRole('button', { name: `Delete ${seeded.emails[1]}` }).click();
  const confirm = page.getByRole('dialog', { name: `Delete ${seeded.emails[1]}?` });
  await expectAccessible(page, 'delete user');
  await confirm.getByRole('button', { name: 'Delete user' }).click();
  await expect(page.getByText('User has been deleted')).toBeVisible();
  await expect(page.getByRole('table', { name: /Users/ }).getByRole('rowheader', { name: seeded.emails[1]! })).toHaveCount(0);
  const left = await request.get(api(made, 'user'), { headers: bearer(made.token) });
  expect(((await left.json()) as { total: number }).total).toBe(1);

  // The item's Users panel.
  await page.goto(`${projectPath(made)}/collection/posts/item/${seeded.itemID}`);
  const panel = page.getByRole('region', { name: 'Users' });
  await expect(panel.getByText('No user is associated with this item yet.')).toBeVisible();
  await panel.getByLabel('User to add').selectOption({ label: seeded.emails[0]! });
  await panel.getByRole('button', { name: 'Add user' }).click();
  await expect(panel.getByRole('list', { name: 'Users of this item' }).getByText(seeded.emails[0]!)).toBeVisible();
  const linked = await request.get(api(made, 'collection', 'posts', 'item', seeded.itemID, 'bagelUsers'), { headers: bearer(made.token) });
  expect(await linked.json()).toEqual([{ userID: seeded.userIDs[0] }]);
  await expectAccessible(page, 'item users panel');
  await panel.getByRole('button', { name: `Remove ${seeded.emails[0]}` }).click();
  await expect(panel.getByText('No user is associated with this item yet.')).toBeVisible();
});

test('a project without app users says so on the item page, and the token form asks for a group first', async ({ page, request }) => {
  const admin = await createVerifiedAccount(request, 'authempty');
  const made = await organizationWithProject(request, admin, { organization: 'Empty', project: 'Quiet' });
  const collection = await request.post(api(made, 'collection'), { headers: bearer(made.token), data: { id: 'notes', name: 'Notes', schema: [{ name: 'Title', slug: 'title', type: 1 }] } });
  expect(collection.status()).toBe(201);
  const item = await request.post(api(made, 'collection', 'notes', 'item'), { headers: bearer(made.token), data: { title: 'One' } });
  const itemID = ((await item.json()) as { _id: string })._id;
  await signInTo(page, admin, made);
  await page.goto(`${projectPath(made)}/collection/notes/item/${itemID}`);
  await expect(page.getByText('To get started with Auth, you must first add users')).toBeVisible();
  await page.goto(`${projectPath(made)}/newAPIKey`);
  await expect(page.getByText('To get started with users, first create a User Group in the Auth section')).toBeVisible();
});

test('the Auth screens work at 900 px in the dark theme and pass axe', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const admin = await createVerifiedAccount(request, 'authdark');
  const made = await organizationWithProject(request, admin, { organization: 'Dark', project: 'Night' });
  const seeded = await seed(request, made, 'dark');
  const context = await browser.newContext({ colorScheme: 'dark', reducedMotion: 'reduce', viewport: { width: 900, height: 900 } });
  const page = await context.newPage();
  await signInTo(page, admin, made);
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.goto(`${projectPath(made)}/auth/users`);
  await expect(page.getByRole('rowheader', { name: seeded.emails[0]! })).toBeVisible();
  // Nothing wider than the screen.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(900);
  await expectAccessible(page, 'users dark 900');
  await page.goto(`${projectPath(made)}/auth/viewRoles`);
  await page.getByLabel('New group name').fill('Readers');
  await page.getByRole('button', { name: 'Create group' }).click();
  const matrix = page.getByRole('table', { name: 'Rights of Readers' });
  await matrix.getByRole('checkbox', { name: 'Read in Posts' }).focus();
  await page.keyboard.press('Space');
  await expect(matrix.getByRole('checkbox', { name: 'Read in Posts' })).toBeChecked();
  await page.keyboard.press('ArrowRight');
  await expect(matrix.getByRole('checkbox', { name: 'Update in Posts' })).toBeFocused();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(900);
  await expectAccessible(page, 'groups dark 900');
  await page.goto(`${projectPath(made)}/collection/posts/item/${seeded.itemID}`);
  await expect(page.getByRole('region', { name: 'Users' }).getByLabel('User to add')).toBeVisible();
  await expectAccessible(page, 'item users dark 900');
  await context.close();
});
