/**
 * Reordering items in rank order (content §2 "drag handle column when ranks exist", §4 Ranks):
 * by keyboard from the drag handle (Space picks up, arrows move, Space drops, Escape cancels,
 * each step announced), persisting after a reload; by pointer in a nested list, after "Make
 * collection sortable" ranked that list; axe on the list with a row picked up, light and dark,
 * at 1280 and 900 px. Screenshots of the picked-up state go to /tmp.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createVerifiedAccount } from './support/accounts.ts';
import { expectAccessible } from './support/axe.ts';
import { signIn } from './support/console.ts';
import { bearer, organizationWithProject, type Made } from './support/platform.ts';

const content = (made: Made, ...rest: string[]) => [`/api/organization/${made.organizationID}/project/${made.projectID}`, ...rest].join('/');

// With pinned columns a row is drawn in several containers, each holding its own cells.
const cell = (page: Page, row: number, column: string) => page.locator(`.ag-row[row-index="${row}"] .ag-cell[col-id="${column}"]`).first();
const handle = (page: Page, row: number) => page.locator(`.ag-row[row-index="${row}"] [data-row-handle]`).first();
const titles = async (page: Page, column: string, rows: number) => {
  const out: string[] = [];
  for (let i = 0; i < rows; i += 1) out.push(((await cell(page, i, column).textContent()) ?? '').trim());
  return out;
};

let made: Made;
let account: Awaited<ReturnType<typeof createVerifiedAccount>>;
let bookID = '';
const project = () => `/organization/${made.organizationID}/project/${made.projectID}`;

async function post(request: APIRequestContext, path: string, data: unknown) {
  const response = await request.post(path, { headers: bearer(made.token), data });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { _id: string };
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  account = await createVerifiedAccount(request, 'reorder');
  made = await organizationWithProject(request, account, { organization: 'Ranks', project: 'Board' });
  await post(request, content(made, 'collection'), { id: 'tasks', name: 'Tasks', schema: [{ name: 'Title', slug: 'title', type: 1 }] });
  // One after the other: each new item takes the last rank, so the list reads Task 1 … Task 6.
  for (let n = 1; n <= 6; n += 1) await post(request, content(made, 'collection', 'tasks', 'item'), { title: `Task ${n}` });
  await post(request, content(made, 'collection'), {
    id: 'books',
    name: 'Books',
    schema: [
      { name: 'Title', slug: 'title', type: 1 },
      { name: 'Chapters', slug: 'chapters', type: 12, nestedCollectionSchema: [{ name: 'Heading', slug: 'heading', type: 1 }] },
    ],
  });
  bookID = (await post(request, content(made, 'collection', 'books', 'item'), { title: 'Dune' }))._id;
  for (const heading of ['One', 'Two', 'Three', 'Four']) await post(request, `${content(made, 'collection', 'books', 'item', bookID)}?nestedID=chapters`, { heading });
});

test('an editor moves an item by keyboard, and the order stays after a reload', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await page.goto(`${project()}/collection/tasks`);
  await expect(cell(page, 0, 'title')).toHaveText('Task 1');

  // From a cell of the first row, left to its handle: the handle button takes the focus.
  await page.locator('.ag-header-cell[col-id="title"]').focus();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowLeft');
  const first = page.getByRole('button', { name: 'Move Task 1' });
  await expect(first).toBeFocused();
  await expect(first).toHaveAccessibleDescription(/press Space or Enter/);

  // Escape puts it back where it was.
  await page.keyboard.press('Space');
  await expect(page.getByText('Picked up Task 1, at position 1 of 6.')).toBeAttached();
  await page.keyboard.press('ArrowDown');
  await expect(cell(page, 1, 'title')).toHaveText('Task 1');
  await page.keyboard.press('Escape');
  await expect(page.getByText('Moving Task 1 was cancelled.')).toBeAttached();
  await expect(cell(page, 0, 'title')).toHaveText('Task 1');
  await expect(page.getByRole('button', { name: 'Move Task 1' })).toBeFocused();

  // Space, down twice, Space: Task 1 goes after Task 3, and the handle keeps the focus.
  await page.keyboard.press('Space');
  await expect(page.getByRole('button', { name: 'Move Task 1' })).toHaveAttribute('aria-pressed', 'true');
  // Each arrow waits for its announcement: under load a press that lands while the grid redraws
  // the moved row can be lost (a known gap, see the README's ranks section).
  await page.keyboard.press('ArrowDown');
  await expect(page.getByText('Task 1 is at position 2 of 6.')).toBeAttached();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByText('Task 1 is at position 3 of 6.')).toBeAttached();
  await expect(page.getByRole('button', { name: 'Move Task 1' })).toBeFocused();
  const moving = page.waitForRequest((request) => request.method() === 'PUT' && request.url().includes('/sort'));
  await page.keyboard.press('Space');
  const sent = new URL((await moving).url());
  expect(sent.searchParams.get('afterID')).toBeTruthy();
  await expect(page.getByText('Task 1 dropped at position 3 of 6.')).toBeAttached();
  await expect.poll(() => titles(page, 'title', 4)).toEqual(['Task 2', 'Task 3', 'Task 1', 'Task 4']);
  await expect(page.getByRole('button', { name: 'Move Task 1' })).toBeFocused();
  await expect(page.getByRole('button', { name: 'Move Task 1' })).toHaveAttribute('aria-pressed', 'false');

  // Enter works as Space does; End carries it to the end of the page; Enter on a handle never opens the item.
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Move Task 1' })).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('End');
  await expect(page.getByText('Task 1 is at position 6 of 6.')).toBeAttached();
  await page.keyboard.press('Enter');
  await expect.poll(() => titles(page, 'title', 6)).toEqual(['Task 2', 'Task 3', 'Task 4', 'Task 5', 'Task 6', 'Task 1']);
  await expect(page).toHaveURL(/\/collection\/tasks$/);

  await page.reload();
  await expect(cell(page, 0, 'title')).toHaveText('Task 2');
  expect(await titles(page, 'title', 6)).toEqual(['Task 2', 'Task 3', 'Task 4', 'Task 5', 'Task 6', 'Task 1']);
});

test('a nested list is made sortable and its items are dragged into a new order', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await page.goto(`${project()}/collection/books/item/${bookID}/nestedID/chapters`);
  await expect(page.getByRole('heading', { name: 'Chapters', level: 2 })).toBeVisible();
  await expect(cell(page, 0, 'heading')).toHaveText('One');

  // Make collection sortable ranks this nested list: parentItemID and nestedID name it. (The
  // console sends a Request whose body the browser does not report: the page keeps a copy.)
  await page.evaluate(() => {
    const send = window.fetch.bind(window);
    window.fetch = async (input, init) => {
      if (input instanceof Request && input.url.endsWith('/initRank')) (window as unknown as { initRankBodies: string[] }).initRankBodies = [await input.clone().text()];
      return send(input, init);
    };
  });
  const ranked = page.waitForResponse((response) => response.request().method() === 'PUT' && response.url().endsWith('/collection/books/initRank'));
  await page.getByRole('button', { name: 'Collection menu' }).click();
  await page.getByRole('menuitem', { name: 'Make collection sortable' }).click();
  expect((await ranked).status()).toBe(200);
  const bodies = await page.evaluate(() => (window as unknown as { initRankBodies?: string[] }).initRankBodies ?? []);
  expect(bodies.map((body) => JSON.parse(body) as unknown)).toEqual([{ parentItemID: bookID, nestedID: 'chapters' }]);
  await expect(page.getByText('The collection is now sortable')).toBeVisible();

  // A pointer drag of the first chapter's handle onto the third row puts it after the third.
  await expect(handle(page, 0)).toBeVisible();
  const from = await handle(page, 0).boundingBox();
  const to = await cell(page, 2, 'heading').boundingBox();
  if (!from || !to) throw new Error('the rows are not drawn');
  const moving = page.waitForRequest((request) => request.method() === 'PUT' && request.url().includes(`/item/${bookID}/sort`));
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 + 10, { steps: 5 });
  await page.mouse.move(to.x + 20, to.y + to.height / 2 + 4, { steps: 15 });
  await page.mouse.up();
  const sent = new URL((await moving).url());
  expect(sent.searchParams.get('nestedID')).toMatch(/^chapters\.[0-9a-f]+$/);
  await expect.poll(() => titles(page, 'heading', 4)).toEqual(['Two', 'Three', 'One', 'Four']);

  // And by keyboard: Four goes up to the top.
  await handle(page, 3).focus();
  await expect(page.getByRole('button', { name: 'Move Four' })).toBeFocused();
  // Each key waits for what it shows, as a person would: the pick-up, the move, then the drop.
  await page.keyboard.press('Space');
  await expect(page.getByRole('button', { name: 'Move Four' })).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('Home');
  await expect(page.getByText('Four is at position 1 of 4.')).toBeAttached();
  const movingUp = page.waitForRequest((request) => request.method() === 'PUT' && request.url().includes(`/item/${bookID}/sort`));
  await page.keyboard.press('Space');
  expect(new URL((await movingUp).url()).searchParams.get('beforeID')).toBeTruthy();
  await expect.poll(() => titles(page, 'heading', 4)).toEqual(['Four', 'Two', 'Three', 'One']);

  await page.reload();
  await expect(cell(page, 0, 'heading')).toHaveText('Four');
  expect(await titles(page, 'heading', 4)).toEqual(['Four', 'Two', 'Three', 'One']);
});

for (const [colorScheme, width] of [
  ['light', 1280],
  ['dark', 1280],
  ['light', 900],
  ['dark', 900],
] as const) {
  test(`the list with a row picked up by keyboard passes axe (${colorScheme}, ${width} px)`, async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ colorScheme, reducedMotion: 'reduce', viewport: { width, height: 800 } });
    const page = await context.newPage();
    await signIn(page, account);
    await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
    await page.goto(`${project()}/collection/tasks`);
    await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
    await expect(cell(page, 0, 'title')).toHaveText(/Task \d/);
    await expectAccessible(page, `item list with handles ${colorScheme} ${width}`);
    await handle(page, 1).focus();
    await page.keyboard.press('Space');
    await page.keyboard.press('ArrowDown');
    await expect(handle(page, 2)).toHaveAttribute('aria-pressed', 'true');
    await expect(handle(page, 2)).toBeFocused();
    // The carried row stands out across its pinned and scrolling parts.
    await expect(page.locator('.ag-row[row-index="2"].item-row-picked').first()).toBeVisible();
    await expectAccessible(page, `item list picked up ${colorScheme} ${width}`);
    await page.screenshot({ path: `/tmp/item-reorder-picked-${colorScheme}-${width}.png` });
    await page.keyboard.press('Escape');
    await expect(handle(page, 1)).toHaveAttribute('aria-pressed', 'false');
    await context.close();
  });
}
