/**
 * First load and layout (docs/console-delivery.md): the login screen's JavaScript on the wire in a
 * cold browser stays under the bundle budget and pulls no signed-in screen; at 800 px a project
 * has one menu button; the item table fills the window's height and sizes its columns to their
 * type; the kanban shows its four columns at 1280 px and scrolls visibly past that; the Dev mailbox
 * is linked only when the server serves it to this client; the item page uses a wide screen's
 * width. Screenshots at 1280 and 900 px (800 px for the menu), light and dark, axe on each.
 */
import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { BUDGET_BYTES } from '../bench/bundle.ts';
import { measureLoginWire } from '../bench/support/wire-bytes.ts';
import { createVerifiedAccount } from './support/accounts.ts';
import { expectAccessible } from './support/axe.ts';
import { signIn } from './support/console.ts';
import { bearer, organizationWithProject, type Made } from './support/platform.ts';

const shots = '.tmp/shots/walk-layout';
mkdirSync(shots, { recursive: true });

let made: Made;
let account: Awaited<ReturnType<typeof createVerifiedAccount>>;
const content = (...rest: string[]) => [`/api/organization/${made.organizationID}/project/${made.projectID}`, ...rest].join('/');
const projectPath = (...rest: string[]) => [`/organization/${made.organizationID}/project/${made.projectID}`, ...rest].join('/');
const themes = ['light', 'dark'] as const;
const ids: Record<string, string> = {};


test('the login screen loads under the budget on the wire, compressed, without any signed-in screen', async ({ browser, baseURL }) => {
  const figures = await measureLoginWire(browser, baseURL!);
  const names = figures.scripts.map((script) => new URL(script.url).pathname);
  expect(names.some((name) => name.includes('LoginScreen'))).toBe(true);
  for (const other of ['HomeScreen', 'NewOrganization', 'ConsoleLayout', 'OrganizationScreen', 'ProjectShellScreen']) {
    expect(names.filter((name) => name.includes(other)), `${other} is not loaded before the login screen`).toEqual([]);
  }
  for (const script of figures.scripts) expect(script.encoding, script.url).toBe('br');
  expect(figures.totalWire).toBeLessThanOrEqual(BUDGET_BYTES);
  // index.html preloads only what every page needs.
  const html = await (await fetch(new URL('/login', baseURL))).text();
  const preloads = [...html.matchAll(/rel="modulepreload"[^>]*href="([^"]+)"/g)].map((match) => match[1]!);
  for (const preload of preloads) expect(preload).not.toMatch(/HomeScreen|NewOrganization|ConsoleLayout|LoginScreen/);
});

test.beforeAll(async ({ request }) => {
  test.setTimeout(180_000);
  account = await createVerifiedAccount(request, 'walklayout');
  made = await organizationWithProject(request, account, { organization: 'Layouts', project: 'Magazine' });
  const articles = await request.post(content('collection'), {
    headers: bearer(made.token),
    data: {
      id: 'articles',
      name: 'Articles',
      schema: [
        { name: 'Title', slug: 'title', type: 1, primaryField: true },
        { name: 'Subtitle', slug: 'subtitle', type: 1 },
        { name: 'Published', slug: 'published', type: 10 },
        { name: 'Review date', slug: 'reviewDate', type: 10 },
        { name: 'Views', slug: 'views', type: 3 },
        { name: 'Price', slug: 'price', type: 3 },
        { name: 'Featured', slug: 'featured', type: 8 },
        { name: 'Section', slug: 'section', type: 7, options: [{ value: 'News' }, { value: 'Sport' }] },
        { name: 'Website', slug: 'website', type: 9 },
        { name: 'Phone', slug: 'phone', type: 4 },
        { name: 'Body', slug: 'body', type: 2 },
        { name: 'Slug', slug: 'urlSlug', type: 1 },
        { name: 'Settings', slug: 'settings', type: 14 },
        { name: 'Author', slug: 'author', type: 1 },
        { name: 'Notes', slug: 'notes', type: 1 },
      ],
    },
  });
  expect(articles.status(), await articles.text()).toBe(201);
  for (let n = 1; n <= 30; n++) {
    const answer = await request.post(content('collection', 'articles', 'item'), {
      headers: bearer(made.token),
      data: {
        title: `Article ${String(n).padStart(2, '0')}`,
        subtitle: 'A subtitle',
        published: new Date(Date.UTC(2026, 10, n % 28 + 1, 14, 30)).toISOString(),
        reviewDate: new Date(Date.UTC(2026, 11, n % 28 + 1, 9, 5)).toISOString(),
        views: 1000 * n,
        price: n + 0.99,
        featured: n % 2 === 0,
        website: 'https://example.org/articles',
        body: '<p>Body text.</p>',
      },
    });
    expect(answer.status(), await answer.text()).toBe(201);
    if (n === 1) ids.first = ((await answer.json()) as { _id: string })._id;
  }
  const tasks = await request.post(content('collection'), {
    headers: bearer(made.token),
    data: {
      id: 'tasks',
      name: 'Tasks',
      schema: [
        { name: 'Title', slug: 'title', type: 1, primaryField: true },
        { name: 'Status', slug: 'status', type: 7, options: [{ value: 'Todo' }, { value: 'Doing' }, { value: 'Done' }] },
      ],
    },
  });
  expect(tasks.status(), await tasks.text()).toBe(201);
  const status = ((await tasks.json()) as { schema: { slug: string; options?: { _id: string; value: string }[] }[] }).schema.find((field) => field.slug === 'status')!;
  for (const [title, value] of [
    ['Write report', 'Todo'],
    ['Fix the long-standing bug in the billing export', 'Doing'],
    ['Ship it', 'Done'],
    ['Plan trip', undefined],
  ] as const) {
    const option = status.options!.find((candidate) => candidate.value === value);
    const answer = await request.post(content('collection', 'tasks', 'item'), { headers: bearer(made.token), data: option ? { title, status: { _id: option._id } } : { title } });
    expect(answer.status(), await answer.text()).toBe(201);
  }
  const layout = await request.put(content('collection', 'tasks', 'layout'), { headers: bearer(made.token), data: { activeField: 'status' } });
  expect(layout.status(), await layout.text()).toBe(200);
});

async function open(page: Page, path: string, width: number, height: number, theme: (typeof themes)[number]) {
  await page.setViewportSize({ width, height });
  await page.emulateMedia({ colorScheme: theme });
  await page.goto(path);
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
}

async function signedIn(page: Page) {
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
}

test('a project at 800 px has one menu button, whose drawer holds the project menu and the console navigation', async ({ page }) => {
  await signedIn(page);
  for (const theme of themes) {
    await open(page, projectPath('collection', 'articles'), 800, 900, theme);
    await expect(page.getByRole('heading', { name: 'Articles', level: 2 })).toBeVisible();
    const menuButtons = page.locator('button:visible').filter({ has: page.locator('svg.lucide-menu') });
    await expect(menuButtons).toHaveCount(1);
    await page.screenshot({ path: `${shots}/menu-800-${theme}.png` });
    await expectAccessible(page, `project at 800 px, ${theme}`);
    await page.getByRole('button', { name: 'Open the project menu' }).click();
    const drawer = page.getByRole('dialog', { name: 'Magazine' });
    await expect(drawer.getByRole('navigation', { name: 'Project menu' })).toBeVisible();
    await expect(drawer.getByRole('navigation', { name: 'Main' }).getByRole('link')).toHaveText(['Home', 'Docs', 'Dev mailbox']);
    await page.screenshot({ path: `${shots}/menu-800-${theme}-open.png` });
    await expectAccessible(page, `project drawer at 800 px, ${theme}`);
    await page.keyboard.press('Escape');
    await expect(drawer).toBeHidden();
  }
  // Outside a project the top bar keeps its own menu button.
  await open(page, `/organization/${made.organizationID}`, 800, 900, 'light');
  await expect(page.getByRole('button', { name: 'Menu', exact: true })).toBeVisible();
});

test('the item table fills the window down to its footer, and its columns fit their type', async ({ page }) => {
  test.setTimeout(120_000);
  await signedIn(page);
  // One look per theme and per width (docs/architecture.md "Looks in the browser suite"), and a tall window.
  for (const [width, height, theme] of [
    [1280, 800, 'light'],
    [1280, 1200, 'dark'],
    [900, 900, 'dark'],
  ] as const) {
    {
      await open(page, projectPath('collection', 'articles'), width, height, theme);
      const grid = page.locator('.item-grid');
      await expect(grid.locator('.ag-row').first()).toBeVisible();
      await expect(page.getByRole('gridcell').filter({ hasText: 'Article 01' })).toBeVisible();
      // The footer (paging) is in the window, right below the table; the table takes the rest.
      const footer = page.locator('.list-footer');
      await expect(footer).toBeInViewport();
      const gridBox = (await grid.boundingBox())!;
      const footerBox = (await footer.boundingBox())!;
      expect(footerBox.y + footerBox.height, `${width}×${height}: the footer is in the window`).toBeLessThanOrEqual(height);
      // Below it only the room kept clear of the floating button (and the bottom bar when narrow), and less than a row.
      const reserve = await grid.evaluate((element) => parseFloat(getComputedStyle(element).scrollMarginBottom));
      expect(height - (footerBox.y + footerBox.height), `${width}×${height}: no empty band below the footer`).toBeLessThan(reserve + 42 + 2);
      const fab = await page.getByRole('button', { name: 'Quick actions' }).boundingBox();
      expect(fab!.y, `${width}×${height}: the floating button is clear of the footer`).toBeGreaterThan(footerBox.y + footerBox.height);
      // A tall window shows more than the 12 rows of the old fixed 550 px table.
      if (height === 1200) expect(gridBox.height, `${width}×${height}: the table grows with the window`).toBeGreaterThan(12 * 42 + 46 + 20);
      // No row is cut by the table's bottom edge, once the table has fitted its height to whole rows
      // (it does so as its size settles after the load: polled, not read once).
      const cutRows = () =>
        grid.evaluate((element) => {
          const edge = element.getBoundingClientRect().bottom - 1 - (element.querySelector<HTMLElement>('.ag-body-horizontal-scroll')?.offsetHeight ?? 0);
          const rows = [...element.querySelectorAll('.ag-row')].map((row) => row.getBoundingClientRect());
          return rows.length === 0 ? ['no rows'] : rows.filter((row) => row.top < edge - 1 && row.bottom > edge + 1).map((row) => ({ top: row.top, bottom: row.bottom }));
        });
      await expect.poll(cutRows, { message: `${width}×${height}: a row cut by the table's bottom edge` }).toEqual([]);
      // A date is shown whole (the grid draws only the columns in view: the first date column is).
      for (const column of ['published']) {
        const cell = grid.locator(`[col-id="${column}"]`).filter({ hasText: '2026' }).first();
        await expect(cell).toBeVisible();
        const clipped = await cell.evaluate((element) => [...element.querySelectorAll('*')].some((child) => child.scrollWidth > child.clientWidth + 1));
        expect(clipped, `${column} is shown whole at ${width} px`).toBe(false);
      }
      await page.screenshot({ path: `${shots}/grid-${width}x${height}-${theme}.png` });
      await expectAccessible(page, `item table ${width}×${height} ${theme}`);
    }
  }
});

test('the kanban shows its four columns at 1280 px, and scrolls sideways with a visible cue when they do not fit', async ({ page }) => {
  test.setTimeout(120_000);
  await signedIn(page);
  for (const width of [1280, 900]) {
    for (const theme of themes) {
      // One look per theme and per width (docs/architecture.md "Looks in the browser suite").
      if ((theme === 'light') !== width > 900) continue;
      await open(page, `${projectPath('collection', 'tasks')}?layout=kanban`, width, 900, theme);
      const board = page.getByRole('region', { name: 'Kanban of Tasks by Status' });
      await expect(board.getByRole('heading', { level: 3 })).toHaveText(['Unset', 'Todo', 'Doing', 'Done']);
      const columns = board.locator('.kanban-column');
      const boardBox = (await board.boundingBox())!;
      const overflowing = await board.evaluate((element) => element.scrollWidth > element.clientWidth + 1);
      if (width === 1280) {
        expect(overflowing, 'the four columns fit at 1280 px').toBe(false);
        const last = (await columns.last().boundingBox())!;
        expect(last.x + last.width).toBeLessThanOrEqual(boardBox.x + boardBox.width + 1);
      } else {
        expect(overflowing).toBe(true);
        // The cue: a fading edge on the side that hides columns, moving as the board scrolls.
        await expect(board).toHaveAttribute('data-more-right', 'true');
        await expect(board).toHaveAttribute('data-more-left', 'false');
        await page.screenshot({ path: `${shots}/kanban-${width}-${theme}.png` });
        // The keyboard reaches the last column's card (the board holds focusable controls, so it scrolls as they take the focus).
        await columns.last().getByRole('button', { name: 'New item in Done' }).focus();
        await page.keyboard.press('Tab');
        await page.keyboard.press('Tab');
        await expect(columns.last().getByRole('button', { name: 'Ship it', exact: true })).toBeFocused();
        await board.evaluate((element) => element.scrollTo({ left: element.scrollWidth }));
        await expect(board).toHaveAttribute('data-more-left', 'true');
        await expect(board).toHaveAttribute('data-more-right', 'false');
        const last = (await columns.last().boundingBox())!;
        expect(last.x + last.width).toBeLessThanOrEqual(boardBox.x + boardBox.width + 1);
        await page.screenshot({ path: `${shots}/kanban-${width}-${theme}-scrolled.png` });
        await board.evaluate((element) => element.scrollTo({ left: 0 }));
      }
      if (width === 1280) await page.screenshot({ path: `${shots}/kanban-${width}-${theme}.png` });
      await expectAccessible(page, `kanban ${width} ${theme}`);
    }
  }
});

test('the Dev mailbox is in the navigation only when the server serves it to this browser', async ({ page }) => {
  await signedIn(page);
  await open(page, `/organization/${made.organizationID}`, 1280, 800, 'light');
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link')).toHaveText(['Home', 'Docs', 'Dev mailbox']);
  // The server says whether it serves the mailbox to this client (a loopback one here); elsewhere it says no.
  const config = (await (await page.request.get('/api/config')).json()) as { devMailbox: boolean };
  expect(config.devMailbox).toBe(true);
  await page.route('**/api/config', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, json: { ...((await response.json()) as object), devMailbox: false } });
  });
  await page.reload();
  await expect(nav.getByRole('link')).toHaveText(['Home', 'Docs']);
  await page.setViewportSize({ width: 800, height: 800 });
  await page.getByRole('button', { name: 'Menu', exact: true }).click();
  await expect(page.getByRole('menuitem')).toHaveText(['Home', 'Docs']);
});

test('the item page sets short fields side by side on a wide screen, long ones across, one column when narrow', async ({ page }) => {
  test.setTimeout(120_000);
  await signedIn(page);
  for (const width of [1280, 900]) {
    for (const theme of themes) {
      // One look per theme and per width (docs/architecture.md "Looks in the browser suite").
      if ((theme === 'light') !== width > 900) continue;
      await open(page, projectPath('collection', 'articles', 'item', ids.first!), width, 900, theme);
      const field = (slug: string) => page.locator(`.item-fields [data-field="${slug}"]`);
      await expect(field('title').getByRole('textbox')).toHaveValue('Article 01');
      const title = (await field('title').boundingBox())!;
      const subtitle = (await field('subtitle').boundingBox())!;
      const body = (await field('body').boundingBox())!;
      const form = (await page.locator('.item-fields').boundingBox())!;
      if (width === 1280) {
        expect(Math.abs(subtitle.y - title.y), 'Title and Subtitle share a row').toBeLessThan(2);
        expect(subtitle.x).toBeGreaterThan(title.x + title.width);
        expect(body.width, 'rich text spans the form').toBeGreaterThan(form.width * 0.9);
      } else {
        expect(subtitle.y).toBeGreaterThan(title.y + title.height);
        expect(Math.abs(subtitle.x - title.x)).toBeLessThan(2);
      }
      await page.screenshot({ path: `${shots}/item-${width}-${theme}.png`, fullPage: true });
      await expectAccessible(page, `item page ${width} ${theme}`);
    }
  }
  // The keyboard goes through the fields in reading order: Title, then Subtitle.
  await field(page, 'title').getByRole('textbox').focus();
  await page.keyboard.press('Tab');
  await expect(field(page, 'subtitle').getByRole('textbox')).toBeFocused();
});

const field = (page: Page, slug: string) => page.locator(`.item-fields [data-field="${slug}"]`);
