/**
 * The RichText field: text with a heading, a list, a
 * link and a 2×2 table is written by keyboard and toolbar, saved, and after a reload drawn exactly
 * as it was; the list shows its plain text. A hostile paste runs nothing and is stored harmless.
 * The project's switches (right-to-left, custom JS files) change the editor and the field's
 * settings; a custom .js file is uploaded and shown as text, never run. axe in light and dark at
 * 1280 and 900 px.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';
import { createVerifiedAccount } from './support/accounts.ts';
import { expectAccessible } from './support/axe.ts';
import { signIn } from './support/console.ts';
import { bearer, organizationWithProject, type Made } from './support/platform.ts';

let made: Made;
let account: Awaited<ReturnType<typeof createVerifiedAccount>>;
let writtenID = '';
const api = (...rest: string[]) => [`/api/organization/${made.organizationID}/project/${made.projectID}`, ...rest].join('/');
const projectPath = () => `/organization/${made.organizationID}/project/${made.projectID}`;
const listPath = () => `${projectPath()}/collection/articles`;

const body = (page: Page): Locator => page.locator('.field-editor[data-field="body"]');
const textbox = (page: Page) => body(page).getByRole('textbox', { name: 'Body' });
const toolbar = (page: Page) => body(page).getByRole('toolbar', { name: 'Body: formatting' });
const tool = (page: Page, name: string) => toolbar(page).getByRole('button', { name, exact: true });

async function signInTo(page: Page, path: string) {
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await page.goto(path);
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  account = await createVerifiedAccount(request, 'richtext');
  made = await organizationWithProject(request, account, { organization: 'Press', project: 'Magazine' });
  const created = await request.post(api('collection'), {
    headers: bearer(made.token),
    data: {
      id: 'articles',
      name: 'Articles',
      schema: [
        { name: 'Title', slug: 'title', type: 1, primaryField: true },
        { name: 'Body', slug: 'body', type: 2, richTextCustomCSS: 'h1 { letter-spacing: 0.02em } body, nav { outline: 0 }' },
      ],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
});

test('rich text with a heading, a list, a link and a 2×2 table is saved and drawn the same after a reload', async ({ page, request }) => {
  test.setTimeout(180_000);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(String(error.stack ?? error)));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  await signInTo(page, `${listPath()}/item`);
  await expect(page.getByRole('heading', { name: 'New Articles item', level: 2 })).toBeVisible();
  await page.getByRole('textbox', { name: 'Title' }).fill('Launch');

  // The editor arrives in a chunk of its own, then takes the keyboard.
  await expect(toolbar(page)).toBeVisible();
  await textbox(page).click();
  await page.keyboard.type('Welcome');
  await tool(page, 'Heading 1').click();
  await expect(tool(page, 'Heading 1')).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await tool(page, 'Bulleted list').click();
  await page.keyboard.type('First point');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Second point');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Read the docs');
  await page.keyboard.press('Shift+Home');
  // ProseMirror takes a selection made by keys from the browser's selectionchange event, which
  // may come after the next key on a loaded machine; wait until the editor holds it.
  await expect
    .poll(() =>
      textbox(page).evaluate((dom) => {
        const editor = (dom as HTMLElement & { editor?: { state: { selection: { from: number; to: number }; doc: { textBetween(a: number, b: number): string } } } }).editor;
        if (!editor) return '';
        const { from, to } = editor.state.selection;
        return editor.state.doc.textBetween(from, to);
      }),
    )
    .toBe('Read the docs');
  await page.keyboard.press('Control+k');
  const linkDialog = page.getByRole('dialog', { name: 'Add link' });
  await linkDialog.getByLabel('Address').fill('example.com/docs');
  await linkDialog.getByRole('button', { name: 'Apply' }).click();
  await expect(linkDialog).toBeHidden();
  await expect(textbox(page).getByRole('link', { name: 'Read the docs' })).toHaveAttribute('href', 'https://example.com/docs');
  // Focus comes back to the editor a moment after the dialog is gone (radix returns it in a timeout).
  await expect(textbox(page)).toBeFocused();
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  await tool(page, 'Insert table').click();
  for (const [i, text] of ['a1', 'b1', 'a2', 'b2'].entries()) {
    if (i > 0) await page.keyboard.press('Tab');
    await page.keyboard.type(text);
  }
  await expect(textbox(page).locator('td')).toHaveCount(4);
  await expect(tool(page, 'Add row')).toBeEnabled();

  // The field's custom CSS reaches the editor only.
  expect(await textbox(page).locator('h1').evaluate((h1) => getComputedStyle(h1).letterSpacing)).not.toBe('normal');
  expect(await page.locator('body').evaluate((b) => getComputedStyle(b).outlineStyle)).toBe('none');

  const drawn = await textbox(page).innerHTML();
  await page.getByRole('button', { name: 'Create Item' }).click();
  await expect(page.getByText('Item was created!')).toBeVisible();

  // The list shows the plain text.
  await expect(page).toHaveURL(new RegExp(`${listPath()}$`));
  const cell = page.getByRole('gridcell', { name: /Welcome First point Second point Read the docs a1 b1 a2 b2/ });
  try {
    await expect(cell).toBeVisible();
  } catch (error) {
    // Seen once in CI and never here: say what the list showed instead, so the next failure explains itself.
    const shown = await page.locator('main').innerText().catch((e: unknown) => `(unreadable: ${String(e)})`);
    const cells = await page.getByRole('gridcell').allInnerTexts().catch(() => []);
    console.log(`rich-text list after create — gridcells: ${JSON.stringify(cells)}\nmain: ${shown.slice(0, 2000)}\nerrors: ${errors.join(' | ')}`);
    throw error;
  }

  const items = await request.get(api('collection', 'articles', 'item'), { headers: bearer(made.token) });
  const stored = ((await items.json()) as { _id: string; title: string; body: string }[]).find((item) => item.title === 'Launch')!;
  writtenID = stored._id;
  expect(stored.body).toMatch(
    /^<h1>Welcome<\/h1><ul><li><p>First point<\/p><\/li><li><p>Second point<\/p><\/li><\/ul><p><a target="_blank" rel="noopener noreferrer nofollow" href="https:\/\/example.com\/docs">Read the docs<\/a><\/p><table[^>]*>(<colgroup>.*<\/colgroup>)?<tbody>(<tr>(<td( colspan="1" rowspan="1")?><p>[ab][12]<\/p><\/td>){2}<\/tr>){2}<\/tbody><\/table>$/,
  );

  await page.goto(`${listPath()}/item/${writtenID}`);
  await expect(page.getByRole('heading', { name: 'Launch', level: 2 })).toBeVisible();
  await expect(textbox(page).locator('td')).toHaveCount(4);
  await page.reload();
  await expect(textbox(page).locator('td')).toHaveCount(4);
  expect(await textbox(page).innerHTML()).toBe(drawn);
  // Nothing went wrong on the way (no page errors, no console errors).
  expect(errors).toEqual([]);
  // Table cells stop at 450 px.
  expect(await textbox(page).locator('td').first().evaluate((td) => getComputedStyle(td).maxWidth)).toBe('450px');
});

test('a hostile paste runs nothing and is stored harmless', async ({ page, request }) => {
  test.setTimeout(120_000);
  expect(writtenID).not.toBe('');
  await signInTo(page, `${listPath()}/item/${writtenID}`);
  await expect(toolbar(page)).toBeVisible();
  await textbox(page).locator('h1').click();
  await page.keyboard.press('End');
  await page.evaluate(() => {
    const target = document.querySelector('.rich-text-content')!;
    const data = new DataTransfer();
    data.setData(
      'text/html',
      '<p>pasted <img src=x onerror="window.__pwned=1"><a href="javascript:window.__pwned=2">click</a><script>window.__pwned=3</script><svg><foreignObject><iframe srcdoc="<script>parent.__pwned=4</script>"></iframe></foreignObject></svg><span onmouseover="window.__pwned=5">hover</span></p>',
    );
    target.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
  });
  await expect(textbox(page)).toContainText('pasted');
  await textbox(page).getByText('hover').hover();
  await textbox(page).getByText('click').click();
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  await expect(textbox(page).locator('script, iframe, svg, [onerror], [onmouseover], a[href^="javascript"]')).toHaveCount(0);

  await page.getByRole('button', { name: 'Update' }).click();
  await expect(page.getByText('Item was updated!')).toBeVisible();
  const item = (await (await request.get(api('collection', 'articles', 'item', writtenID), { headers: bearer(made.token) })).json()) as { body: string };
  expect(item.body).toContain('pasted');
  expect(item.body).not.toMatch(/onerror|onmouseover|javascript:|<script|<iframe|<svg/i);
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
});

test('the project’s switches change the toolbar and allow a custom JS file, shown as text and never run', async ({ page, request }) => {
  test.setTimeout(180_000);
  await signInTo(page, `${projectPath()}/settings`);
  const section = page.getByRole('region', { name: 'Rich text editor' });
  const rtl = section.getByRole('switch', { name: 'Right-to-left buttons' });
  await expect(rtl).toHaveAttribute('aria-checked', 'false');
  await rtl.click();
  await expect(page.getByText('Rich text settings saved').first()).toBeVisible();
  await expect(rtl).toHaveAttribute('aria-checked', 'true');
  const scripts = section.getByRole('switch', { name: 'Custom JS files' });
  await scripts.click();
  await expect(scripts).toHaveAttribute('aria-checked', 'true');

  await page.goto(`${listPath()}/item/${writtenID}`);
  await expect(tool(page, 'Right to left')).toBeVisible();
  await textbox(page).locator('h1').click();
  await tool(page, 'Right to left').click();
  await expect(textbox(page).locator('h1')).toHaveAttribute('dir', 'rtl');
  await expect(tool(page, 'Right to left')).toHaveAttribute('aria-pressed', 'true');

  // The field's settings: Upload Custom JS, then View JS File shows the text; nothing runs.
  await page.goto(`${listPath()}/edit`);
  await page.getByRole('button', { name: 'Edit Body' }).click();
  const panel = page.getByRole('group', { name: /Body/ }).filter({ has: page.getByRole('button', { name: 'Upload Custom JS' }) });
  await expect(panel.getByRole('button', { name: 'Upload Custom JS' })).toBeVisible();
  await panel.locator('input[type="file"]').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('x') });
  await expect(panel.getByRole('alert')).toHaveText('Choose a .js file.');
  await panel.locator('input[type="file"]').setInputFiles({ name: 'widget.js', mimeType: 'text/javascript', buffer: Buffer.from('window.__ranWidget = true; console.log("widget");\n') });
  await expect(panel.getByText(/JS file: [0-9a-f]+\.js/)).toBeVisible();
  await panel.getByRole('button', { name: 'Save field' }).click();
  await expect(page.getByText('Field Updated').first()).toBeVisible();
  if (!(await page.getByRole('button', { name: 'View JS File' }).isVisible())) await page.getByRole('button', { name: 'Edit Body' }).click();
  await page.getByRole('button', { name: 'View JS File' }).click();
  const viewer = page.getByRole('dialog', { name: 'JS file of Body' });
  await expect(viewer.getByText('window.__ranWidget = true; console.log("widget");')).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __ranWidget?: boolean }).__ranWidget)).toBeUndefined();
  await expectAccessible(page, 'View JS File');
  await viewer.getByRole('button', { name: 'Close' }).first().click();
  await expect(viewer).toBeHidden();

  // Opened directly, the file is a download under a sandbox, never a script of the console's origin.
  const schema = (await (await request.get(api('collection', 'articles', 'schema'), { headers: bearer(made.token) })).json()) as { slug: string; richTextCustomJS?: string }[];
  const scriptUrl = schema.find((field) => field.slug === 'body')!.richTextCustomJS!;
  expect(scriptUrl).toMatch(/^http:\/\/.+\/files\/.+\.js$/);
  const served = await request.get(scriptUrl);
  expect(served.headers()['content-disposition']).toMatch(/^attachment/);
  expect(served.headers()['content-security-policy']).toContain('sandbox');
  expect(served.headers()['x-content-type-options']).toBe('nosniff');
});

// One look per theme and per width (docs/architecture.md "Looks in the browser suite").
for (const [colorScheme, width] of [
  ['light', 1280],
  ['dark', 900],
] as const) {
  test(`the rich-text editor and its settings pass axe (${colorScheme}, ${width} px)`, async ({ browser }) => {
    test.setTimeout(120_000);
    expect(writtenID).not.toBe('');
    const context = await browser.newContext({ colorScheme, reducedMotion: 'reduce', viewport: { width, height: 900 } });
    try {
      const page = await context.newPage();
      await signInTo(page, `${listPath()}/item/${writtenID}`);
      await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
      await expect(toolbar(page)).toBeVisible();
      await textbox(page).locator('td').first().click();
      await expect(tool(page, 'Add row')).toBeEnabled();
      await expectAccessible(page, `rich text ${colorScheme} ${width}`);
      await tool(page, 'Link').click();
      await expect(page.getByRole('dialog', { name: 'Add link' })).toBeVisible();
      await expectAccessible(page, `link dialog ${colorScheme} ${width}`);
      await page.keyboard.press('Escape');
      await page.goto(`${projectPath()}/settings`);
      await expect(page.getByRole('region', { name: 'Rich text editor' })).toBeVisible();
      await expectAccessible(page, `rich-text settings ${colorScheme} ${width}`);
      await page.screenshot({ path: `/tmp/rich-text-${colorScheme}-${width}.png`, fullPage: true });
    } finally {
      await context.close();
    }
  });
}
