/**
 * Importing items in the console (docs/content-storage.md "Importing items"): a CSV with a bad
 * row is refused with the row's line and nothing is written; again with Skip bad rows (chosen and
 * sent by keyboard) two items are imported and the bad row is listed; then a JSON file, whose
 * first upload is cancelled while held on its way. The list shows the new items and count. Each
 * state of the dialog passes axe in light at 1280 px and dark at 900 px, with screenshots in
 * .tmp/shots/item-import.
 */
import { mkdirSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { createVerifiedAccount } from './support/accounts.ts';
import { expectAccessible } from './support/axe.ts';
import { signIn } from './support/console.ts';
import { bearer, organizationWithProject, type Made } from './support/platform.ts';

const shots = '.tmp/shots/item-import';
mkdirSync(shots, { recursive: true });

let made: Made;
let account: Awaited<ReturnType<typeof createVerifiedAccount>>;
const content = (...rest: string[]) => [`/api/organization/${made.organizationID}/project/${made.projectID}`, ...rest].join('/');

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  account = await createVerifiedAccount(request, 'importer');
  made = await organizationWithProject(request, account, { organization: 'Greengrocer', project: 'Stock' });
  const created = await request.post(content('collection'), {
    headers: bearer(made.token),
    data: {
      id: 'fruit',
      name: 'Fruit',
      schema: [
        { name: 'Title', slug: 'title', type: 1, primaryField: true },
        { name: 'Price', slug: 'price', type: 3 },
        { name: 'In season', slug: 'inSeason', type: 8 },
      ],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
});

/**
 * The dialog's state in the suite's two looks (docs/architecture.md "Looks in the browser suite"):
 * light at 1280 px and dark at 900 px, each checked by axe and kept as a screenshot.
 */
async function look(page: Page, state: string) {
  for (const [theme, width] of [
    ['light', 1280],
    ['dark', 900],
  ] as const) {
    await page.setViewportSize({ width, height: 860 });
    await page.emulateMedia({ colorScheme: theme });
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
    await expectAccessible(page, `import dialog, ${state}, ${theme} ${width}`);
    await page.screenshot({ path: `${shots}/${state}-${width}-${theme}.png` });
  }
  await page.setViewportSize({ width: 1280, height: 860 });
  await page.emulateMedia({ colorScheme: 'light' });
}

async function openImport(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Collection menu' }).click();
  await page.getByRole('menuitem', { name: 'Import Items' }).click();
  const dialog = page.getByRole('dialog', { name: 'Import items into Fruit' });
  await expect(dialog).toBeVisible();
  // Opening focuses the first field.
  await expect(dialog.getByLabel('File')).toBeFocused();
  return dialog;
}

const file = (name: string, mimeType: string, text: string) => ({ name, mimeType, buffer: Buffer.from(text) });
const total = async (page: Page) => Number((await page.request.get(content('collection', 'fruit', 'item'), { headers: bearer(made.token) })).headers()['item-count']);

test('an editor imports a CSV with a bad row (refused, then skipping it) and a JSON file', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 1280, height: 860 });
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await page.goto(`/organization/${made.organizationID}/project/${made.projectID}/collection/fruit`);
  await expect(page.getByText('0 items', { exact: true })).toBeVisible();

  // A CSV whose line 3 has no number for Price: refused, the row named, nothing written.
  let dialog = await openImport(page);
  await dialog.getByLabel('File').setInputFiles(file('fruit.csv', 'text/csv', 'title,price,inSeason\nApple,1.5,true\nBanana,cheap,false\nCherry,3,true\n'));
  await expect(dialog.getByRole('combobox', { name: 'Format' })).toHaveValue('csv');
  await look(page, 'chosen');
  await dialog.getByRole('button', { name: 'Import' }).click();
  await expect(dialog.getByRole('status')).toContainText('Nothing was imported');
  const report = dialog.getByRole('table', { name: 'Rows not imported' });
  await expect(report.getByRole('row')).toHaveCount(2);
  await expect(report.getByRole('row').nth(1).getByRole('cell')).toHaveText(['line 3', 'price', 'must be a number']);
  expect(await total(page)).toBe(0);
  await look(page, 'refused');

  // Again with Skip bad rows, by keyboard: Space ticks it, Tab walks to Import, Enter sends.
  const skip = dialog.getByRole('checkbox', { name: 'Skip bad rows' });
  await skip.focus();
  await page.keyboard.press('Space');
  await expect(skip).toBeChecked();
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('checkbox', { name: 'Ignore unknown columns' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('region', { name: 'Rows not imported' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Done' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(dialog.getByRole('button', { name: 'Import' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(dialog.getByRole('status')).toHaveText('2 items imported; 1 row skipped.');
  await expect(report.getByRole('row').nth(1).getByRole('cell')).toHaveText(['line 3', 'price', 'must be a number']);
  // The file is forgotten: Import waits for another, and focus moves to Done.
  await expect(dialog.getByRole('button', { name: 'Import' })).toBeDisabled();
  await expect(dialog.getByRole('button', { name: 'Done' })).toBeFocused();
  expect(await total(page)).toBe(2);
  await look(page, 'skipped');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByText('2 items', { exact: true })).toBeVisible();
  await expect(page.locator('.ag-cell[col-id="title"]', { hasText: 'Cherry' })).toBeVisible();
  await expect(page.locator('.ag-cell[col-id="title"]', { hasText: 'Apple' })).toBeVisible();

  // A JSON array: its format comes from the name.
  dialog = await openImport(page);
  await dialog.getByLabel('File').setInputFiles(
    file('more-fruit.json', 'application/json', JSON.stringify([{ title: 'Durian', price: 4, inSeason: false }, { title: 'Elderberry', price: 5 }])),
  );
  await expect(dialog.getByRole('combobox', { name: 'Format' })).toHaveValue('json');
  // Held on its way to the server: the progress shows, Escape does not close, Cancel stops it.
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/collection/fruit/import?*', async (route) => {
    await held;
    await route.continue().catch(() => undefined);
  });
  await dialog.getByRole('button', { name: 'Import' }).click();
  await expect(dialog.getByRole('progressbar', { name: 'Import progress' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog.getByRole('button', { name: 'Importing…' })).toBeVisible();
  await look(page, 'uploading');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog.getByRole('status')).toHaveText('Import cancelled: nothing was written.');
  release();
  await page.unrouteAll({ behavior: 'ignoreErrors' });
  expect(await total(page)).toBe(2);
  await dialog.getByRole('button', { name: 'Import' }).click();
  await expect(dialog.getByRole('status')).toHaveText('2 items imported.');
  await expect(dialog.getByRole('table')).toHaveCount(0);
  await look(page, 'imported');
  await dialog.getByRole('button', { name: 'Done' }).click();
  await expect(page.getByText('4 items', { exact: true })).toBeVisible();
  await expect(page.locator('.ag-cell[col-id="title"]', { hasText: 'Elderberry' })).toBeVisible();
  await page.screenshot({ path: `${shots}/list-1280-light.png` });
});
