/**
 * The item list as an editor uses it: a seeded collection of 120 items,
 * sort, filter, search, pages and per page, pinning and hiding a column that stays so after a
 * reload, multi-select delete, and axe in light and dark and at 800 px.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createVerifiedAccount } from './support/accounts.ts';
import { expectAccessible } from './support/axe.ts';
import { signIn } from './support/console.ts';
import { bearer, organizationWithProject, type Made } from './support/platform.ts';

const content = (made: Made, ...rest: string[]) => [`/api/organization/${made.organizationID}/project/${made.projectID}`, ...rest].join('/');
const itemCount = 120;
const pad = (n: number) => String(n).padStart(3, '0');

async function seed(request: APIRequestContext, made: Made) {
  const created = await request.post(content(made, 'collection'), {
    headers: bearer(made.token),
    data: {
      id: 'products',
      name: 'Products',
      schema: [
        { name: 'Title', slug: 'title', type: 1 },
        { name: 'Price', slug: 'price', type: 3 },
        { name: 'Published', slug: 'published', type: 8 },
      ],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const numbers = Array.from({ length: itemCount }, (_, i) => i + 1);
  for (let start = 0; start < numbers.length; start += 20) {
    await Promise.all(
      numbers.slice(start, start + 20).map(async (n) => {
        const response = await request.post(content(made, 'collection', 'products', 'item'), {
          headers: bearer(made.token),
          data: { title: `Item ${pad(n)}`, price: n, published: n % 2 === 0 },
        });
        expect(response.status(), await response.text()).toBe(201);
      }),
    );
  }
}

// With pinned columns a row is drawn in several containers, each holding its own cells.
const cell = (page: Page, row: number, column: string) => page.locator(`.ag-row[row-index="${row}"] .ag-cell[col-id="${column}"]`).first();
const range = (page: Page) => page.locator('.list-range');

let made: Made;
let account: Awaited<ReturnType<typeof createVerifiedAccount>>;
const listPath = () => `/organization/${made.organizationID}/project/${made.projectID}/collection/products`;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  test.setTimeout(180_000);
  account = await createVerifiedAccount(request, 'lister');
  made = await organizationWithProject(request, account, { organization: 'Shop', project: 'Catalogue' });
  await seed(request, made);
});

test('an editor sorts, filters, searches, pages, arranges columns and deletes several items', async ({ page }) => {
  test.setTimeout(180_000);
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await page.goto(listPath());

  await expect(page.getByRole('heading', { name: 'Products', level: 2 })).toBeVisible();
  await expect(page.getByText('120 items')).toBeVisible();
  await expect(page.getByRole('grid', { name: 'Items of Products' }).or(page.getByRole('treegrid', { name: 'Items of Products' }))).toBeVisible();
  await expect(range(page)).toHaveText('1–50 of 120');
  await expect(page.getByRole('link', { name: 'New Item' })).toBeVisible();

  // Sort: the first click sorts ascending, the next descending.
  const priceHeader = page.locator('.ag-header-cell[col-id="price"]');
  await priceHeader.click();
  await expect(cell(page, 0, 'price')).toHaveText('1');
  await priceHeader.click();
  await expect(cell(page, 0, 'price')).toHaveText('120');
  await expect(cell(page, 0, 'title')).toHaveText('Item 120');

  // Pages and per page; per page goes back to page 1.
  await page.getByRole('button', { name: 'Page 2' }).click();
  await expect(range(page)).toHaveText('51–100 of 120');
  await expect(cell(page, 0, 'price')).toHaveText('70');
  await page.getByRole('combobox', { name: 'Per Page' }).selectOption('20');
  await expect(range(page)).toHaveText('1–20 of 120');
  await expect(page.getByRole('navigation', { name: 'Pages' }).locator('.page-link')).toHaveCount(6);
  await page.getByRole('button', { name: 'Page 6' }).click();
  await expect(range(page)).toHaveText('101–120 of 120');
  await expect(cell(page, 0, 'price')).toHaveText('20');
  await page.getByRole('combobox', { name: 'Per Page' }).selectOption('Custom');
  const custom = page.getByRole('textbox', { name: 'Items per page (custom)' });
  await custom.fill('');
  await custom.pressSequentially('3o0');
  await expect(custom).toHaveValue('30');
  await custom.press('Enter');
  await expect(range(page)).toHaveText('1–30 of 120');

  // Filter: Price greater than 100 (the filter goes back to page 1).
  await page.getByRole('combobox', { name: 'Field' }).selectOption('Price');
  await page.getByRole('combobox', { name: 'Operator' }).selectOption('Greater Than');
  await page.getByRole('textbox', { name: 'Value' }).fill('100');
  await expect(page.getByText('20 items')).toBeVisible();
  await expect(range(page)).toHaveText('1–20 of 20');
  await expect(cell(page, 0, 'price')).toHaveText('120');
  // Bool defaults to "= true".
  await page.getByRole('combobox', { name: 'Field' }).selectOption('Published');
  await expect(page.getByRole('combobox', { name: 'Value' })).toHaveValue('true');
  await expect(page.getByText('60 items')).toBeVisible();
  await page.getByRole('button', { name: 'Clear filter' }).click();
  await expect(page.getByText('120 items')).toBeVisible();

  // Search: at most 256 characters, after a pause.
  const search = page.getByRole('searchbox', { name: 'Search items' });
  await expect(search).toHaveAttribute('maxlength', '256');
  await search.fill('Item 007');
  await expect(page.getByText('1 item', { exact: true })).toBeVisible();
  await expect(cell(page, 0, 'title')).toHaveText('Item 007');
  await search.fill('');
  await expect(page.getByText('120 items')).toBeVisible();

  // Column Settings: hide Published, pin ID to the left; both survive a reload.
  await page.getByRole('button', { name: 'Collection menu' }).click();
  await page.getByRole('menuitem', { name: 'Column Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Column Settings' });
  await dialog.getByRole('checkbox', { name: 'Show Published' }).uncheck();
  await dialog.getByRole('combobox', { name: 'Pin ID' }).selectOption('left');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(page.locator('.ag-header-cell[col-id="published"]')).toHaveCount(0);
  await expect(page.locator('.ag-header-cell-last-left-pinned[col-id="_id"]')).toBeVisible();
  await page.reload();
  await expect(page.getByText('120 items')).toBeVisible();
  await expect(page.locator('.ag-header-cell-last-left-pinned[col-id="_id"]')).toBeVisible();
  await expect(page.locator('.ag-header-cell[col-id="title"]')).toBeVisible();
  await expect(page.locator('.ag-header-cell[col-id="published"]')).toHaveCount(0);

  // Ranks: Make collection sortable ranks what has no rank yet; items made through the API already
  // have their places, so it says so instead of claiming success. The drag handle moves an item.
  await page.getByRole('button', { name: 'Collection menu' }).click();
  await page.getByRole('menuitem', { name: 'Make collection sortable' }).click();
  await expect(page.getByText('This collection is already sortable')).toBeVisible();
  const moved = (await cell(page, 0, 'title').textContent()) ?? '';
  const handle = page.locator('.ag-row[row-index="0"] [data-row-handle]').first();
  await expect(handle).toBeVisible();
  const from = await handle.boundingBox();
  const to = await cell(page, 2, 'title').boundingBox();
  if (!from || !to) throw new Error('the rows are not drawn');
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 + 10, { steps: 5 });
  await page.mouse.move(to.x + 20, to.y + to.height / 2 + 4, { steps: 15 });
  await page.mouse.up();
  await expect(cell(page, 2, 'title')).toHaveText(moved);
  await page.reload();
  await expect(cell(page, 2, 'title')).toHaveText(moved);

  // Multi-select: New Item gives way to Delete N Items; two items go after the confirmation.
  await page.getByRole('button', { name: 'Collection menu' }).click();
  await page.getByRole('menuitem', { name: 'Select' }).click();
  await expect(page.getByRole('link', { name: 'New Item' })).toHaveCount(0);
  const firstTitle = await cell(page, 0, 'title').textContent();
  const secondTitle = await cell(page, 1, 'title').textContent();
  await page.locator('.ag-row[row-index="0"] .ag-selection-checkbox input').first().check();
  await page.locator('.ag-row[row-index="1"] .ag-selection-checkbox input').first().check();
  await page.getByRole('button', { name: 'Delete 2 Items' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete 2 items?' });
  await expect(confirm.getByText('This will permanently delete theses items.')).toBeVisible();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page.getByText('118 items')).toBeVisible();
  await expect(page.getByText('2 items deleted')).toBeVisible();
  await search.fill(firstTitle ?? '');
  await expect(page.getByText('This Collection is Empty').or(page.getByText('No items match the search or filter'))).toBeVisible();
  await search.fill(secondTitle ?? '');
  await expect(page.getByText('No items match the search or filter')).toBeVisible();
  await search.fill('');

  // Multi-select turned off when the list showed no items: New Item is back.
  await expect(page.getByRole('link', { name: 'New Item' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Delete \d+ Items?$/ })).toHaveCount(0);

  // Download CSV exports what the list shows: the filtered rows, in the list's order.
  await page.getByRole('combobox', { name: 'Field' }).selectOption('Price');
  await page.getByRole('combobox', { name: 'Operator' }).selectOption('Less Than');
  await page.getByRole('textbox', { name: 'Value' }).fill('11');
  await expect(range(page)).toHaveText(/of (8|9|10)$/);
  const shown = await page.locator('.list-range').textContent();
  const rows = Number(/of (\d+)$/.exec(shown ?? '')?.[1]);
  const firstShown = await cell(page, 0, 'title').textContent();
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Collection menu' }).click();
  await page.getByRole('menuitem', { name: 'Download CSV' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^products-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await (await import('node:fs/promises')).readFile((await download.path()) ?? '', 'utf8');
  const lines = csv.trim().split(/\r?\n/);
  expect(lines).toHaveLength(rows + 1);
  expect(lines[1]).toContain(firstShown ?? '');
  await page.getByRole('button', { name: 'Clear filter' }).click();
  await expect(page.getByText('118 items')).toBeVisible();

  // Opening an item: Enter on a row from the keyboard, or a click, goes to its route.
  await page.locator('.ag-header-cell[col-id="title"]').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/collection\/products\/item\/[0-9a-f]+$/);
  await page.goBack();
  await expect(page.getByText('118 items')).toBeVisible();
  await cell(page, 0, 'title').click();
  await expect(page).toHaveURL(/\/collection\/products\/item\/[0-9a-f]+$/);
  await page.goBack();
  await expect(page.getByText('118 items')).toBeVisible();
});

test('with Live Data on, a new item is announced and loaded at the top', async ({ page, request }) => {
  test.setTimeout(120_000);
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await page.goto(listPath());
  await expect(cell(page, 0, 'title')).toHaveText(/Item \d{3}/);
  const live = page.getByRole('switch', { name: 'Live Data' });
  await live.click();
  await expect(live).toBeChecked();
  // On: sorted newest first (the header shows the sort on Created Date).
  await expect(page.locator('.ag-header-cell[col-id="_createdDate"]')).toHaveAttribute('aria-sort', 'descending');
  await expect(page.getByText('Connecting…')).toBeHidden();
  const created = await request.post(content(made, 'collection', 'products', 'item'), {
    headers: bearer(made.token),
    data: { title: 'Fresh off the press', price: 999, published: true },
  });
  expect(created.status(), await created.text()).toBe(201);
  await expect(page.getByText('New Items Available')).toBeVisible();
  await page.getByRole('button', { name: 'Load New Items' }).click();
  await expect(page.getByText('New Items Available')).toBeHidden();
  await expect(cell(page, 0, 'title')).toHaveText('Fresh off the press');
  await expectAccessible(page, 'item list with live data');
  // Off: the sort is cleared.
  await live.click();
  await expect(live).not.toBeChecked();
  await expect(page.locator('.ag-header-cell[col-id="_createdDate"]')).not.toHaveAttribute('aria-sort', 'descending');
});

test('an empty schema and an empty collection say so', async ({ page, request }) => {
  test.setTimeout(120_000);
  const bare = await request.post(content(made, 'collection'), { headers: bearer(made.token), data: { id: 'bare', name: 'Bare' } });
  expect(bare.status()).toBe(201);
  const empty = await request.post(content(made, 'collection'), { headers: bearer(made.token), data: { id: 'empty', name: 'Empty', schema: [{ name: 'Title', slug: 'title', type: 1 }] } });
  expect(empty.status()).toBe(201);
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  const project = `/organization/${made.organizationID}/project/${made.projectID}`;
  await page.goto(`${project}/collection/bare`);
  await expect(page.getByText('Your collection schema is not set')).toBeVisible();
  await expect(page.getByText('Click the settings icons to set up your schema')).toBeVisible();
  await expect(page.getByRole('link', { name: 'New Item' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Edit Collection Settings' }).click();
  await expect(page).toHaveURL(/\/collection\/bare\/edit$/);
  await page.goto(`${project}/collection/empty`);
  await expect(page.getByText('This Collection is Empty')).toBeVisible();
  await expect(page.getByText('0 items')).toBeVisible();
});

test('a nested list shows its items under breadcrumbs cut to 10 characters', async ({ page, request }) => {
  test.setTimeout(120_000);
  const books = await request.post(content(made, 'collection'), {
    headers: bearer(made.token),
    data: {
      id: 'books',
      name: 'Bookshelf of the house',
      schema: [
        { name: 'Title', slug: 'title', type: 1 },
        { name: 'Chapters', slug: 'chapters', type: 12, nestedCollectionSchema: [{ name: 'Heading', slug: 'heading', type: 1 }] },
      ],
    },
  });
  expect(books.status(), await books.text()).toBe(201);
  const book = await request.post(content(made, 'collection', 'books', 'item'), { headers: bearer(made.token), data: { title: 'Dune' } });
  expect(book.status()).toBe(201);
  const bookID = ((await book.json()) as { _id: string })._id;
  for (const heading of ['Arrakis', 'Muad’Dib', 'The Prophet']) {
    const chapter = await request.post(`${content(made, 'collection', 'books', 'item', bookID)}?nestedID=chapters`, { headers: bearer(made.token), data: { heading } });
    expect(chapter.status(), await chapter.text()).toBe(201);
  }
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await page.goto(`/organization/${made.organizationID}/project/${made.projectID}/collection/books/item/${bookID}/nestedID/chapters`);
  // The nested list is folded beside its item (docs/console.md "Item page"): the item's crumb is its name.
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumbs' });
  const fold = page.locator('[data-fold-pane="deepest"]');
  await expect(crumbs.getByRole('link', { name: 'Bookshelf ...' })).toBeVisible();
  await expect(crumbs.getByRole('link', { name: 'Dune' })).toBeVisible();
  await expect(crumbs.getByText('Chapters')).toHaveAttribute('aria-current', 'page');
  await expect(page.getByRole('heading', { name: 'Chapters', level: 2 })).toBeVisible();
  await expect(fold.getByText('3 items')).toBeVisible();
  await expect(page.getByRole('combobox', { name: 'Per Page' })).toHaveValue('100');
  await page.getByRole('searchbox', { name: 'Search items' }).fill('prophet');
  await expect(fold.getByText('1 item', { exact: true })).toBeVisible();
  await expect(cell(page, 0, 'heading')).toHaveText('The Prophet');
  await expectAccessible(page, 'nested list');
  await crumbs.getByRole('link', { name: 'Bookshelf ...' }).click();
  await expect(page.getByRole('heading', { name: 'Bookshelf of the house', level: 2 })).toBeVisible();
  await expect(page.getByText('1 item', { exact: true })).toBeVisible();
});

// One look per theme and per width (docs/architecture.md "Looks in the browser suite").
for (const [colorScheme, width] of [
  ['light', 1280],
  ['dark', 800],
] as const) {
  test(`the item list passes axe (${colorScheme}, ${width} px)`, async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ colorScheme, reducedMotion: 'reduce', viewport: { width, height: 900 } });
    const page = await context.newPage();
    await signIn(page, account);
    await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
    await page.goto(listPath());
    await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
    await expect(cell(page, 0, 'title')).toHaveText(/Item \d{3}/);
    await expectAccessible(page, `item list ${colorScheme} ${width}`);
    await page.screenshot({ path: `.tmp/item-list-${colorScheme}-${width}.png` });
    // Multi-select with its checkboxes, the filter warning and the Column Settings dialog.
    await page.getByRole('button', { name: 'Collection menu' }).click();
    await page.getByRole('menuitem', { name: 'Select' }).click();
    await page.getByRole('textbox', { name: 'Value' }).fill('x');
    await expect(page.getByText('Please select a field and operator')).toBeVisible();
    await expect(page.locator('.ag-selection-checkbox input').first()).toBeVisible();
    await expectAccessible(page, `item list multi-select ${colorScheme} ${width}`);
    await page.screenshot({ path: `.tmp/item-list-select-${colorScheme}-${width}.png` });
    await page.getByRole('button', { name: 'Collection menu' }).click();
    await page.getByRole('menuitem', { name: 'Column Settings' }).click();
    await expect(page.getByRole('dialog', { name: 'Column Settings' })).toBeVisible();
    await expectAccessible(page, `column settings ${colorScheme} ${width}`);
    await context.close();
  });
}
