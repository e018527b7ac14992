/**
 * Reordering items in rank order:
 * by keyboard from the drag handle (Space picks up, arrows move, Space drops, Escape cancels,
 * each step announced), persisting after a reload, with keys pressed back to back while the grid
 * redraws; "Move to position…" from page 2 to position 1; by pointer in a nested list, after "Make
 * collection sortable" ranked that list; axe on the list with a row picked up and on the position
 * dialog, light and dark, at 1280 and 900 px. Screenshots of both go to /tmp.
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createVerifiedAccount } from './support/accounts.ts';
import { expectAccessible } from './support/axe.ts';
import { signIn } from './support/console.ts';
import { bearer, organizationWithProject, type Made } from './support/platform.ts';

const content = (made: Made, ...rest: string[]) => [`/api/organization/${made.organizationID}/project/${made.projectID}`, ...rest].join('/');

// With pinned columns a row is drawn in several containers, each holding its own cells. A list
// under an open item (a nested list's parent collection) stays mounted, hidden: only shown rows count.
const cell = (page: Page, row: number, column: string) => page.locator(`.ag-row[row-index="${row}"] .ag-cell[col-id="${column}"]`).filter({ visible: true }).first();
const handle = (page: Page, row: number) => page.locator(`.ag-row[row-index="${row}"] [data-row-handle]`).filter({ visible: true }).first();
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
  // Two pages of 20.
  await post(request, content(made, 'collection'), { id: 'chores', name: 'Chores', schema: [{ name: 'Title', slug: 'title', type: 1 }] });
  for (let n = 1; n <= 24; n += 1) await post(request, content(made, 'collection', 'chores', 'item'), { title: `Chore ${n}` });
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
  const first = page.getByRole('button', { name: 'Move Task 1', exact: true });
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
  await expect(page.getByRole('button', { name: 'Move Task 1', exact: true })).toBeFocused();

  // Space, down three times, up once, Space, pressed as fast as the keyboard goes (no waiting for
  // the grid, which redraws the carried row at every step): Task 1 goes after Task 3, and the
  // handle keeps the focus.
  const moving = page.waitForRequest((request) => request.method() === 'PUT' && request.url().includes('/sort'));
  for (const key of ['Space', 'ArrowDown', 'ArrowDown', 'ArrowDown', 'ArrowUp', 'Space']) await page.keyboard.press(key);
  const sent = new URL((await moving).url());
  expect(sent.searchParams.get('afterID')).toBeTruthy();
  await expect(page.getByText('Task 1 dropped at position 3 of 6.')).toBeAttached();
  await expect.poll(() => titles(page, 'title', 4)).toEqual(['Task 2', 'Task 3', 'Task 1', 'Task 4']);
  await expect(page.getByRole('button', { name: 'Move Task 1', exact: true })).toBeFocused();
  await expect(page.getByRole('button', { name: 'Move Task 1', exact: true })).toHaveAttribute('aria-pressed', 'false');

  // Enter works as Space does; End carries it to the end of the page; Enter on a handle never opens the item.
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Move Task 1', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('End');
  await expect(page.getByText('Task 1 is at position 6 of 6.')).toBeAttached();
  await page.keyboard.press('Enter');
  await expect.poll(() => titles(page, 'title', 6)).toEqual(['Task 2', 'Task 3', 'Task 4', 'Task 5', 'Task 6', 'Task 1']);
  await expect(page).toHaveURL(/\/collection\/tasks$/);

  await page.reload();
  await expect(cell(page, 0, 'title')).toHaveText('Task 2');
  expect(await titles(page, 'title', 6)).toEqual(['Task 2', 'Task 3', 'Task 4', 'Task 5', 'Task 6', 'Task 1']);

  // Quick presses again, up this time, checked after a reload: Task 5 goes up three places.
  await expect(page.getByRole('button', { name: 'Move Task 5', exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Move Task 5', exact: true }).focus();
  const movingUp = page.waitForRequest((request) => request.method() === 'PUT' && request.url().includes('/sort'));
  for (const key of ['Enter', 'ArrowUp', 'ArrowUp', 'ArrowUp', 'Enter']) await page.keyboard.press(key);
  expect(new URL((await movingUp).url()).searchParams.get('beforeID')).toBeTruthy();
  await expect(page.getByText('Task 5 dropped at position 1 of 6.')).toBeAttached();
  await expect(page.getByRole('button', { name: 'Move Task 5', exact: true })).toBeFocused();
  await page.reload();
  await expect(cell(page, 0, 'title')).toHaveText('Task 5');
  expect(await titles(page, 'title', 6)).toEqual(['Task 5', 'Task 2', 'Task 3', 'Task 4', 'Task 6', 'Task 1']);
});

test('"Move to position…" moves an item of page 2 to position 1', async ({ page }) => {
  test.setTimeout(150_000);
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await page.goto(`${project()}/collection/chores`);
  await expect(cell(page, 0, 'title')).toHaveText('Chore 1');
  await page.getByRole('combobox', { name: 'Per Page' }).selectOption('20');
  await page.getByRole('button', { name: 'Page 2' }).click();
  await expect(cell(page, 0, 'title')).toHaveText('Chore 21');

  // By keyboard: Tab from the handle reaches the button beside it, Enter opens the dialog.
  await handle(page, 2).focus();
  await expect(page.getByRole('button', { name: 'Move Chore 23', exact: true })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Move Chore 23 to position…' })).toBeFocused();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Move Chore 23 to position' });
  await expect(dialog).toBeVisible();
  await expect(page).toHaveURL(/\/collection\/chores$/);
  const field = dialog.getByRole('textbox', { name: 'New position (1 to 24)' });
  await expect(field).toBeFocused();
  await expect(dialog.getByText('Chore 23 is at position 23 of 24.')).toBeVisible();
  await expectAccessible(page, 'move to position dialog');

  // Out of range, then not digits: said, nothing sent.
  let sorts = 0;
  page.on('request', (request) => {
    if (request.method() === 'PUT' && request.url().includes('/sort')) sorts += 1;
  });
  await field.fill('25');
  await page.keyboard.press('Enter');
  await expect(dialog.getByText('Enter a position from 1 to 24.')).toBeVisible();
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await field.fill('1st');
  await expect(dialog.getByText('Use digits only: a position from 1 to 24.')).toBeVisible();
  await expectAccessible(page, 'move to position dialog with an error');
  expect(sorts).toBe(0);

  const moving = page.waitForRequest((request) => request.method() === 'PUT' && request.url().includes('/sort'));
  await field.fill('1');
  await dialog.getByRole('button', { name: 'Move', exact: true }).click();
  expect(new URL((await moving).url()).searchParams.get('order')).toBe('1');
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Chore 23 moved to position 1 of 24.')).toBeAttached();
  // Page 2 now starts with Chore 20; the focus is on the handle of the row that took Chore 23's place.
  await expect(cell(page, 0, 'title')).toHaveText('Chore 20');
  await expect(page.getByRole('button', { name: 'Move Chore 22', exact: true })).toBeFocused();

  await page.reload();
  await expect(cell(page, 0, 'title')).toHaveText('Chore 23');
  expect(await titles(page, 'title', 3)).toEqual(['Chore 23', 'Chore 1', 'Chore 2']);
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
  // Its chapters were made through the API with their places, so it says the list already is sortable.
  await expect(page.getByText('This collection is already sortable')).toBeVisible();

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
  await expect(page.getByRole('button', { name: 'Move Four', exact: true })).toBeFocused();
  // Each key waits for what it shows, as a person would: the pick-up, the move, then the drop.
  await page.keyboard.press('Space');
  await expect(page.getByRole('button', { name: 'Move Four', exact: true })).toHaveAttribute('aria-pressed', 'true');
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

// One look per theme and per width (docs/architecture.md "Looks in the browser suite").
for (const [colorScheme, width] of [
  ['light', 1280],
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

    // "Move to position…" beside the handle, its dialog showing an error.
    await page.locator('.ag-row[row-index="1"] [data-row-position]').filter({ visible: true }).first().click();
    const dialog = page.getByRole('dialog', { name: /^Move Task \d to position$/ });
    await expect(dialog).toBeVisible();
    await dialog.getByRole('textbox').fill('x');
    await dialog.getByRole('button', { name: 'Move', exact: true }).click();
    await expect(dialog.getByText('Use digits only: a position from 1 to 6.')).toBeVisible();
    await expectAccessible(page, `move to position dialog ${colorScheme} ${width}`);
    await page.screenshot({ path: `/tmp/item-reorder-position-${colorScheme}-${width}.png` });
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await context.close();
  });
}
