/**
 * The Link editor's preview card (docs/security.md "Outbound requests"). The test serves a
 * page on 127.0.0.2, the one range the e2e server may reach (`OUTBOUND_ALLOW_PRIVATE` in
 * e2e/run.ts): the card shows its title, description and image (the server's re-encoded copy, under
 * the console's CSP). A refused address (the cloud metadata address, the server's own loopback)
 * shows "No preview available for this address." and the item still saves. axe in light and dark.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { expect, test, type Page } from '@playwright/test';
import { createVerifiedAccount, type Account } from './support/accounts.ts';
import { expectAccessible } from './support/axe.ts';
import { signIn, watchCsp } from './support/console.ts';
import { bearer, organizationWithProject, type Made } from './support/platform.ts';

let made: Made;
let account: Account;
let pages: http.Server;
let pageBase = '';
const seen: string[] = [];

const title = 'Larder preview test page';
const description = 'A page served by the browser test, read by the server for the card.';

const projectPath = () => `/organization/${made.organizationID}/project/${made.projectID}`;
const newItemPath = () => `${projectPath()}/collection/bookmarks/item`;
const field = (page: Page, slug: string) => page.locator(`.field-editor[data-field="${slug}"]`);
const box = (page: Page, slug: string) => field(page, slug).getByRole('textbox');

test.beforeAll(async ({ request }) => {
  const png = await sharp({ create: { width: 640, height: 360, channels: 3, background: '#2a6f4e' } }).png().toBuffer();
  pages = http.createServer((req, res) => {
    seen.push(req.url ?? '');
    if (req.url === '/article') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html><head><title>Plain title</title>
<meta property="og:title" content="${title}">
<meta property="og:description" content="${description}">
<meta property="og:image" content="/cover.png"></head><body>Article</body></html>`);
    } else if (req.url === '/cover.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(png);
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => pages.listen(0, '127.0.0.2', resolve));
  pageBase = `http://127.0.0.2:${(pages.address() as AddressInfo).port}`;

  account = await createVerifiedAccount(request, 'preview');
  made = await organizationWithProject(request, account, { organization: 'Preview Org', project: 'Bookmarks' });
  const collection = await request.post(`/api/organization/${made.organizationID}/project/${made.projectID}/collection`, {
    headers: bearer(made.token),
    data: {
      id: 'bookmarks',
      name: 'Bookmarks',
      schema: [
        { name: 'Name', slug: 'name', type: 1, primaryField: true },
        { name: 'Site', slug: 'site', type: 9 },
      ],
    },
  });
  expect(collection.status(), await collection.text()).toBe(201);
});

test.afterAll(async () => {
  await new Promise<void>((resolve) => pages.close(() => resolve()));
});

async function openNewItem(page: Page) {
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await page.goto(newItemPath());
  await expect(page.getByRole('heading', { name: 'New Bookmarks item', level: 2 })).toBeVisible();
}

async function savedSites(page: Page): Promise<Record<string, unknown>[]> {
  const response = await page.request.get(`/api/organization/${made.organizationID}/project/${made.projectID}/collection/bookmarks/item`, { headers: bearer(made.token) });
  expect(response.status()).toBe(200);
  return (await response.json()) as Record<string, unknown>[];
}

test('a reachable page shows its title, description and image in the card, and the item saves', async ({ page }) => {
  const violations = watchCsp(page);
  await openNewItem(page);
  await box(page, 'name').fill('Article');
  await box(page, 'site').pressSequentially(`${pageBase}/article`);
  const card = field(page, 'site').getByRole('group', { name: /^Preview of 127\.0\.0\.2:/ });
  await expect(card).toBeVisible({ timeout: 15_000 });
  await expect(card.getByText(title)).toBeVisible();
  await expect(card.getByText(description)).toBeVisible();
  const image = card.locator('img');
  await expect(image).toHaveAttribute('src', /^blob:/);
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(300);
  // The page and its image were fetched by the server, once each.
  expect(seen.filter((url) => url === '/article')).toHaveLength(1);
  expect(seen.filter((url) => url === '/cover.png')).toHaveLength(1);
  expect(violations).toEqual([]);
  await expectAccessible(page, 'link preview card (light, 1280)');

  await page.getByRole('button', { name: 'Create Item' }).click();
  await expect(page.getByText('Item was created!')).toBeVisible();
  expect((await savedSites(page)).find((item) => item.name === 'Article')).toMatchObject({ site: `${pageBase}/article` });
});

test('a refused address shows "no preview" and the item still saves', async ({ page, baseURL }) => {
  await openNewItem(page);
  await box(page, 'name').fill('Metadata');
  const site = box(page, 'site');
  await site.pressSequentially('http://169.254.169.254/latest/meta-data/');
  await expect(field(page, 'site').getByText('No preview available for this address.')).toBeVisible({ timeout: 15_000 });
  // The server's own address is refused too; the field stays editable throughout.
  await site.fill(`${baseURL}/api/health`);
  await expect(field(page, 'site').getByText('No preview available for this address.')).toBeVisible({ timeout: 15_000 });
  await expect(site).toBeEditable();
  await site.fill('http://169.254.169.254/latest/meta-data/');
  await page.getByRole('button', { name: 'Create Item' }).click();
  await expect(page.getByText('Item was created!')).toBeVisible();
  expect((await savedSites(page)).find((item) => item.name === 'Metadata')).toMatchObject({ site: 'http://169.254.169.254/latest/meta-data/' });
});

for (const [colorScheme, width] of [
  ['dark', 1280],
  ['light', 900],
  ['dark', 900],
] as const) {
  test(`the card and the "no preview" note pass axe (${colorScheme}, ${width} px)`, async ({ browser }) => {
    const context = await browser.newContext({ colorScheme, reducedMotion: 'reduce', viewport: { width, height: 900 } });
    try {
      const page = await context.newPage();
      await openNewItem(page);
      await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
      await box(page, 'site').fill(`${pageBase}/article`);
      await expect(field(page, 'site').getByRole('group', { name: /^Preview of/ }).locator('img')).toHaveAttribute('src', /^blob:/, { timeout: 15_000 });
      await expectAccessible(page, `link preview card ${colorScheme} ${width}`);
      await page.screenshot({ path: `/tmp/link-preview-card-${colorScheme}-${width}.png` });
      await box(page, 'site').fill('http://10.0.0.1/');
      await expect(field(page, 'site').getByText('No preview available for this address.')).toBeVisible({ timeout: 15_000 });
      await expectAccessible(page, `no preview ${colorScheme} ${width}`);
      await page.screenshot({ path: `/tmp/link-preview-${colorScheme}-${width}.png`, fullPage: true });
    } finally {
      await context.close();
    }
  });
}
