/**
 * The collection's RTL switch (docs/console.md "Text direction"): switched on in the collection's
 * settings, the item's PlainText, RichText and Option editors run right to left (Hebrew aligns
 * right, the Option menu opens right to left), the Number editor stays left to right, and the
 * list's text cells follow. At 1280 and 900 px, light and dark; axe on each screen; screenshots in
 * .tmp/shots/G.
 */
import { expect, test } from '@playwright/test';
import { createVerifiedAccount } from './support/accounts.ts';
import { expectAccessible } from './support/axe.ts';
import { signIn } from './support/console.ts';
import { bearer, organizationWithProject, type Made } from './support/platform.ts';

const api = (made: Made, ...rest: string[]) => [`/api/organization/${made.organizationID}/project/${made.projectID}`, ...rest].join('/');
const projectPath = (made: Made) => `/organization/${made.organizationID}/project/${made.projectID}`;
const shot = (name: string) => `.tmp/shots/G/${name}.png`;

for (const [colorScheme, width] of [
  ['light', 1280],
  ['dark', 900],
  ['dark', 1280],
  ['light', 900],
] as const) {
  test(`the RTL switch turns the written-text editors right to left (${colorScheme}, ${width} px)`, async ({ browser, request }) => {
    test.setTimeout(120_000);
    const tag = `${colorScheme}${width}`;
    const admin = await createVerifiedAccount(request, `rtl${tag}`);
    const made = await organizationWithProject(request, admin, { organization: 'Words', project: 'Hebrew' });
    const collection = await request.post(api(made, 'collection'), {
      headers: bearer(made.token),
      data: {
        id: 'poems',
        name: 'Poems',
        schema: [
          { name: 'Title', slug: 'title', type: 1, primaryField: true },
          { name: 'Body', slug: 'body', type: 2 },
          { name: 'Mood', slug: 'mood', type: 7, options: [{ value: 'שמח' }, { value: 'עצוב' }] },
          { name: 'Lines', slug: 'lines', type: 3 },
        ],
      },
    });
    expect(collection.status(), await collection.text()).toBe(201);
    const item = await request.post(api(made, 'collection', 'poems', 'item'), {
      headers: bearer(made.token),
      data: { title: 'שלום, עולם!', body: '<p>שיר קצר על הים.</p>', lines: 4 },
    });
    expect(item.status(), await item.text()).toBe(201);
    const itemID = ((await item.json()) as { _id: string })._id;

    const context = await browser.newContext({ colorScheme, reducedMotion: 'reduce', viewport: { width, height: 900 } });
    const page = await context.newPage();
    await signIn(page, admin);
    await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));

    // Before: left to right.
    await page.goto(`${projectPath(made)}/collection/poems/item/${itemID}`);
    await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
    const title = page.getByRole('textbox', { name: 'Title', exact: true });
    await expect(title).toHaveValue('שלום, עולם!');
    expect(await title.evaluate((el) => getComputedStyle(el).direction)).toBe('ltr');

    // Switch RTL on in the collection's settings (from the keyboard).
    await page.goto(`${projectPath(made)}/collection/poems/edit`);
    const rtl = page.getByRole('switch', { name: 'Right to left (RTL)' });
    await expect(rtl).not.toBeChecked();
    await rtl.focus();
    await page.keyboard.press('Space');
    await expect(rtl).toBeChecked();
    await expect
      .poll(async () => ((await (await request.get(api(made, 'collection', 'poems'), { headers: bearer(made.token) })).json()) as { rtlDirection: boolean }).rtlDirection)
      .toBe(true);

    // After: the text editors run right to left; Number does not.
    await page.goto(`${projectPath(made)}/collection/poems/item/${itemID}`);
    await expect(title).toHaveValue('שלום, עולם!');
    expect(await title.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
    expect(await title.evaluate((el) => getComputedStyle(el).textAlign)).toMatch(/^(start|right)$/);
    const body = page.getByRole('textbox', { name: 'Body' });
    await expect(body).toContainText('שיר קצר');
    expect(await body.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
    expect(await page.getByRole('textbox', { name: 'Lines', exact: true }).evaluate((el) => getComputedStyle(el).direction)).toBe('ltr');
    // The caret enters on the right: typing goes at the end of the Hebrew text.
    await title.focus();
    await page.keyboard.press('End');
    await page.keyboard.type(' טוב');
    await expect(title).toHaveValue('שלום, עולם! טוב');

    // The Option menu opens right to left, and is used from the keyboard.
    const mood = page.getByRole('combobox', { name: 'Mood' });
    expect(await mood.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
    await mood.focus();
    await page.keyboard.press('Enter');
    const listbox = page.getByRole('listbox');
    await expect(listbox).toBeVisible();
    expect(await listbox.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
    await page.screenshot({ path: shot(`rtl-item-menu-${tag}`) });
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(listbox).toHaveCount(0);
    await expect(mood).toContainText('שמח');
    await page.screenshot({ path: shot(`rtl-item-${tag}`) });
    await expectAccessible(page, `rtl item ${tag}`);

    // The list's text cells follow.
    await page.goto(`${projectPath(made)}/collection/poems`);
    const cell = page.locator('.ag-cell[col-id="title"] [dir="rtl"]').first();
    await expect(cell).toHaveText('שלום, עולם!');
    await page.screenshot({ path: shot(`rtl-list-${tag}`) });
    await expectAccessible(page, `rtl list ${tag}`);
    await context.close();
  });
}
