/**
 * Studio in the browser (docs/studio.md). A filtered, sorted list built in the workbench runs with
 * a Studio token minted from the project's token; the copied BagelDB-client code, run here in Node
 * with the official client against this server, gives the same items and item-count. A create runs
 * only after its confirmation. Run, a fold, Copy and the dialog work from the keyboard. The
 * reference draws the generated document. axe at 1280 and 900 px in light and dark on one page
 * (the theme follows the emulated colour scheme).
 */
import { createRequire } from 'node:module';
import { expect, test, type Page } from '@playwright/test';
import { createVerifiedAccount, type Account } from './support/accounts.ts';
import { expectAccessible } from './support/axe.ts';
import { signIn, watchCsp } from './support/console.ts';
import { bearer, mintApiToken, organizationWithProject, type Made } from './support/platform.ts';

const require = createRequire(import.meta.url);
// The client's Node build (its package entry points are browser builds; see docs/studio.md "Code for a request").
const { BagelDB } = require('@bageldb/bagel-db/dist/serverSpread.cjs') as { BagelDB: new (token: string, options: object) => unknown };

// A step that cannot happen fails in seconds, not at the test's end.
test.use({ actionTimeout: 15_000 });

let made: Made;
let account: Account;
let kitchenToken = '';

const projectPath = () => `/organization/${made.organizationID}/project/${made.projectID}`;
const fruits = [
  ['Apple', 3],
  ['Banana', 1],
  ['Cherry', 8],
  ['Date', 5],
  ['Elderberry', 13],
  ['Fig', 2],
] as const;

test.beforeAll(async ({ request }) => {
  account = await createVerifiedAccount(request, 'studio');
  made = await organizationWithProject(request, account, { organization: 'Studio Org', project: 'Kitchen' });
  const content = `/api/organization/${made.organizationID}/project/${made.projectID}`;
  const collection = await request.post(`${content}/collection`, {
    headers: bearer(made.token),
    data: {
      id: 'fruits',
      name: 'Fruits',
      schema: [
        { name: 'Name', slug: 'name', type: 1, primaryField: true },
        { name: 'Price', slug: 'price', type: 3 },
      ],
    },
  });
  expect(collection.status(), await collection.text()).toBe(201);
  for (const [name, price] of fruits) {
    const item = await request.post(`${content}/collection/fruits/item`, { headers: bearer(made.token), data: { name, price } });
    expect(item.status(), await item.text()).toBe(201);
  }
  kitchenToken = await mintApiToken(request, made, { powerRead: true, powerCreate: true }, 'Kitchen');
});

/** Runs generated BagelDB-client code in this process with the official client; answers its `response`. */
async function runClientCode(code: string, token: string): Promise<{ data: unknown; headers: Record<string, string> }> {
  expect(code).toContain("import Bagel from '@bageldb/bagel-db';");
  const body = code.replace("import Bagel from '@bageldb/bagel-db';", '').replace('"YOUR_API_TOKEN"', JSON.stringify(token));
  const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...args: string[]) => (...values: unknown[]) => Promise<unknown>;
  const response = await new AsyncFunction('Bagel', 'console', `${body}\nreturn response;`)(BagelDB, { log: () => undefined });
  return response as { data: unknown; headers: Record<string, string> };
}

async function shownBody(page: Page): Promise<unknown> {
  await page.getByRole('button', { name: 'Raw' }).click();
  const text = await page.locator('pre[aria-label="Raw"]').textContent();
  await page.getByRole('button', { name: 'Tree' }).click();
  return JSON.parse(text ?? 'null') as unknown;
}

test('a filtered, sorted list in Studio, its copied client code run in Node with the same answer, a confirmed create, the reference, axe in four variants', async ({ page, context, baseURL }) => {
  test.setTimeout(180_000);
  const csp = watchCsp(page);
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL! });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'light' });
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await page.goto(`${projectPath()}/bagelstudio`);
  await expect(page.getByRole('heading', { level: 1, name: 'Studio' })).toBeVisible();

  // Build: rights of the Kitchen token, Price > 2, by price descending, 3 per page.
  // The token minted from Kitchen's rights (the preview, minted on arrival, cannot create).
  const minted = page.waitForResponse(
    async (response) => response.url().endsWith('/studio/tokens') && response.request().method() === 'POST' && ((await response.json().catch(() => ({}))) as { powerCreate?: boolean }).powerCreate === true,
    { timeout: 15_000 },
  );
  await page.getByLabel('Rights').selectOption({ label: 'As the token Kitchen' });
  expect((await minted).status()).toBe(201);
  const studioToken = ((await (await minted).json()) as { jwtToken: string }).jwtToken;
  await page.getByLabel('Field').selectOption({ label: 'Price' });
  await page.getByLabel('Operator').selectOption({ label: 'Greater Than' });
  await page.getByLabel('Value').fill('2');
  await page.getByLabel('Sort by').selectOption({ label: 'Price' });
  await page.getByLabel('Order', { exact: true }).selectOption({ label: 'Descending' });
  await page.getByLabel('Per Page').selectOption({ label: 'Custom' });
  await page.getByLabel('Items per page (custom)').fill('3');
  await page.getByLabel('Items per page (custom)').press('Tab');
  const code = page.getByTestId('studio-code');
  await expect(code).toContainText('.query("price", ">", "2")');
  await expect(code).toContainText('.perPage(3)');

  // Keyboard: the next stop after Per Page is Run; Enter runs.
  await expect(page.getByRole('button', { name: 'Run' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('studio-status')).toHaveText('200 OK');
  await expect(page.getByTestId('studio-item-count')).toHaveText('item-count: 4');
  const shown = (await shownBody(page)) as { name: string; price: number }[];
  expect(shown.map((item) => item.name)).toEqual(['Elderberry', 'Cherry', 'Date']);

  // A fold opens from the keyboard.
  const firstItem = page.locator('.json-children').first().locator('.json-toggle').first();
  await firstItem.focus();
  await page.keyboard.press('Space');
  await expect(firstItem).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByTestId('studio-body')).toContainText('name: "Elderberry"');

  // Copy the client code (from the keyboard); it says "Copied!" and then "Copy" again.
  await page.getByRole('button', { name: 'Copy' }).focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Copied!' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Copy' })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(await code.textContent());
  const answer = await runClientCode(copied, kitchenToken);
  expect(answer.headers['item-count']).toBe('4');
  expect(answer.data).toEqual(shown);

  await expectAccessible(page, 'Studio with an answer, 1280 px light');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectAccessible(page, 'Studio with an answer, 1280 px dark');
  await page.setViewportSize({ width: 900, height: 900 });
  await expectAccessible(page, 'Studio with an answer, 900 px dark');
  await page.emulateMedia({ colorScheme: 'light' });
  await expectAccessible(page, 'Studio with an answer, 900 px light');

  // A write runs only once confirmed.
  await page.getByRole('radio', { name: 'Create' }).check();
  await page.getByLabel('Body (JSON)').fill('{"name": "Grape", "price": 4}');
  await page.getByRole('button', { name: 'Run' }).click();
  const dialog = page.getByRole('dialog', { name: 'Run Create?' });
  await expect(dialog).toBeVisible();
  await expectAccessible(page, 'Studio write confirmation, 900 px light');
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('button', { name: 'Run' })).toBeFocused();
  await page.getByRole('button', { name: 'Run' }).click();
  await dialog.getByRole('button', { name: 'Run it' }).click();
  await expect(page.getByTestId('studio-status')).toHaveText('201 Created');
  const created = (await shownBody(page)) as { id: string };
  const read = await page.request.get(`/api/public/collection/fruits/items/${created.id}`, { headers: { ...bearer(kitchenToken), 'accept-version': 'v1' } });
  expect(await read.json()).toMatchObject({ name: 'Grape', price: 4 });

  // The history keeps both; the list reopens.
  const history = page.locator('.studio-history-entry');
  await expect(history).toHaveCount(2);
  await history.nth(1).click();
  await expect(page.getByRole('radio', { name: 'List' })).toBeChecked();
  await expect(page.getByLabel('Value')).toHaveValue('2');

  // The reference: swagger-ui draws the generated document, in both themes.
  await page.getByRole('tab', { name: 'Reference' }).click();
  await expect(page.getByTestId('studio-reference').locator('.swagger-ui .info')).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId('studio-reference')).toContainText('/collection/fruits/items');
  await expectAccessible(page, 'Studio reference, 900 px light');
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectAccessible(page, 'Studio reference, 1280 px dark');
  expect(csp).toEqual([]);

  // Leaving Studio revokes its token: the public API refuses it afterwards.
  const asStudio = () => page.request.get('/api/public/collection/fruits/items', { headers: { ...bearer(studioToken), 'accept-version': 'v1' } });
  expect((await asStudio()).status()).toBe(200);
  await page.goto(projectPath());
  await expect.poll(async () => (await asStudio()).status()).toBe(401);
});
