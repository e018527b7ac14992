/**
 * Uploads from the item page: a new item is created, then
 * its chosen image uploaded ("Uploading images", "Images Uploaded"); the list shows its `resize=200`
 * thumbnail; on the saved item the image is replaced (the old file goes) and deleted ("Image
 * deleted"); a file above the limit is refused before any request; an image set gets three files,
 * is reordered by keyboard and keeps the order after a reload; axe on the item page with files in
 * light and dark at 1280 and 900 px. The images are small PNGs made here with sharp.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { createVerifiedAccount } from './support/accounts.ts';
import { expectAccessible } from './support/axe.ts';
import { signIn } from './support/console.ts';
import { bearer, organizationWithProject, type Made } from './support/platform.ts';

let made: Made;
let account: Awaited<ReturnType<typeof createVerifiedAccount>>;
let dir = '';
const files: Record<string, string> = {};
let itemID = '';

const content = (...rest: string[]) => [`/api/organization/${made.organizationID}/project/${made.projectID}`, ...rest].join('/');
const listPath = () => `/organization/${made.organizationID}/project/${made.projectID}/collection/media`;
const field = (page: Page, slug: string) => page.locator(`[data-field="${slug}"]`);

interface Image {
  _id?: string;
  imageURL: string;
  imageName: string;
  /** The name it was uploaded with, which the editors show. */
  fileName?: string;
  altText: string;
}

async function item(request: APIRequestContext): Promise<Record<string, unknown>> {
  const answer = await request.get(content('collection', 'media', 'item', itemID), { headers: bearer(made.token) });
  expect(answer.status()).toBe(200);
  return (await answer.json()) as Record<string, unknown>;
}

async function signInTo(page: Page, where: string) {
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await page.goto(where);
}

/** Chooses files the way a person does: the button opens the browser's file chooser. */
async function choose(page: Page, slug: string, button: string, paths: string[]) {
  const chooser = page.waitForEvent('filechooser');
  await field(page, slug).getByRole('button', { name: button }).click();
  await (await chooser).setFiles(paths);
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  dir = mkdtempSync(path.join(tmpdir(), 'larder-media-e2e-'));
  const colours: [string, string][] = [
    ['red.png', '#c33'],
    ['blue.png', '#33c'],
    ['one.png', '#3a3'],
    ['two.png', '#aa3'],
    ['three.png', '#3aa'],
  ];
  for (const [name, background] of colours) {
    files[name] = path.join(dir, name);
    writeFileSync(files[name], await sharp({ create: { width: 640, height: 480, channels: 3, background } }).png().toBuffer());
  }
  // Noise does not compress: about 700 kB, long enough to watch its upload on a throttled line.
  const noise = Buffer.from(Array.from({ length: 480 * 480 * 3 }, () => Math.floor(Math.random() * 256)));
  files['noise.png'] = path.join(dir, 'noise.png');
  writeFileSync(files['noise.png'], await sharp(noise, { raw: { width: 480, height: 480, channels: 3 } }).png().toBuffer());
  account = await createVerifiedAccount(request, 'media');
  made = await organizationWithProject(request, account, { organization: 'Media Org', project: 'Media Project' });
  const created = await request.post(content('collection'), {
    headers: bearer(made.token),
    data: {
      id: 'media',
      name: 'Media',
      schema: [
        { name: 'Title', slug: 'title', type: 1, primaryField: true },
        { name: 'Photo', slug: 'photo', type: 5 },
        { name: 'Gallery', slug: 'gallery', type: 11 },
      ],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
});

test.afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('a new item is created, then its image uploaded; the list shows its thumbnail', async ({ page, request }) => {
  await signInTo(page, `${listPath()}/item`);
  await expect(page.getByRole('heading', { name: 'New Media item', level: 2 })).toBeVisible();
  await field(page, 'title').getByRole('textbox').fill('Red square');
  await choose(page, 'photo', 'Choose a file', [files['red.png']!]);
  await expect(field(page, 'photo').getByText('red.png will be uploaded when the item is created.')).toBeVisible();
  // No alt text typed yet: the preview's alt is empty (its name is written beside it).
  await expect(field(page, 'photo').locator('img.file-pending-image')).toHaveAttribute('alt', '');
  await field(page, 'photo').getByRole('textbox', { name: 'Alt text' }).fill('A red square');

  const writes: string[] = [];
  page.on('request', (r) => {
    if (r.method() !== 'GET' && r.url().includes('/collection/media/item')) writes.push(`${r.method()} ${new URL(r.url()).pathname.replace(/.*\/collection\/media\//, '')}`);
  });
  await page.getByRole('button', { name: 'Create Item' }).click();
  await expect(page.getByText('Item was created!')).toBeVisible();
  await expect(page.getByText('Uploading images')).toBeVisible();
  await expect(page.getByText('Images Uploaded')).toBeVisible();
  // Close after saving is on: the list, once the image is in.
  await expect(page).toHaveURL(new RegExp(`${listPath()}$`));
  // Create first, then the upload into the new item.
  expect(writes[0]).toBe('POST item');
  expect(writes[1]).toMatch(/^PUT item\/[0-9a-f]{24}\/image$/);
  itemID = writes[1]!.split('/')[1]!;

  const stored = (await item(request)).photo as Image;
  expect(stored).toMatchObject({ altText: 'A red square', extension: 'png' });

  // The list's thumbnail: resize=200, loaded, at most 200 px wide.
  const thumbnail = page.getByRole('img', { name: 'A red square' });
  await expect(thumbnail).toBeVisible();
  await expect(thumbnail).toHaveAttribute('src', `${stored.imageURL}?resize=200`);
  await expect.poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  const natural = await thumbnail.evaluate((img: HTMLImageElement) => img.naturalWidth);
  expect(natural).toBeLessThanOrEqual(200);
});

test('on a saved item the image is replaced at once, refused above the limit, and deleted', async ({ page, request }) => {
  const before = (await item(request)).photo as Image;
  await signInTo(page, `${listPath()}/item/${itemID}`);
  await expect(page.getByRole('heading', { name: 'Red square', level: 2 })).toBeVisible();
  await expect(field(page, 'photo').getByRole('img', { name: 'A red square' })).toBeVisible();
  await expect(field(page, 'photo').getByRole('link', { name: /Download/ })).toHaveAttribute('href', `${before.imageURL}?download=true`);

  // Above the limit: refused here, nothing sent.
  let uploads = 0;
  page.on('request', (r) => {
    if (r.method() === 'PUT' && r.url().includes('/image?')) uploads += 1;
  });
  const chooser = page.waitForEvent('filechooser');
  await field(page, 'photo').getByRole('button', { name: 'Replace the file' }).click();
  await (await chooser).setFiles({ name: 'huge.png', mimeType: 'image/png', buffer: Buffer.alloc(10_000_001) });
  await expect(field(page, 'photo').getByRole('alert')).toHaveText('File is too large, files must be below 10mb');
  expect(await field(page, 'photo').locator('input[type="file"]').evaluate((input: HTMLInputElement) => input.files?.length ?? 0)).toBe(0);
  expect(uploads).toBe(0);

  // Replaced at once: the new file shows, the old one is gone from the server.
  await choose(page, 'photo', 'Replace the file', [files['blue.png']!]);
  await expect.poll(async () => ((await item(request)).photo as Image | undefined)?.imageName).not.toBe(before.imageName);
  const after = (await item(request)).photo as Image;
  await expect(field(page, 'photo').getByRole('img', { name: 'A red square' })).toHaveAttribute('src', after.imageURL);
  expect(uploads).toBe(1);
  expect((await request.get(before.imageURL)).status()).toBe(404);
  // Nothing is left unsaved: the upload was the change.
  await expect(page.getByRole('button', { name: 'Update' })).toBeDisabled();

  await field(page, 'photo').getByRole('button', { name: `Delete ${after.fileName}` }).click();
  await expect(page.getByText('Image deleted')).toBeVisible();
  await expect(field(page, 'photo').getByText('No file yet.')).toBeVisible();
  expect((await item(request)).photo ?? null).toBeNull();
  expect((await request.get(after.imageURL)).status()).toBe(404);
});

test('an image set gets three files, is reordered by keyboard and keeps the order', async ({ page, request }) => {
  await signInTo(page, `${listPath()}/item/${itemID}`);
  await expect(page.getByRole('heading', { name: 'Red square', level: 2 })).toBeVisible();
  await choose(page, 'gallery', 'Add files', [files['one.png']!, files['two.png']!, files['three.png']!]);
  const handles = field(page, 'gallery').getByRole('button', { name: /^Move / });
  await expect(handles).toHaveCount(3);
  await expect(field(page, 'gallery').getByRole('progressbar')).toHaveCount(0);
  const stored = (await item(request)).gallery as Image[];
  expect(stored.map((image) => image.imageName.split('.').pop())).toEqual(['png', 'png', 'png']);
  const names = stored.map((image) => image.imageName);
  // The editors name each file by the name it was uploaded with.
  const shown = stored.map((image) => image.fileName!);
  expect(shown).toEqual(['one.png', 'two.png', 'three.png']);

  // Alt text per file, then the first moves down one place by keyboard.
  await field(page, 'gallery').getByRole('textbox', { name: `Alt text of ${shown[0]}` }).fill('First one');
  const first = field(page, 'gallery').getByRole('button', { name: `Move ${shown[0]}` });
  await first.focus();
  await page.keyboard.press('Space');
  await expect(first).toHaveAttribute('aria-pressed', 'true');
  await page.keyboard.press('ArrowDown');
  await expect(page.getByText(`${shown[0]} is at position 2 of 3.`)).toBeAttached();
  await page.keyboard.press('Space');
  await expect(page.getByText(`${shown[0]} dropped at position 2 of 3.`)).toBeAttached();
  await expect(handles.nth(0)).toHaveAccessibleName(`Move ${shown[1]}`);
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(page.getByText('Item was updated!')).toBeVisible();

  const saved = (await item(request)).gallery as Image[];
  expect(saved.map((image) => image.imageName)).toEqual([names[1], names[0], names[2]]);
  expect(saved[1]!.altText).toBe('First one');
  // Close after saving took the page to the list: the item is opened afresh.
  await expect(page).toHaveURL(new RegExp(`${listPath()}$`));
  await page.goto(`${listPath()}/item/${itemID}`);
  await expect(field(page, 'gallery').getByRole('button', { name: /^Move / })).toHaveCount(3);
  await expect(field(page, 'gallery').getByRole('button', { name: /^Move / }).nth(0)).toHaveAccessibleName(`Move ${shown[1]}`);
  await expect(field(page, 'gallery').getByRole('button', { name: /^Move / }).nth(1)).toHaveAccessibleName(`Move ${shown[0]}`);

  // One file of the set deleted.
  await field(page, 'gallery').getByRole('button', { name: `Delete ${shown[2]}` }).click();
  await expect(page.getByText('Image deleted')).toBeVisible();
  await expect(field(page, 'gallery').getByRole('button', { name: /^Move / })).toHaveCount(2);
  expect(((await item(request)).gallery as Image[]).map((image) => image.imageName)).toEqual([names[1], names[0]]);
});

test('a slow upload shows its progress, and the set cannot be reordered meanwhile', async ({ page, request }) => {
  await signInTo(page, `${listPath()}/item/${itemID}`);
  await expect(field(page, 'gallery').getByRole('button', { name: /^Move / })).toHaveCount(2);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 20, downloadThroughput: -1, uploadThroughput: 150 * 1024 });
  await choose(page, 'gallery', 'Add files', [files['noise.png']!]);
  const bar = field(page, 'gallery').getByRole('progressbar', { name: 'Uploading noise.png' });
  await expect(bar).toBeVisible();
  // Part of the file has gone, not all of it, and it moves on.
  await expect.poll(async () => Number(await bar.getAttribute('value')), { timeout: 15_000 }).toBeGreaterThan(0);
  const seen = Number(await bar.getAttribute('value'));
  expect(seen).toBeLessThan(1);
  await expect(field(page, 'gallery').getByText(/^Uploading noise\.png: \d+%$/)).toBeVisible();
  // Nothing can be dragged (or saved) while it uploads.
  for (const handle of await field(page, 'gallery').getByRole('button', { name: /^Move / }).all()) await expect(handle).toHaveAttribute('aria-disabled', 'true');
  await expect(page.getByRole('button', { name: 'Update' })).toBeDisabled();
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
  await expect(bar).toBeHidden({ timeout: 30_000 });
  await expect(field(page, 'gallery').getByRole('button', { name: /^Move / })).toHaveCount(3);
  await expect(field(page, 'gallery').getByRole('button', { name: /^Move / }).first()).toHaveAttribute('aria-disabled', 'false');
  expect(((await item(request)).gallery as Image[])).toHaveLength(3);
});

// One look per theme and per width (docs/architecture.md "Looks in the browser suite").
for (const [colorScheme, width] of [
  ['light', 1280],
  ['dark', 900],
] as const) {
  test(`the item page with files passes axe (${colorScheme}, ${width} px)`, async ({ browser, request }) => {
    // A photo again (over the API), so the page shows both editors filled.
    if (!((await item(request)).photo as Image | undefined)?.imageURL) {
      const put = await request.put(`${content('collection', 'media', 'item', itemID, 'image')}?imageSlug=photo`, {
        headers: bearer(made.token),
        multipart: { altText: 'Blue square', imageFile: { name: 'blue.png', mimeType: 'image/png', buffer: await sharp({ create: { width: 320, height: 240, channels: 3, background: '#33c' } }).png().toBuffer() } },
      });
      expect(put.status(), await put.text()).toBe(200);
    }
    const context = await browser.newContext({ colorScheme, reducedMotion: 'reduce', viewport: { width, height: 900 } });
    try {
      const page = await context.newPage();
      await signInTo(page, `${listPath()}/item/${itemID}`);
      await expect(page.getByRole('heading', { name: 'Red square', level: 2 })).toBeVisible();
      await expect(field(page, 'photo').getByRole('img', { name: 'Blue square' })).toBeVisible();
      await expect(field(page, 'gallery').getByRole('button', { name: /^Move / })).toHaveCount(3);
      await expectAccessible(page, `item page with files, ${colorScheme} ${width}`);
      // The list with its thumbnails.
      await page.goto(listPath());
      await expect(page.getByRole('img', { name: 'Blue square' })).toBeVisible();
      await expectAccessible(page, `list with thumbnails, ${colorScheme} ${width}`);
      // A new item with a chosen file waiting (last: leaving it would ask).
      await page.goto(`${listPath()}/item`);
      await choose(page, 'photo', 'Choose a file', [files['red.png']!]);
      await expect(field(page, 'photo').getByText('red.png will be uploaded when the item is created.')).toBeVisible();
      await expectAccessible(page, `new item with a chosen file, ${colorScheme} ${width}`);
    } finally {
      await context.close();
    }
  });
}
