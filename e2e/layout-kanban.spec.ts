/**
 * The kanban layout of the item list (a click prefills the new item; docs/layouts.md):
 * chosen from the list's menu, its Option field set in the layout settings (saved on the server:
 * after a reload the board comes back); a card moved between columns by pointer drag and by the
 * keyboard saves the option, which the table then shows; "+ New Item" in a column opens a new item
 * with that option set, saved as such; the same on a nested collection. axe in light and dark at
 * 1280 and 900 px.
 */
import { expect, test, type Page } from '@playwright/test';
import { createVerifiedAccount } from './support/accounts.ts';
import { expectAccessible } from './support/axe.ts';
import { signIn } from './support/console.ts';
import { bearer, organizationWithProject, type Made } from './support/platform.ts';

let made: Made;
let account: Awaited<ReturnType<typeof createVerifiedAccount>>;
const ids: Record<string, string> = {};
let projectID = '';
const content = (...rest: string[]) => [`/api/organization/${made.organizationID}/project/${made.projectID}`, ...rest].join('/');
const listPath = () => `/organization/${made.organizationID}/project/${projectID}/collection/tasks`;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  account = await createVerifiedAccount(request, 'layoutkanban');
  made = await organizationWithProject(request, account, { organization: 'Boards', project: 'Work' });
  projectID = made.projectID;
  const tasks = await request.post(content('collection'), {
    headers: bearer(made.token),
    data: {
      id: 'tasks',
      name: 'Tasks',
      schema: [
        { name: 'Title', slug: 'title', type: 1, primaryField: true },
        { name: 'Status', slug: 'status', type: 7, options: [{ value: 'Todo' }, { value: 'Doing' }, { value: 'Done' }] },
        {
          name: 'Steps',
          slug: 'steps',
          type: 12,
          nestedCollectionSchema: [
            { name: 'Step', slug: 'step', type: 1, primaryField: true },
            { name: 'Stage', slug: 'stage', type: 7, options: [{ value: 'Open' }, { value: 'Closed' }] },
          ],
        },
      ],
    },
  });
  expect(tasks.status(), await tasks.text()).toBe(201);
  const schema = ((await tasks.json()) as { schema: { slug: string; options?: { _id: string; value: string }[]; nestedCollectionSchema?: { slug: string; options?: { _id: string; value: string }[] }[] }[] }).schema;
  for (const option of schema.find((field) => field.slug === 'status')!.options!) ids[option.value] = option._id;
  for (const option of schema.find((field) => field.slug === 'steps')!.nestedCollectionSchema!.find((field) => field.slug === 'stage')!.options!) ids[option.value] = option._id;
  for (const [title, status] of [
    ['Write report', 'Todo'],
    ['Fix bug', 'Todo'],
    ['Plan trip', undefined],
  ] as const) {
    const answer = await request.post(content('collection', 'tasks', 'item'), { headers: bearer(made.token), data: status ? { title, status: { _id: ids[status] } } : { title } });
    expect(answer.status(), await answer.text()).toBe(201);
    ids[title] = ((await answer.json()) as { _id: string })._id;
  }
  for (const [step, stage] of [
    ['Draft', 'Open'],
    ['Review', undefined],
  ] as const) {
    const answer = await request.post(`${content('collection', 'tasks', 'item', ids['Write report']!)}?nestedID=steps`, {
      headers: bearer(made.token),
      data: stage ? { step, stage: { _id: ids[stage] } } : { step },
    });
    expect(answer.status(), await answer.text()).toBe(201);
    ids[step] = ((await answer.json()) as { _id: string })._id;
  }
});

async function signInTo(page: Page, path: string) {
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await page.goto(path);
}

const board = (page: Page, name = 'Tasks', field = 'Status') => page.getByRole('region', { name: `Kanban of ${name} by ${field}` });
const column = (page: Page, name: string) => page.locator(`.kanban-column[data-column="${name}"]`);
const card = (page: Page, columnName: string, title: string) => column(page, columnName).getByRole('button', { name: title, exact: true });
const itemWrite = (page: Page, itemID: string) =>
  page.waitForResponse((response) => response.request().method() === 'PUT' && new URL(response.url()).pathname.endsWith(`/collection/tasks/item/${itemID}`));

test('the menu picks the kanban; its field is set once; cards move by pointer and by keyboard; the table shows the change', async ({ page, request }) => {
  test.setTimeout(120_000);
  await signInTo(page, listPath());
  await expect(page.getByRole('heading', { name: 'Tasks', level: 2 })).toBeVisible();
  await page.getByRole('button', { name: 'Collection menu' }).click();
  await page.getByRole('menuitemradio', { name: 'Kanban' }).click();
  await expect(page).toHaveURL(/\?layout=kanban$/);
  await expect(page.getByRole('heading', { name: 'Choose an Option field' })).toBeVisible();
  await page.getByRole('button', { name: 'Layout Settings' }).click();
  const dialog = page.getByRole('dialog', { name: 'Layout Settings' });
  const fieldSelect = dialog.getByLabel('Option field (one column per option)');
  await expect(fieldSelect.locator('option')).toHaveText(['None', 'Status']);
  await fieldSelect.selectOption('status');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(board(page)).toBeVisible();
  await expect(board(page).getByRole('heading', { level: 3 })).toHaveText(['Unset', 'Todo', 'Doing', 'Done']);
  await expect(card(page, 'unset', 'Plan trip')).toBeVisible();
  await expect(card(page, 'Todo', 'Write report')).toBeVisible();
  await expect(card(page, 'Todo', 'Fix bug')).toBeVisible();
  await expect(column(page, 'Todo').getByText('2 items')).toBeVisible();
  await expectAccessible(page, 'kanban layout');

  // By pointer: drag the card onto the Doing column.
  const from = (await card(page, 'Todo', 'Write report').boundingBox())!;
  const to = (await column(page, 'Doing').boundingBox())!;
  const pointerSave = itemWrite(page, ids['Write report']!);
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2 + 20, from.y + from.height / 2, { steps: 4 });
  await page.mouse.move(to.x + to.width / 2, to.y + 120, { steps: 12 });
  await page.mouse.up();
  const pointerAnswer = await pointerSave;
  expect(pointerAnswer.status()).toBe(200);
  expect(pointerAnswer.request().headers()['if-match']).toMatch(/^"\d{4}-/);
  expect(((await pointerAnswer.json()) as { status: unknown }).status).toEqual({ _id: ids['Doing'], value: 'Doing' });
  await expect(card(page, 'Doing', 'Write report')).toBeVisible();
  await expect(card(page, 'Todo', 'Write report')).toHaveCount(0);

  // By keyboard: the handle picks the card up, Right twice goes to Done, Space drops it.
  const keyboardSave = itemWrite(page, ids['Fix bug']!);
  const fixHandle = column(page, 'Todo').getByRole('button', { name: 'Move Fix bug' });
  await fixHandle.focus();
  await expect(fixHandle).toBeFocused();
  // Each step waits for its announcement (the sensor listens for the next key once the drag has
  // started; the pick-up is followed at once by "over its own column").
  await page.keyboard.press('Space');
  await expect(page.getByText(/^(Picked up Fix bug in column Todo|Fix bug is over column Todo)\.$/)).toBeAttached();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByText('Fix bug is over column Doing.')).toBeAttached();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByText('Fix bug is over column Done.')).toBeAttached();
  await page.keyboard.press('Space');
  const keyboardAnswer = await keyboardSave;
  expect(keyboardAnswer.status()).toBe(200);
  expect(((await keyboardAnswer.json()) as { status: unknown }).status).toEqual({ _id: ids['Done'], value: 'Done' });
  await expect(card(page, 'Done', 'Fix bug')).toBeVisible();
  await expect(page.getByText('Fix bug was moved to column Done.')).toBeAttached();

  // The table shows the new options.
  await page.getByRole('button', { name: 'Collection menu' }).click();
  await page.getByRole('menuitemradio', { name: 'Table' }).click();
  await expect(page).toHaveURL(/\?layout=table$/);
  await expect(page.getByRole('row').filter({ hasText: 'Write report' })).toContainText('Doing');
  await expect(page.getByRole('row').filter({ hasText: 'Fix bug' })).toContainText('Done');

  // The settings are the server's: a fresh page shows the board with its field.
  const saved = await request.get(content('collection', 'tasks', 'layout'), { headers: bearer(made.token) });
  expect(await saved.json()).toMatchObject({ layout: 'table', activeField: 'status' });
  await page.goto(`${listPath()}?layout=kanban`);
  await expect(card(page, 'Doing', 'Write report')).toBeVisible();
  await expect(card(page, 'Done', 'Fix bug')).toBeVisible();
});

test('"+ New Item" in a column opens a new item with that option, saved with it', async ({ page }) => {
  test.setTimeout(120_000);
  await signInTo(page, `${listPath()}?layout=kanban`);
  await column(page, 'Doing').getByRole('button', { name: 'New item in Doing' }).click();
  await expect(page).toHaveURL(new RegExp(`${listPath()}/item$`));
  await expect(page.getByRole('heading', { name: 'New Tasks item', level: 2 })).toBeVisible();
  await page.getByRole('textbox', { name: 'Title' }).fill('Prefilled task');
  const created = page.waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname.endsWith('/collection/tasks/item'));
  await page.getByRole('button', { name: 'Create Item' }).click();
  const answer = await created;
  expect(answer.status()).toBe(201);
  expect(((await answer.json()) as { status: unknown }).status).toEqual({ _id: ids['Doing'], value: 'Doing' });
  // Close after saving: back to the board, the new card in its column.
  await expect(card(page, 'Doing', 'Prefilled task')).toBeVisible();
});

test('a nested collection has its own kanban: moving a step and adding one to a column', async ({ page, request }) => {
  test.setTimeout(120_000);
  const layout = await request.put(`${content('collection', 'tasks', 'layout')}?nestedID=steps`, { headers: bearer(made.token), data: { layout: 'kanban', activeField: 'stage' } });
  expect(layout.status(), await layout.text()).toBe(200);
  await signInTo(page, `${listPath()}/item/${ids['Write report']}/nestedID/steps`);
  const steps = board(page, 'Steps', 'Stage');
  await expect(steps).toBeVisible();
  await expect(steps.locator('[data-column="Open"]').getByRole('button', { name: 'Draft', exact: true })).toBeVisible();
  await expect(steps.locator('[data-column="unset"]').getByRole('button', { name: 'Review', exact: true })).toBeVisible();
  await expectAccessible(page, 'nested kanban layout');

  // The parent item's form has loaded (it takes the focus when it does).
  await expect(page.getByRole('textbox', { name: 'Title' })).toHaveValue('Write report');
  const save = itemWrite(page, ids['Write report']!);
  const handle = steps.getByRole('button', { name: 'Move Review' });
  await handle.focus();
  await expect(handle).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByText(/^(Picked up Review in column Unset|Review is over column Unset)\.$/)).toBeAttached();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByText('Review is over column Open.')).toBeAttached();
  await page.keyboard.press('Enter');
  const answer = await save;
  expect(answer.status()).toBe(200);
  expect(new URL(answer.url()).searchParams.get('nestedID')).toBe(`steps.${ids['Review']}`);
  expect(((await answer.json()) as { _id: string; stage: unknown })).toMatchObject({ _id: ids['Review'], stage: { _id: ids['Open'], value: 'Open' } });
  await expect(steps.locator('[data-column="Open"]').getByRole('button', { name: 'Review', exact: true })).toBeVisible();

  await steps.getByRole('button', { name: 'New item in Open' }).click();
  await expect(page).toHaveURL(new RegExp(`/nestedID/steps/item/new$`));
  await page.getByRole('textbox', { name: 'Step' }).fill('Proofread');
  const created = page.waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname.endsWith(`/collection/tasks/item/${ids['Write report']}`));
  await page.getByRole('button', { name: 'Create Item' }).click();
  const made_ = await created;
  expect(made_.status()).toBe(201);
  expect(((await made_.json()) as { stage: unknown }).stage).toEqual({ _id: ids['Open'], value: 'Open' });
});

// One look per theme and per width (docs/architecture.md "Looks in the browser suite").
for (const [colorScheme, width] of [
  ['light', 1280],
  ['dark', 900],
] as const) {
  test(`the kanban layout passes axe (${colorScheme}, ${width} px)`, async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ colorScheme, reducedMotion: 'reduce', viewport: { width, height: 900 } });
    try {
      const page = await context.newPage();
      await signInTo(page, `${listPath()}?layout=kanban`);
      await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
      await expect(card(page, 'Doing', 'Write report')).toBeVisible();
      await expectAccessible(page, `kanban layout ${colorScheme} ${width}`);
      await page.screenshot({ path: `/tmp/layout-kanban-${colorScheme}-${width}.png`, fullPage: true });
    } finally {
      await context.close();
    }
  });
}
