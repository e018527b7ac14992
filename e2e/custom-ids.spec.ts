/**
 * Items at ids an app chose (docs/public-api.md "Item ids"): an article made at `art-42` through
 * the public API, linked to an author at `ada-l`, is found in the grid, opened at its own address,
 * edited (a field and a second caller-id author picked in the ItemRef picker), saved and deleted
 * in the console; the item page passes axe.
 */
import { expect, test, type APIRequestContext } from '@playwright/test';
import { createVerifiedAccount } from './support/accounts.ts';
import { expectAccessible } from './support/axe.ts';
import { signIn } from './support/console.ts';
import { bearer, mintApiToken, organizationWithProject, type Made } from './support/platform.ts';

const content = (made: Made, ...rest: string[]) => [`/api/organization/${made.organizationID}/project/${made.projectID}`, ...rest].join('/');
const shots = '/work/main/.tmp/shots/custom-ids';

let made: Made;
let account: Awaited<ReturnType<typeof createVerifiedAccount>>;
let apiToken: string;
const listPath = () => `/organization/${made.organizationID}/project/${made.projectID}/collection/articles`;

/** The official client's set: PUT …/items/{id}?set=true with the body as a JSON string. */
async function setItem(request: APIRequestContext, collection: string, id: string, values: Record<string, unknown>, nestedID = '') {
  const response = await request.put(`/api/public/collection/${collection}/items/${id}?set=true${nestedID ? `&nestedID=${nestedID}` : ''}`, {
    headers: { ...bearer(apiToken), 'accept-version': 'v1', 'content-type': 'application/x-www-form-urlencoded' },
    data: JSON.stringify(values),
  });
  expect(response.status(), await response.text()).toBe(201);
}

const publicGet = (request: APIRequestContext, path: string) => request.get(`/api/public/${path}`, { headers: { ...bearer(apiToken), 'accept-version': 'v1' } });

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  account = await createVerifiedAccount(request, 'customids');
  made = await organizationWithProject(request, account, { organization: 'Hitchhikers', project: 'Guide' });
  for (const data of [
    { id: 'authors', name: 'Authors', schema: [{ name: 'Name', slug: 'name', type: 1, required: true, primaryField: true }] },
    {
      id: 'articles',
      name: 'Articles',
      schema: [
        { name: 'Title', slug: 'title', type: 1, required: true, primaryField: true },
        { name: 'Body', slug: 'body', type: 1 },
        { name: 'Author', slug: 'author', type: 6, referenceCollectionID: 'authors' },
      ],
    },
    {
      id: 'books',
      name: 'Books',
      schema: [
        { name: 'Title', slug: 'title', type: 1, required: true, primaryField: true },
        { name: 'Chapters', slug: 'chapters', type: 12, nestedCollectionSchema: [{ name: 'Heading', slug: 'heading', type: 1, primaryField: true }] },
      ],
    },
  ]) {
    const created = await request.post(content(made, 'collection'), { headers: bearer(made.token), data });
    expect(created.status(), await created.text()).toBe(201);
  }
  apiToken = await mintApiToken(request, made, { powerRead: true, powerWrite: true }, 'App');
  await setItem(request, 'authors', 'ada-l', { name: 'Ada Lovelace' });
  await setItem(request, 'authors', 'grace_h', { name: 'Grace Hopper' });
  await setItem(request, 'articles', 'art-42', { title: 'The answer', body: 'Forty-two', author: [{ itemRefID: 'ada-l' }] });
  await setItem(request, 'books', 'dune', { title: 'Dune' });
  await setItem(request, 'books', 'dune', { heading: 'Arrakis' }, 'chapters.ch-1');
});

test('an item made at a caller-chosen id is opened, edited, saved and deleted in the console', async ({ page, request }) => {
  test.setTimeout(180_000);
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));

  // The grid lists it; a click opens it at its own address.
  await page.goto(listPath());
  const cell = page.locator('.ag-cell[col-id="title"]', { hasText: 'The answer' }).first();
  await expect(cell).toBeVisible();
  await page.screenshot({ path: `${shots}/list.png` });
  await cell.click();
  await expect(page).toHaveURL(new RegExp(`${listPath()}/item/art-42$`));
  await expect(page.getByRole('heading', { name: 'The answer', level: 2 })).toBeVisible();
  const author = page.locator('[data-field="author"]').first();
  await expect(author.getByRole('list', { name: 'Linked items' }).getByText('Ada Lovelace', { exact: true })).toBeVisible();
  await expectAccessible(page, 'item at a caller id');

  // Edit: a field, and a second author (also at a caller id) picked by search.
  await page.getByRole('textbox', { name: /^Body/ }).fill('Forty-two, exactly');
  const box = author.getByRole('combobox');
  await box.fill('Grace');
  await expect(author.getByRole('option', { name: 'Grace Hopper' })).toBeVisible();
  await box.press('ArrowDown');
  await box.press('Enter');
  await expect(author.getByRole('list', { name: 'Linked items' }).getByText('Grace Hopper', { exact: true })).toBeVisible();
  await page.screenshot({ path: `${shots}/item-edited.png` });
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(page.getByText('Item was updated!')).toBeVisible();
  const saved = await publicGet(request, 'collection/articles/items/art-42');
  expect(saved.status()).toBe(200);
  expect(await saved.json()).toMatchObject({
    _id: 'art-42',
    body: 'Forty-two, exactly',
    author: [
      { itemRefID: 'ada-l', value: 'Ada Lovelace' },
      { itemRefID: 'grace_h', value: 'Grace Hopper' },
    ],
  });

  // Reopened by its address (a reload), then deleted after the confirmation.
  await page.goto(`${listPath()}/item/art-42`);
  await expect(page.getByRole('heading', { name: 'The answer', level: 2 })).toBeVisible();
  await expect(page.getByRole('textbox', { name: /^Body/ })).toHaveValue('Forty-two, exactly');
  await page.getByRole('button', { name: 'Item menu' }).click();
  await page.getByRole('menuitem', { name: 'Delete Item' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete this item?' });
  await expect(confirm).toBeVisible();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(new RegExp(`${listPath()}$`));
  await expect(page.getByText('0 items', { exact: true })).toBeVisible();
  await page.screenshot({ path: `${shots}/deleted.png` });
  expect((await publicGet(request, 'collection/articles/items/art-42')).status()).toBe(404);
});

test('a nested item at a caller-chosen id opens at its address beside its parent, and saves', async ({ page, request }) => {
  test.setTimeout(180_000);
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  const bookPath = `/organization/${made.organizationID}/project/${made.projectID}/collection/books/item/dune`;
  await page.goto(`${bookPath}/nestedID/chapters/item/ch-1`);
  await expect(page.getByRole('heading', { name: 'Dune', level: 2 })).toBeVisible();
  const chapter = page.getByRole('region', { name: 'Arrakis' });
  await expect(chapter.getByRole('heading', { name: 'Arrakis', level: 2 })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Breadcrumbs' }).getByRole('listitem')).toHaveText(['Books', 'Dune', 'Chapters', 'Arrakis']);
  await expectAccessible(page, 'nested item at a caller id');
  await chapter.getByRole('textbox', { name: /^Heading/ }).fill('Arrakis, the desert planet');
  await page.screenshot({ path: `${shots}/nested-edited.png` });
  await chapter.getByRole('button', { name: 'Update' }).click();
  await expect(page.getByText('Item was updated!')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${bookPath}/nestedID/chapters$`));
  await expect
    .poll(async () => (await (await publicGet(request, 'collection/books/items/dune?nestedID=chapters.ch-1')).json()).heading)
    .toBe('Arrakis, the desert planet');
});
