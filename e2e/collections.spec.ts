/**
 * Collections as people set them up: New Collection with the ID following
 * the name, Edit Collection (rename with pencil and tick, direction, Single/Multi under the
 * one-item rule, Done), a project from a template bringing its collections, deleting a collection
 * by typing its ID, and axe on both screens.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createVerifiedAccount } from './support/accounts.ts';
import { expectAccessible } from './support/axe.ts';
import { signIn } from './support/console.ts';
import { bearer, organizationWithProject, type Made } from './support/platform.ts';

const content = (made: Made, ...rest: string[]) => [`/api/organization/${made.organizationID}/project/${made.projectID}`, ...rest].join('/');

async function readCollection(request: APIRequestContext, made: Made, id: string) {
  const response = await request.get(content(made, 'collection', id), { headers: bearer(made.token) });
  return { status: response.status(), body: response.ok() ? ((await response.json()) as { name: string; singleItem: boolean; rtlDirection: boolean; itemCount: number }) : null };
}

async function addItem(request: APIRequestContext, made: Made, id: string) {
  const response = await request.post(content(made, 'collection', id, 'item'), { headers: bearer(made.token), data: {} });
  expect(response.status(), await response.text()).toBe(201);
}

async function createOverApi(request: APIRequestContext, made: Made, body: Record<string, unknown>) {
  const response = await request.post(content(made, 'collection'), { headers: bearer(made.token), data: body });
  expect(response.status(), await response.text()).toBe(201);
}

const sideMenu = (page: Page) => page.getByRole('navigation', { name: 'Project menu' });
const projectPath = (made: Made) => `/organization/${made.organizationID}/project/${made.projectID}`;

test('a collection is created from its name, renamed, turned RTL and converted under the one-item rule', async ({ page, request }) => {
  test.setTimeout(120_000);
  const admin = await createVerifiedAccount(request, 'collector');
  const made = await organizationWithProject(request, admin, { organization: 'Collections', project: 'Blog' });
  await signIn(page, admin);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await page.goto(projectPath(made));

  // The empty sidebar invites to create the first collection.
  const menu = sideMenu(page);
  await expect(menu.getByText("You don't seem to have any collections yet")).toBeVisible();
  await expect(menu.getByText('Click the Plus icon to create your first')).toBeVisible();
  await menu.getByRole('link', { name: 'Create Collection' }).click();
  await expect(page).toHaveURL(/\/collection\/new$/);
  await expect(page.getByRole('heading', { name: 'New Collection' })).toBeVisible();

  // The ID follows the name until edited by hand.
  const create = page.getByRole('button', { name: 'Create Collection' });
  await expect(create).toBeDisabled();
  const name = page.getByRole('textbox', { name: 'Collection Name' });
  const id = page.getByLabel('Collection ID (only alphanumeric values)');
  await name.fill('Blog posts');
  await expect(id).toHaveValue('blogPosts');
  await id.fill('new');
  await expect(page.getByText('"new" is reserved. Choose another collection ID.')).toBeVisible();
  await expect(create).toBeDisabled();
  await id.fill('blog posts');
  await expect(page.getByText('Use only letters, digits and hyphens.')).toBeVisible();
  await id.fill('blogPosts');
  await name.fill('Blog posts of the week');
  await expect(id).toHaveValue('blogPosts');
  await name.fill('Blog posts');
  await expect(page.getByRole('radio', { name: 'Multi' })).toHaveAttribute('aria-checked', 'true');
  await create.click();
  await expect(page.getByText('Collection created')).toBeVisible();
  await expect(page).toHaveURL(/\/collection\/blogPosts\/edit$/);
  await expect(page.getByRole('heading', { name: 'Edit Collection' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Blog posts', exact: true })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Settings of Blog posts' })).toBeVisible();
  expect((await readCollection(request, made, 'blogPosts')).body).toMatchObject({ name: 'Blog posts', singleItem: false, rtlDirection: false });

  // The ID cannot be changed any more.
  await expect(page.getByLabel('Collection ID (only alphanumeric values)')).toHaveAttribute('readonly', '');

  // Rename with the pencil and the tick; Escape cancels an edit.
  await page.getByRole('button', { name: 'Edit collection name' }).click();
  await page.getByRole('textbox', { name: 'Collection Name' }).fill('Nope');
  await page.getByRole('textbox', { name: 'Collection Name' }).press('Escape');
  await expect(page.getByRole('button', { name: 'Edit collection name' })).toBeFocused();
  await page.keyboard.press('Enter');
  await page.getByRole('textbox', { name: 'Collection Name' }).fill('Articles');
  await page.getByRole('button', { name: 'Save collection name' }).click();
  await expect(page.getByText('Collection updated')).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Articles', exact: true })).toBeVisible();
  expect((await readCollection(request, made, 'blogPosts')).body?.name).toBe('Articles');

  // Right to left.
  await page.getByRole('switch', { name: 'Right to left (RTL)' }).click();
  await expect(page.getByRole('switch', { name: 'Right to left (RTL)' })).toBeChecked();
  await expect.poll(async () => (await readCollection(request, made, 'blogPosts')).body?.rtlDirection).toBe(true);

  // One item: Single is allowed, and back to Multi.
  await addItem(request, made, 'blogPosts');
  await page.reload();
  const single = page.getByRole('radio', { name: 'Single' });
  await expect(single).toBeEnabled();
  await single.click();
  await expect(single).toHaveAttribute('aria-checked', 'true');
  await expect.poll(async () => (await readCollection(request, made, 'blogPosts')).body?.singleItem).toBe(true);
  await page.getByRole('radio', { name: 'Multi' }).click();
  await expect(page.getByRole('radio', { name: 'Multi' })).toHaveAttribute('aria-checked', 'true');
  await expect.poll(async () => (await readCollection(request, made, 'blogPosts')).body?.singleItem).toBe(false);

  // Two items: Single is disabled, with the warning.
  await addItem(request, made, 'blogPosts');
  await page.reload();
  await expect(page.getByRole('radio', { name: 'Single' })).toBeDisabled();
  await expect(page.getByText('This collection must have no more than one item to become a single item collection.')).toBeVisible();

  // Done opens the collection.
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(page).toHaveURL(new RegExp(`${projectPath(made)}/collection/blogPosts$`));
});

test('a new collection refused with 409 says "CollectionID already exists" beside the ID', async ({ page, request }) => {
  const admin = await createVerifiedAccount(request, 'clash');
  const made = await organizationWithProject(request, admin, { organization: 'Clashes', project: 'Shop' });
  await createOverApi(request, made, { id: 'products', name: 'Products' });
  await signIn(page, admin);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await page.goto(`${projectPath(made)}/collection/new`);
  await page.getByRole('textbox', { name: 'Collection Name' }).fill('Products');
  await page.getByRole('button', { name: 'Create Collection' }).click();
  await expect(page.getByText('Could not create new collection')).toBeVisible();
  await expect(page.getByText('CollectionID already exists')).toBeVisible();
  await expect(page).toHaveURL(/\/collection\/new$/);
});

test('deleting a collection needs its exact ID: a wrong one deletes nothing', async ({ page, request }) => {
  const admin = await createVerifiedAccount(request, 'remover');
  const made = await organizationWithProject(request, admin, { organization: 'Removals', project: 'Docs' });
  await createOverApi(request, made, { id: 'pages', name: 'Pages' });
  await addItem(request, made, 'pages');
  await signIn(page, admin);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await page.goto(projectPath(made));
  await sideMenu(page).getByRole('link', { name: 'Settings of Pages' }).click();
  await expect(page).toHaveURL(/\/collection\/pages\/edit$/);

  await page.getByRole('button', { name: 'Delete Collection' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete Collection' });
  await expect(dialog).toContainText('Deleting a collection will remove all data in collection.');
  await dialog.getByLabel('Collection ID').fill('Pages');
  await dialog.getByRole('button', { name: 'Delete Collection' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Collection ID does not match');
  expect((await readCollection(request, made, 'pages')).status).toBe(200);

  await dialog.getByLabel('Collection ID').fill('pages');
  await dialog.getByRole('button', { name: 'Delete Collection' }).click();
  await expect(page.getByText('Collection deleted')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${projectPath(made)}$`));
  await expect(sideMenu(page).getByText("You don't seem to have any collections yet")).toBeVisible();
  expect((await readCollection(request, made, 'pages')).status).toBe(404);
});

test('a project made from a template has the template’s collections and schemas, not its items', async ({ page, request }) => {
  const admin = await createVerifiedAccount(request, 'templater');
  const made = await organizationWithProject(request, admin, { organization: 'Templates', project: 'Starter' });
  await createOverApi(request, made, { id: 'recipes', name: 'Recipes', schema: [{ name: 'Title', slug: 'title', type: 1 }] });
  await createOverApi(request, made, { id: 'about', name: 'About', singleItem: true });
  await addItem(request, made, 'about');
  await signIn(page, admin);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));

  await page.getByRole('button', { name: 'New Project' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Project' });
  await dialog.getByLabel('Project Name').fill('Copy');
  await dialog.getByRole('switch', { name: 'Use a template?' }).click();
  await dialog.getByLabel('Select Template').selectOption({ label: 'Starter' });
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('Project Created')).toBeVisible();
  await expect(page).toHaveURL(/\/project\/[^/]+$/);
  const menu = sideMenu(page);
  await expect(menu.getByRole('link', { name: 'Recipes', exact: true })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'About', exact: true })).toBeVisible();

  const copyID = new URL(page.url()).pathname.split('/').pop()!;
  const copy: Made = { ...made, projectID: copyID };
  const recipes = await request.get(content(copy, 'collection', 'recipes'), { headers: bearer(made.token) });
  expect(recipes.status()).toBe(200);
  const schema = ((await recipes.json()) as { schema: { slug: string }[] }).schema.map((field) => field.slug);
  expect(schema).toContain('title');
  expect((await readCollection(request, copy, 'about')).body).toMatchObject({ singleItem: true, itemCount: 0 });

  // Its settings open from the menu.
  await menu.getByRole('link', { name: 'Settings of About' }).click();
  await expect(page.getByLabel('Collection ID (only alphanumeric values)')).toHaveValue('about');
  await expect(page.getByRole('radio', { name: 'Single' })).toHaveAttribute('aria-checked', 'true');
});

for (const [colorScheme, width] of [
  ['light', 1280],
  ['dark', 900],
] as const) {
  test(`New Collection and Edit Collection pass axe (${colorScheme}, ${width} px)`, async ({ browser, request }) => {
    test.setTimeout(120_000);
    const admin = await createVerifiedAccount(request, 'axecollection');
    const made = await organizationWithProject(request, admin, { organization: 'Accessible', project: 'Content' });
    await createOverApi(request, made, { id: 'crowded', name: 'Crowded' });
    await addItem(request, made, 'crowded');
    await addItem(request, made, 'crowded');
    const context = await browser.newContext({ colorScheme, reducedMotion: 'reduce', viewport: { width, height: 900 } });
    const page = await context.newPage();
    const at = (what: string) => `${what} ${colorScheme} ${width}`;
    await signIn(page, admin);
    await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
    await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);

    await page.goto(`${projectPath(made)}/collection/new`);
    await page.getByRole('textbox', { name: 'Collection Name' }).fill('Home page');
    await page.getByLabel('Collection ID (only alphanumeric values)').fill('new');
    await expect(page.getByText('"new" is reserved. Choose another collection ID.')).toBeVisible();
    await expectAccessible(page, at('new collection'));

    // The warning of a collection with two items, and the name in edit mode.
    await page.goto(`${projectPath(made)}/collection/crowded/edit`);
    await expect(page.getByText('This collection must have no more than one item to become a single item collection.')).toBeVisible();
    await expectAccessible(page, at('edit collection'));
    await page.getByRole('button', { name: 'Edit collection name' }).click();
    await expect(page.getByRole('textbox', { name: 'Collection Name' })).toBeFocused();
    await expectAccessible(page, at('edit collection name'));
    await page.getByRole('textbox', { name: 'Collection Name' }).press('Escape');

    await page.getByRole('button', { name: 'Delete Collection' }).click();
    await expect(page.getByRole('dialog', { name: 'Delete Collection' })).toBeVisible();
    await expectAccessible(page, at('delete collection dialog'));
    await page.keyboard.press('Escape');

    // Not found.
    await page.goto(`${projectPath(made)}/collection/nothing/edit`);
    await expect(page.getByRole('heading', { name: 'Could not find collection' })).toBeVisible();
    await expectAccessible(page, at('unknown collection'));
    await context.close();
  });
}
