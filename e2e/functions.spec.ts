/**
 * The console's Functions section (docs/functions.md "The console") in Chromium: an admin makes a
 * function in the console, saves a source that does not compile (the error shows at its line in
 * the editor and as text; nothing is saved or deployed), fixes and deploys it, makes it run on
 * item creation in a collection with an API token that may update; an item created in the console
 * gets its field stamped by the function and the run is in the invocation log as an event; a second
 * version is deployed and then rolled back to version 1. axe on the list and the function at 1280
 * and 900 px, light and dark (screenshots at 600 px too).
 */
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createVerifiedAccount, type Account } from './support/accounts.ts';
import { expectAccessible } from './support/axe.ts';
import { signIn } from './support/console.ts';
import { bearer, mintApiToken, organizationWithProject, type Made } from './support/platform.ts';

let made: Made;
let account: Account;

const projectPath = () => `/organization/${made.organizationID}/project/${made.projectID}`;
const api = (...rest: string[]) => [`/api/organization/${made.organizationID}/project/${made.projectID}`, ...rest].join('/');

const broken = "export default async function (event: any, ctx: any) {\n  let x = = 1;\n  return x;\n}\n";
const stamping = [
  'export default async function (event: any, ctx: any) {',
  "  if (event.kind !== 'item' || event.trigger !== 'create') return { skipped: true };",
  "  console.log('stamping', event.itemID);",
  "  await ctx.data.update(event.collectionSlug, event.itemID, { stamp: 'by function' });",
  '  return { stamped: event.itemID };',
  '}',
  '',
].join('\n');

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  account = await createVerifiedAccount(request, 'functions');
  made = await organizationWithProject(request, account, { organization: 'Functions Org', project: 'Stamps' });
  const collection = await request.post(api('collection'), {
    headers: bearer(made.token),
    data: { id: 'posts', name: 'Posts', schema: [{ name: 'Title', slug: 'title', type: 1, primaryField: true }, { name: 'Stamp', slug: 'stamp', type: 1 }] },
  });
  expect(collection.status(), await collection.text()).toBe(201);
  // The token the function's data client acts with: it may read and update items.
  await mintApiToken(request, made, { powerRead: true, powerUpdate: true }, 'Function writer');
});

async function openSection(page: Page) {
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await page.goto(`${projectPath()}/collection/posts`);
  await page.getByRole('navigation', { name: 'Project menu' }).getByRole('button', { name: 'Functions' }).click();
  await expect(page).toHaveURL(new RegExp(`${projectPath()}/functions$`));
  await expect(page.getByRole('heading', { level: 2, name: 'Functions' })).toBeVisible();
}

/** Replaces the editor's whole text, as pasting would (typing would be auto-indented). */
async function setSource(page: Page, source: string) {
  const editor = page.getByRole('textbox', { name: 'Source (TypeScript)' });
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.insertText(source);
  await expect(editor).toContainText(source.split('\n')[0]!);
}

async function functionView(request: APIRequestContext) {
  const response = await request.get(api('functions', 'stamp'), { headers: bearer(made.token) });
  expect(response.status()).toBe(200);
  return (await response.json()) as { latestVersion: number | null; deployedVersion: number | null; events: string[] };
}

test('a function written in the console stamps items created in the console; versions deployed and rolled back', async ({ page, request }) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await openSection(page);
  await expect(page.getByText('No functions yet.')).toBeVisible();
  const form = page.getByRole('form', { name: 'New function' });
  await form.getByLabel('Name').fill('stamp');
  await form.getByRole('button', { name: 'Create function' }).click();
  await expect(page).toHaveURL(new RegExp(`${projectPath()}/function/stamp$`));
  await expect(page.getByRole('heading', { level: 2, name: 'stamp' })).toBeVisible();

  // A source that does not compile: the error at its line, in the editor and as text; nothing saved.
  await setSource(page, broken);
  await page.getByRole('button', { name: 'Save as new version' }).click();
  const errors = page.locator('.function-compile-errors');
  await expect(errors).toContainText("The function's source does not compile; nothing was saved.");
  await expect(errors).toContainText(/Line 2, column \d+:/);
  await expect(page.locator('.cm-lintRange-error')).toHaveCount(1);
  await expect(page.locator('.cm-gutter-lint .cm-lint-marker-error')).toHaveCount(1);
  await page.screenshot({ path: '/tmp/functions-compile-error-light-1280.png', fullPage: true });
  expect(await functionView(request)).toMatchObject({ latestVersion: null, deployedVersion: null });
  await expect(page.getByText('No versions yet: save the source to make version 1.')).toBeVisible();

  // Fixed: version 1, deployed.
  await setSource(page, stamping);
  await page.getByRole('button', { name: 'Save as new version' }).click();
  await expect(errors).toHaveCount(0);
  await expect(page.locator('.cm-lintRange-error')).toHaveCount(0);
  const versions = page.getByRole('table', { name: 'Versions' });
  await expect(versions.getByRole('row')).toHaveCount(2);
  await page.locator('[data-part="code"]').getByRole('button', { name: 'Deploy version 1' }).click();
  await expect(page.getByRole('button', { name: 'Version 1 is deployed' })).toBeDisabled();
  await expect(versions.locator('tr[data-version="1"]')).toContainText('Deployed');

  // Runs after an item is created in Posts, with the token that may update.
  const triggers = page.getByRole('form', { name: 'Triggers' });
  await expect(triggers.getByText(new RegExp(`/functions/v1/${made.projectID}/stamp$`))).toBeVisible();
  await triggers.getByRole('checkbox', { name: 'Item created' }).check();
  await triggers.getByRole('group', { name: 'In these collections' }).getByRole('checkbox', { name: 'Posts', exact: true }).check();
  await triggers.getByLabel('API token for ctx.data').selectOption({ label: 'Function writer' });
  await triggers.getByRole('button', { name: 'Save triggers' }).click();
  await expect(page.getByText('Triggers saved.')).toBeVisible();
  expect(await functionView(request)).toMatchObject({ events: ['create'] });
  await page.screenshot({ path: '/tmp/functions-function-light-1280.png', fullPage: true });

  // An item made in the console; the function stamps it.
  await page.goto(`${projectPath()}/collection/posts`);
  await page.getByRole('link', { name: 'New Item' }).click();
  await page.getByRole('textbox', { name: /^Title/ }).fill('Stamped by the browser test');
  await page.getByRole('button', { name: 'Create Item' }).click();
  await expect(page.getByText('Item was created!')).toBeVisible();
  const listed = await request.get(api('collection', 'posts', 'item'), { headers: bearer(made.token), params: { perPage: 100 } });
  const itemID = ((await listed.json()) as { _id: string; title?: string }[]).find((item) => item.title === 'Stamped by the browser test')!._id;
  await expect
    .poll(
      async () => {
        const item = await request.get(api('collection', 'posts', 'item', itemID), { headers: bearer(made.token) });
        return ((await item.json()) as { stamp?: string }).stamp ?? null;
      },
      { timeout: 30_000 },
    )
    .toBe('by function');
  await page.goto(`${projectPath()}/collection/posts/item/${itemID}`);
  await expect(page.getByRole('textbox', { name: /^Stamp/ })).toHaveValue('by function');

  // The run, in the log as an event.
  await page.goto(`${projectPath()}/function/stamp`);
  const log = page.getByRole('table', { name: 'Invocation log' });
  const run = log.locator('tr[data-trigger="event"]');
  await expect(run).toHaveCount(1, { timeout: 20_000 });
  await expect(run).toContainText('Event');
  await expect(run).toContainText('Succeeded');
  await expect(run).toContainText('Version 1');
  await run.getByRole('button', { name: /^Details of the run at / }).click();
  await expect(log).toContainText(`[log] stamping ${itemID}`);

  // Version 2 deployed, then back to version 1.
  await setSource(page, stamping.replace('return { stamped', 'return { version: 2, stamped'));
  await page.getByRole('button', { name: 'Save as new version' }).click();
  await expect(versions.getByRole('row')).toHaveCount(3);
  await page.locator('[data-part="code"]').getByRole('button', { name: 'Deploy version 2' }).click();
  await expect(versions.locator('tr[data-version="2"]')).toContainText('Deployed');
  await versions.getByRole('button', { name: 'Deploy version 1' }).click();
  const dialog = page.getByRole('dialog', { name: 'Roll back to version 1?' });
  await expect(dialog).toContainText('Version 1 will run from now on in place of version 2.');
  await expectAccessible(page, 'function roll back dialog');
  await dialog.getByRole('button', { name: 'Roll back' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(versions.locator('tr[data-version="1"]')).toContainText('Deployed');
  await expect(versions.locator('tr[data-version="2"]')).not.toContainText('Deployed');
  await expect(page.locator('.function-meta')).toContainText('Version 1 deployed');
  expect(await functionView(request)).toMatchObject({ latestVersion: 2, deployedVersion: 1 });

  // The list shows it.
  await page.getByRole('link', { name: 'All functions' }).click();
  const row = page.getByRole('table', { name: "This project's functions" }).getByRole('row').filter({ hasText: 'stamp' });
  await expect(row).toContainText('Version 1 deployed');
  await expect(row).toContainText('latest: version 2');
  await expect(row).toContainText('create in posts');
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`the list and a function pass axe at 1280 and 900 px, ${colorScheme}; the editor is left with the keyboard`, async ({ browser, request }) => {
    // axe over the function page (the editor, the log) takes tens of seconds on a loaded two-core machine.
    test.setTimeout(300_000);
    // On its own (a retry runs in a fresh project): the function is made through the API.
    const existing = await request.get(api('functions', 'stamp'), { headers: bearer(made.token) });
    if (existing.status() === 404) {
      const createdFn = await request.post(api('functions'), { headers: bearer(made.token), data: { name: 'stamp', language: 'ts' } });
      expect(createdFn.status(), await createdFn.text()).toBe(201);
      const saved = await request.put(api('functions', 'stamp', 'source'), { headers: bearer(made.token), data: { source: stamping } });
      expect(saved.status(), await saved.text()).toBe(201);
    }
    const context = await browser.newContext({ colorScheme, reducedMotion: 'reduce', viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    try {
      await openSection(page);
      await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
      await expect(page.getByRole('table', { name: "This project's functions" }).getByRole('row').filter({ hasText: 'stamp' })).toHaveCount(1);
      for (const width of [1280, 900, 600]) {
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({ path: `/tmp/functions-list-${colorScheme}-${width}.png`, fullPage: true });
        expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth), `list at ${width} px`).toBe(true);
        if (width !== 600) await expectAccessible(page, `functions list ${colorScheme} ${width}`);
      }
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.getByRole('link', { name: 'stamp', exact: true }).click();
      const editor = page.getByRole('textbox', { name: 'Source (TypeScript)' });
      await expect(editor).toContainText('export default async function');
      // A run to show in the log.
      await page.getByRole('button', { name: 'Run test' }).click();
      await expect(page.getByRole('heading', { name: 'Outcome' })).toBeVisible();
      await expect(page.getByRole('table', { name: 'Invocation log' }).locator('tr[data-trigger="test"]').first()).toBeVisible({ timeout: 15_000 });
      for (const width of [1280, 900, 600]) {
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({ path: `/tmp/functions-function-${colorScheme}-${width}.png`, fullPage: true });
        await expect(page.getByLabel('Event (JSON)')).toHaveValue(/"kind": "item"/);
        await page.getByLabel('Event (JSON)').screenshot({ path: `/tmp/functions-event-${colorScheme}-${width}.png` });
        expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth), `function at ${width} px`).toBe(true);
        if (width !== 600) await expectAccessible(page, `function ${colorScheme} ${width}`);
      }
      await page.setViewportSize({ width: 1280, height: 900 });
      // Tab indents inside the editor; Escape then Tab moves on to the next control.
      await editor.click();
      await page.keyboard.press('Escape');
      await page.keyboard.press('Tab');
      await expect(editor).not.toBeFocused();
    } finally {
      await context.close();
    }
  });
}
