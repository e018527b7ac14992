/**
 * The item page as an editor uses it: create (a required field refused
 * first), edit, duplicate and delete an item; the unsaved-changes prompt (Close and the browser's
 * back); two people editing the same item, where the second save shows the conflict instead of
 * overwriting; a single-item collection; nested collections folded beside their parent item, two
 * levels deep (preview table, breadcrumbs, create, edit, delete, reload on a nested address);
 * axe in light and dark at 1280 and 900 px.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createVerifiedAccount } from './support/accounts.ts';
import { expectAccessible } from './support/axe.ts';
import { signIn } from './support/console.ts';
import { bearer, organizationWithProject, type Made } from './support/platform.ts';

const content = (made: Made, ...rest: string[]) => [`/api/organization/${made.organizationID}/project/${made.projectID}`, ...rest].join('/');

let made: Made;
let account: Awaited<ReturnType<typeof createVerifiedAccount>>;
const projectPath = () => `/organization/${made.organizationID}/project/${made.projectID}`;
const listPath = () => `${projectPath()}/collection/articles`;

async function seed(request: APIRequestContext) {
  const created = await request.post(content(made, 'collection'), {
    headers: bearer(made.token),
    data: {
      id: 'articles',
      name: 'Articles',
      schema: [
        { name: 'Title', slug: 'title', type: 1, required: true, primaryField: true },
        { name: 'Body', slug: 'body', type: 1 },
      ],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const single = await request.post(content(made, 'collection'), {
    headers: bearer(made.token),
    data: { id: 'homepage', name: 'Homepage', singleItem: true, schema: [{ name: 'Headline', slug: 'headline', type: 1 }] },
  });
  expect(single.status(), await single.text()).toBe(201);
}

async function itemByTitle(request: APIRequestContext, title: string) {
  const response = await request.get(content(made, 'collection', 'articles', 'item'), { headers: bearer(made.token), params: { perPage: 100 } });
  expect(response.status()).toBe(200);
  const items = (await response.json()) as { _id: string; title?: string; body?: string }[];
  return items.find((item) => item.title === title);
}

const titleBox = (page: Page) => page.getByRole('textbox', { name: /^Title/ });
const bodyBox = (page: Page) => page.getByRole('textbox', { name: /^Body/ });

async function openItem(page: Page, itemID: string, heading: string) {
  await page.goto(`${listPath()}/item/${itemID}`);
  await expect(page.getByRole('heading', { name: heading, level: 2 })).toBeVisible();
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  account = await createVerifiedAccount(request, 'itemeditor');
  made = await organizationWithProject(request, account, { organization: 'Press', project: 'Magazine' });
  await seed(request);
});

test('an editor creates, edits, duplicates and deletes an item; unsaved changes are asked about', async ({ page, request }) => {
  test.setTimeout(180_000);
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await page.goto(listPath());
  await page.getByRole('link', { name: 'New Item' }).click();
  await expect(page.getByRole('heading', { name: 'New Articles item', level: 2 })).toBeVisible();
  const create = page.getByRole('button', { name: 'Create Item' });
  await expect(create).toBeDisabled();
  await expect(page.getByText('Required Field')).toBeVisible();

  // A required field left empty: the save is refused and says why.
  await bodyBox(page).fill('The first words');
  await expect(create).toBeEnabled();
  await create.click();
  await expect(page.getByText('Title is a required field').first()).toBeVisible();
  await expect(page).toHaveURL(/\/collection\/articles\/item$/);
  await page.screenshot({ path: '/tmp/item-page-required.png' });

  // Created; "Close after saving" is on by default: back to the list, which shows it.
  await titleBox(page).fill('First post');
  await create.click();
  await expect(page.getByText('Item was created!')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`${listPath()}$`));
  await expect(page.locator('.ag-cell[col-id="title"]', { hasText: 'First post' }).first()).toBeVisible();
  const first = await itemByTitle(request, 'First post');
  expect(first?.body).toBe('The first words');

  // Edit with "Close after saving" off: the page stays on the item.
  await page.locator('.ag-cell[col-id="title"]', { hasText: 'First post' }).first().click();
  await expect(page.getByRole('heading', { name: 'First post', level: 2 })).toBeVisible();
  await page.getByRole('button', { name: 'Item menu' }).click();
  await page.getByRole('menuitemcheckbox', { name: 'Close after saving' }).click();
  await expect(page.getByRole('menuitemcheckbox', { name: 'Close after saving' })).toHaveAttribute('aria-checked', 'false');
  await page.keyboard.press('Escape');
  await bodyBox(page).fill('Edited words');
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(page.getByText('Item was updated!')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/item/${first!._id}$`));
  await expect(page.getByRole('button', { name: 'Update' })).toBeDisabled();
  expect((await itemByTitle(request, 'First post'))?.body).toBe('Edited words');
  await page.screenshot({ path: '/tmp/item-page-edit.png' });

  // Unsaved changes: Close asks; Stay keeps them; the browser's back asks too; Leave goes.
  await bodyBox(page).fill('Not saved');
  await page.getByRole('button', { name: 'Close' }).click();
  const leave = page.getByRole('alertdialog', { name: 'Unsaved changes' });
  await expect(leave.getByText('Do you really want to leave? You have unsaved changes!')).toBeVisible();
  await page.screenshot({ path: '/tmp/item-page-leave.png' });
  await leave.getByRole('button', { name: 'Stay' }).click();
  await expect(leave).toBeHidden();
  await expect(bodyBox(page)).toHaveValue('Not saved');
  await page.goBack();
  await expect(leave).toBeVisible();
  await leave.getByRole('button', { name: 'Leave' }).click();
  await expect(page).toHaveURL(new RegExp(`${listPath()}$`));
  expect((await itemByTitle(request, 'First post'))?.body).toBe('Edited words');

  // Duplicate: a new-item form holding the copy, ready to create.
  await openItem(page, first!._id, 'First post');
  await page.getByRole('button', { name: 'Item menu' }).click();
  await page.getByRole('menuitem', { name: 'Duplicate Item' }).click();
  await expect(page.getByRole('heading', { name: 'New Articles item', level: 2 })).toBeVisible();
  await expect(page).toHaveURL(/\/collection\/articles\/item$/);
  await expect(titleBox(page)).toHaveValue('First post');
  await expect(bodyBox(page)).toHaveValue('Edited words');
  await titleBox(page).fill('Copy of the first');
  await page.getByRole('button', { name: 'Create Item' }).click();
  await expect(page.getByText('Item was created!')).toBeVisible();
  // "Close after saving" is still off (kept in this browser): the copy's own page.
  await expect(page.getByRole('heading', { name: 'Copy of the first', level: 2 })).toBeVisible();
  await expect(page).toHaveURL(/\/collection\/articles\/item\/[0-9a-f]+$/);
  const copy = await itemByTitle(request, 'Copy of the first');
  expect(copy?.body).toBe('Edited words');
  expect(copy?._id).not.toBe(first!._id);

  // Delete, after the confirmation.
  await page.getByRole('button', { name: 'Item menu' }).click();
  await page.getByRole('menuitem', { name: 'Delete Item' }).click();
  const confirm = page.getByRole('alertdialog', { name: 'Delete this item?' });
  await expect(confirm.getByText("Are you sure you want to delete this item? You can't undo this action")).toBeVisible();
  await page.screenshot({ path: '/tmp/item-page-delete.png' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(new RegExp(`${listPath()}$`));
  await expect(page.getByText('1 item', { exact: true })).toBeVisible();
  expect(await itemByTitle(request, 'Copy of the first')).toBeUndefined();
});

test('two people edit the same item: the second save shows the conflict instead of overwriting', async ({ browser, request }) => {
  test.setTimeout(180_000);
  const first = await itemByTitle(request, 'First post');
  expect(first).toBeDefined();
  const ana = await browser.newContext();
  const ben = await browser.newContext();
  try {
    const pageA = await ana.newPage();
    const pageB = await ben.newPage();
    for (const page of [pageA, pageB]) {
      await signIn(page, account);
      await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
      await openItem(page, first!._id, 'First post');
    }
    await titleBox(pageA).fill('Title from A');
    await pageA.getByRole('button', { name: 'Update' }).click();
    await expect(pageA.getByText('Item was updated!')).toBeVisible();

    await bodyBox(pageB).fill('Body from B');
    await pageB.getByRole('button', { name: 'Update' }).click();
    const panel = pageB.getByRole('region', { name: 'This item was changed by someone else' });
    await expect(panel).toBeVisible();
    // Nothing was overwritten: A's title is on the server, B's body is not.
    let now = await itemByTitle(request, 'Title from A');
    expect(now?.body).toBe('Edited words');
    // Each side's change comes preselected: A's title, B's body.
    const title = panel.getByRole('group', { name: /^Title/ });
    await expect(title.getByText('Title from A')).toBeVisible();
    await expect(title.getByRole('radio', { name: 'Current version' })).toBeChecked();
    const body = panel.getByRole('group', { name: /^Body/ });
    await expect(body.getByRole('radio', { name: 'Your version' })).toBeChecked();
    await pageB.screenshot({ path: '/tmp/item-page-conflict.png', fullPage: true });
    await expectAccessible(pageB, 'item page conflict');
    await panel.getByRole('button', { name: 'Save the chosen versions' }).click();
    await expect(panel).toBeHidden();
    await expect(pageB.getByText('Item was updated!')).toBeVisible();
    now = await itemByTitle(request, 'Title from A');
    expect(now?.body).toBe('Body from B');
  } finally {
    await ana.close();
    await ben.close();
  }
});

test('a single-item collection shows its one item in place of the list', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await page.goto(`${projectPath()}/collection/homepage`);
  await expect(page.getByRole('heading', { name: 'New Homepage item', level: 2 })).toBeVisible();
  // No item yet: Create is enabled without changes.
  await expect(page.getByRole('button', { name: 'Create Item' })).toBeEnabled();
  await page.getByRole('button', { name: 'Item menu' }).click();
  await expect(page.getByRole('menuitem', { name: 'Download CSV' })).toBeVisible();
  await expect(page.getByRole('menuitem', { name: 'Collection Settings' })).toBeVisible();
  await page.keyboard.press('Escape');
  await page.getByRole('textbox', { name: /^Headline/ }).fill('Welcome');
  await page.getByRole('button', { name: 'Create Item' }).click();
  await expect(page.getByText('Item was created!')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Welcome', level: 2 })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Update' })).toBeDisabled();
  await expect(page).toHaveURL(new RegExp(`/collection/homepage$`));
});

test('nested items fold out beside their parent item, two levels deep: created, edited, deleted, reloaded', async ({ page, request }) => {
  test.setTimeout(240_000);
  const books = await request.post(content(made, 'collection'), {
    headers: bearer(made.token),
    data: {
      id: 'books',
      name: 'Books',
      schema: [
        { name: 'Title', slug: 'title', type: 1, required: true, primaryField: true },
        {
          name: 'Chapters',
          slug: 'chapters',
          type: 12,
          nestedCollectionSchema: [
            { name: 'Heading', slug: 'heading', type: 1, primaryField: true },
            { name: 'Paragraphs', slug: 'paragraphs', type: 12, nestedCollectionSchema: [{ name: 'Text', slug: 'text', type: 1 }] },
          ],
        },
      ],
    },
  });
  expect(books.status(), await books.text()).toBe(201);
  const book = await request.post(content(made, 'collection', 'books', 'item'), { headers: bearer(made.token), data: { title: 'Dune' } });
  expect(book.status()).toBe(201);
  const bookID = ((await book.json()) as { _id: string })._id;
  const nested = async (nestedID: string) => {
    const response = await request.get(`${content(made, 'collection', 'books', 'item', bookID)}?nestedID=${nestedID}`, { headers: bearer(made.token) });
    expect(response.status()).toBe(200);
    return (await response.json()) as { _id: string; heading?: string; text?: string }[];
  };
  const bookPath = `${projectPath()}/collection/books/item/${bookID}`;
  const deepest = page.locator('[data-fold-pane="deepest"]');
  const crumbs = page.getByRole('navigation', { name: 'Breadcrumbs' }).getByRole('listitem');

  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await page.goto(bookPath);
  await expect(page.getByRole('heading', { name: 'Dune', level: 2 })).toBeVisible();
  // The preview on the parent item: nothing yet.
  await expect(page.getByText('Chapters has no items yet.')).toBeVisible();
  await page.getByRole('button', { name: 'Open Chapters' }).click();

  // Folded beside the item: the item stays, the nested list shows, breadcrumbs lead back.
  await expect(page).toHaveURL(new RegExp(`/item/${bookID}/nestedID/chapters$`));
  await expect(deepest.getByRole('heading', { name: 'Chapters', level: 2 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Dune', level: 2 })).toBeVisible();
  await expect(crumbs).toHaveText(['Books', 'Dune', 'Chapters']);
  const dune = await page.getByRole('heading', { name: 'Dune', level: 2 }).boundingBox();
  const chaptersBox = await deepest.getByRole('heading', { name: 'Chapters', level: 2 }).boundingBox();
  expect(chaptersBox!.x).toBeGreaterThan(dune!.x + 200);
  await expectAccessible(page, 'nested list folded beside its item');

  await deepest.getByRole('link', { name: 'New Item' }).click();
  await expect(deepest.getByRole('heading', { name: 'New Chapters item', level: 2 })).toBeVisible();
  await deepest.getByRole('textbox', { name: /^Heading/ }).fill('Arrakis, the desert planet');
  await deepest.getByRole('button', { name: 'Create Item' }).click();
  await expect(page.getByText('Item was created!')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/nestedID/chapters$`));
  await expect(deepest.getByText('1 item', { exact: true })).toBeVisible();
  expect((await nested('chapters')).map((chapter) => chapter.heading)).toEqual(['Arrakis, the desert planet']);
  // The parent's preview table shows it.
  const preview = page.getByRole('region', { name: 'Dune' }).getByRole('table');
  await expect(preview.getByRole('cell', { name: 'Arrakis, the desert planet' })).toBeVisible();

  // Second level: open the chapter, then its Paragraphs, folded beside the chapter.
  await deepest.locator('.ag-cell[col-id="heading"]', { hasText: 'Arrakis' }).first().click();
  const chapter = page.getByRole('region', { name: 'Arrakis, the desert planet' });
  await expect(chapter.getByRole('heading', { name: 'Arrakis, the desert planet', level: 2 })).toBeVisible();
  const chapterID = (await nested('chapters'))[0]!._id;
  await expect(page).toHaveURL(new RegExp(`/nestedID/chapters/item/${chapterID}$`));
  await expect(crumbs).toHaveText(['Books', 'Dune', 'Chapters', 'Arrakis, t...']);
  await chapter.getByRole('button', { name: 'Open Paragraphs' }).click();
  await expect(page).toHaveURL(new RegExp(`/nestedID/chapters\\.${chapterID}\\.paragraphs$`));
  await expect(deepest.getByRole('heading', { name: 'Paragraphs', level: 2 })).toBeVisible();
  await expect(chapter).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Dune', level: 2 })).toBeHidden();
  await expect(crumbs).toHaveText(['Books', 'Dune', 'Chapters', 'Arrakis, t...', 'Paragraphs']);
  await deepest.getByRole('link', { name: 'New Item' }).click();
  await deepest.getByRole('textbox', { name: /^Text/ }).fill('A desert planet');
  await deepest.getByRole('button', { name: 'Create Item' }).click();
  await expect(page.getByText('Item was created!').first()).toBeVisible();
  await expect(deepest.getByText('1 item', { exact: true })).toBeVisible();
  expect((await nested(`chapters.${chapterID}.paragraphs`)).map((paragraph) => paragraph.text)).toEqual(['A desert planet']);
  await page.screenshot({ path: '/tmp/item-page-nested.png' });

  // Reload on the nested address: the same levels, read from it.
  await page.reload();
  await expect(deepest.getByRole('heading', { name: 'Paragraphs', level: 2 })).toBeVisible();
  await expect(deepest.getByText('1 item', { exact: true })).toBeVisible();
  await expect(chapter.getByRole('heading', { name: 'Arrakis, the desert planet', level: 2 })).toBeVisible();
  await expect(crumbs).toHaveText(['Books', 'Dune', 'Chapters', 'Arrakis, t...', 'Paragraphs']);
  await expect(chapter.getByRole('table').getByRole('cell', { name: 'A desert planet' })).toBeVisible();

  // Close pops the deepest level; the chapter is edited beside the book, then the back button returns.
  await deepest.getByRole('button', { name: 'Close Paragraphs' }).click();
  await expect(page).toHaveURL(new RegExp(`/nestedID/chapters/item/${chapterID}$`));
  await expect(page.getByRole('heading', { name: 'Dune', level: 2 })).toBeVisible();
  await chapter.getByRole('textbox', { name: /^Heading/ }).fill('Arrakis');
  await chapter.getByRole('button', { name: 'Update' }).click();
  await expect(page.getByText('Item was updated!')).toBeVisible();
  await expect(page).toHaveURL(new RegExp(`/nestedID/chapters$`));
  await expect.poll(async () => (await nested('chapters')).map((entry) => entry.heading)).toEqual(['Arrakis']);
  await expect(page.getByRole('region', { name: 'Dune' }).getByRole('table').getByRole('cell', { name: 'Arrakis' })).toBeVisible();

  // Delete the chapter (and what is nested in it) from its panel.
  await deepest.locator('.ag-cell[col-id="heading"]', { hasText: 'Arrakis' }).first().click();
  const edited = page.getByRole('region', { name: 'Arrakis' });
  await edited.getByRole('button', { name: 'Item menu' }).click();
  await expect(page.getByRole('menuitem', { name: 'Duplicate Item' })).toHaveCount(0);
  await page.getByRole('menuitem', { name: 'Delete Item' }).click();
  await page.getByRole('alertdialog', { name: 'Delete this item?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(new RegExp(`/nestedID/chapters$`));
  await expect(deepest.getByText('This Collection is Empty')).toBeVisible();
  expect(await nested('chapters')).toEqual([]);
  await expect(page.getByText('Chapters has no items yet.')).toBeVisible();

  // A breadcrumb returns to the book alone.
  await page.getByRole('navigation', { name: 'Breadcrumbs' }).getByRole('link', { name: 'Dune' }).click();
  await expect(page).toHaveURL(new RegExp(`/item/${bookID}$`));
  await expect(page.getByRole('navigation', { name: 'Breadcrumbs' })).toHaveCount(0);
});

test('the fold passes axe and stacks at 900 px (dark)', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const list = await request.get(content(made, 'collection', 'books', 'item'), { headers: bearer(made.token) });
  const bookID = ((await list.json()) as { _id: string }[])[0]!._id;
  const context = await browser.newContext({ colorScheme: 'dark', reducedMotion: 'reduce', viewport: { width: 900, height: 900 } });
  const page = await context.newPage();
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await page.goto(`${projectPath()}/collection/books/item/${bookID}/nestedID/chapters`);
  const deepest = page.locator('[data-fold-pane="deepest"]');
  await expect(deepest.getByRole('heading', { name: 'Chapters', level: 2 })).toBeVisible();
  const dune = await page.getByRole('heading', { name: 'Dune', level: 2 }).boundingBox();
  const chapters = await deepest.getByRole('heading', { name: 'Chapters', level: 2 }).boundingBox();
  // Stacked: the fold takes the width below the item.
  expect(chapters!.y).toBeGreaterThan(dune!.y);
  expect(Math.abs(chapters!.x - dune!.x)).toBeLessThan(40);
  await expectAccessible(page, 'nested fold dark 900');
  // By keyboard: the list's Close is reachable and closes the fold.
  await deepest.getByRole('button', { name: 'Close Chapters' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/item/${bookID}$`));
  await page.screenshot({ path: '/tmp/item-page-nested-900-dark.png', fullPage: true });
  await context.close();
});

// One look per theme and per width (docs/architecture.md "Looks in the browser suite").
for (const [colorScheme, width] of [
  ['light', 1280],
  ['dark', 900],
] as const) {
  test(`the item page passes axe (${colorScheme}, ${width} px)`, async ({ browser, request }) => {
    test.setTimeout(120_000);
    const item = await itemByTitle(request, 'Title from A');
    const context = await browser.newContext({ colorScheme, reducedMotion: 'reduce', viewport: { width, height: 900 } });
    const page = await context.newPage();
    await signIn(page, account);
    await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
    await page.goto(`${listPath()}/item`);
    await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
    await expect(page.getByRole('heading', { name: 'New Articles item', level: 2 })).toBeVisible();
    await expectAccessible(page, `new item ${colorScheme} ${width}`);
    await openItem(page, item!._id, 'Title from A');
    await expectAccessible(page, `item ${colorScheme} ${width}`);
    await page.screenshot({ path: `/tmp/item-page-${colorScheme}-${width}.png` });
    await page.getByRole('button', { name: 'Item menu' }).click();
    await expect(page.getByRole('menuitem', { name: 'Delete Item' })).toBeVisible();
    await expectAccessible(page, `item menu ${colorScheme} ${width}`);
    await page.keyboard.press('Escape');
    await bodyBox(page).fill('Changed');
    await page.getByRole('button', { name: 'Close' }).click();
    await expect(page.getByRole('alertdialog', { name: 'Unsaved changes' })).toBeVisible();
    await expectAccessible(page, `leave dialog ${colorScheme} ${width}`);
    await context.close();
  });
}
