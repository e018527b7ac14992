/**
 * Files and phone numbers on the item page (docs/files.md): a duplicate made in the console keeps
 * its own files after the original is deleted; files are named by the name they were uploaded
 * with (never the stored random name), with an empty alt where no alt text was typed; in a nested
 * item folded beside its parent the Delete buttons stay inside their cards; the phone editor takes
 * "+1 (555) 010-2000" as typed, saves its digits, and nothing below it moves while typing or on
 * leaving it. Screenshots at 1280 and 900 px, light and dark, axe on each.
 */
import { mkdirSync } from 'node:fs';
import sharp from 'sharp';
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { createVerifiedAccount } from './support/accounts.ts';
import { expectAccessible } from './support/axe.ts';
import { signIn } from './support/console.ts';
import { bearer, organizationWithProject, type Made } from './support/platform.ts';

const shots = '.tmp/shots/files-phone';
mkdirSync(shots, { recursive: true });

let made: Made;
let account: Awaited<ReturnType<typeof createVerifiedAccount>>;
const ids = { original: '', stop: '', copy: '' };
const themes = ['light', 'dark'] as const;
const widths = [1280, 900] as const;
const longName = 'Harbour at dusk, seen from the old lighthouse pier.png';

const content = (...rest: string[]) => [`/api/organization/${made.organizationID}/project/${made.projectID}`, ...rest].join('/');
const itemPath = (...rest: string[]) => [`/organization/${made.organizationID}/project/${made.projectID}/collection/places/item`, ...rest].join('/');
const field = (page: Page, slug: string): Locator => page.locator(`.field-editor[data-field="${slug}"]`);

interface Image {
  imageURL: string;
  imageName: string;
  altText: string;
  fileName?: string;
}

const png = (background: string) => sharp({ create: { width: 320, height: 200, channels: 3, background } }).png().toBuffer();

async function upload(request: APIRequestContext, item: string, slug: string, name: string, bytes: Buffer, options: { altText?: string; nestedID?: string } = {}) {
  const answer = await request.put(`${content('collection', 'places', 'item', item, 'image')}?imageSlug=${slug}&nestedID=${options.nestedID ?? ''}`, {
    headers: bearer(made.token),
    multipart: { ...(options.altText ? { altText: options.altText } : {}), imageFile: { name, mimeType: 'image/png', buffer: bytes } },
  });
  expect(answer.status(), await answer.text()).toBe(200);
}

async function item(request: APIRequestContext, id: string, nestedID?: string) {
  const answer = await request.get(`${content('collection', 'places', 'item', id)}${nestedID ? `?nestedID=${nestedID}` : ''}`, { headers: bearer(made.token) });
  expect(answer.status()).toBe(200);
  return (await answer.json()) as Record<string, unknown> & { _id: string };
}

async function open(page: Page, path: string, width: number, theme: (typeof themes)[number]) {
  await page.setViewportSize({ width, height: 1000 });
  await page.emulateMedia({ colorScheme: theme });
  await page.goto(path);
  await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
}

/** Every stored image on the page has loaded (a broken one has no natural width). */
async function expectImagesLoaded(scope: Locator) {
  const pictures = scope.locator('img.media-image-element');
  await expect(pictures.first()).toBeVisible();
  for (const picture of await pictures.all()) {
    await picture.scrollIntoViewIfNeeded();
    await expect.poll(() => picture.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
  }
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  account = await createVerifiedAccount(request, 'filesphone');
  made = await organizationWithProject(request, account, { organization: 'Harbours', project: 'Guide' });
  const created = await request.post(content('collection'), {
    headers: bearer(made.token),
    data: {
      id: 'places',
      name: 'Places',
      schema: [
        { name: 'Title', slug: 'title', type: 1, primaryField: true },
        { name: 'Phone', slug: 'phone', type: 4 },
        { name: 'Notes', slug: 'notes', type: 1 },
        { name: 'Photo', slug: 'photo', type: 5 },
        { name: 'Gallery', slug: 'gallery', type: 11 },
        {
          name: 'Stops',
          slug: 'stops',
          type: 12,
          nestedCollectionSchema: [
            { name: 'Name', slug: 'name', type: 1, primaryField: true },
            { name: 'Cover', slug: 'cover', type: 5 },
            { name: 'Pictures', slug: 'pictures', type: 11 },
          ],
        },
      ],
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const original = await request.post(content('collection', 'places', 'item'), { headers: bearer(made.token), data: { title: 'Harbour', phone: '5550100' } });
  expect(original.status(), await original.text()).toBe(201);
  ids.original = ((await original.json()) as { _id: string })._id;
  await upload(request, ids.original, 'photo', 'Harbour at dusk.png', await png('#2a6f97'), { altText: 'Boats at the quay' });
  await upload(request, ids.original, 'gallery', 'pier.png', await png('#c33'));
  await upload(request, ids.original, 'gallery', longName, await png('#3a3'));
  const stop = await request.post(`${content('collection', 'places', 'item', ids.original)}?nestedID=stops`, { headers: bearer(made.token), data: { name: 'Lighthouse' } });
  expect(stop.status(), await stop.text()).toBe(201);
  ids.stop = ((await stop.json()) as { _id: string })._id;
  await upload(request, ids.original, 'cover', longName, await png('#aa3'), { nestedID: `stops.${ids.stop}` });
  await upload(request, ids.original, 'pictures', 'lamp-room.png', await png('#3aa'), { nestedID: `stops.${ids.stop}` });
  await upload(request, ids.original, 'pictures', longName, await png('#a3a'), { nestedID: `stops.${ids.stop}` });
});

test('files are named by the names they were uploaded with, with an empty alt where none was typed; nested Delete buttons stay in their cards', async ({ page, request }) => {
  test.setTimeout(240_000);
  const stored = await item(request, ids.original);
  const hash = (stored.photo as Image).imageName;
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  for (const width of widths) {
    for (const theme of themes) {
      await open(page, itemPath(ids.original), width, theme);
      await expect(page.getByRole('heading', { name: 'Harbour', level: 2 })).toBeVisible();
      const photo = field(page, 'photo');
      await expect(photo.getByText('Harbour at dusk.png', { exact: true })).toBeVisible();
      await expect(photo.getByRole('link', { name: 'Download Harbour at dusk.png' })).toBeVisible();
      await expect(photo.getByRole('button', { name: 'Delete Harbour at dusk.png' })).toHaveText('Delete');
      await expect(photo.getByRole('img', { name: 'Boats at the quay' })).toBeVisible();
      const gallery = field(page, 'gallery');
      await expect(gallery.getByRole('textbox', { name: 'Alt text of pier.png' })).toBeVisible();
      await expect(gallery.locator('img.media-image-element').first()).toHaveAttribute('alt', '');
      await expect(page.locator('main')).not.toContainText(hash);
      await expectImagesLoaded(gallery);
      await photo.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${shots}/names-${width}-${theme}.png` });
      await expectAccessible(page, `item with named files at ${width} px, ${theme}`);

      // The nested item, folded beside its parent: its cards hold their Delete buttons.
      await open(page, itemPath(ids.original, 'nestedID', 'stops', 'item', ids.stop), width, theme);
      const pane = page.locator(`[data-fold-pane='deepest']`);
      const cover = pane.locator(`.field-editor[data-field="cover"]`);
      await expect(cover.getByRole('button', { name: `Delete ${longName}` })).toHaveText('Delete');
      const pictures = pane.locator(`.field-editor[data-field="pictures"]`);
      await expect(pictures.getByRole('button', { name: 'Delete lamp-room.png' })).toBeVisible();
      await expectImagesLoaded(pane);
      const overflow = await pane.evaluate((root) => {
        const out: string[] = [];
        for (const button of root.querySelectorAll('button, a.button')) {
          const card = button.closest('.file-set-entry, .editor-image, .fold-pane');
          if (!card) continue;
          const inner = button.getBoundingClientRect();
          const outer = card.getBoundingClientRect();
          if (inner.right > outer.right + 0.5 || inner.left < outer.left - 0.5) out.push(`${button.textContent} overflows ${card.className} by ${Math.round(inner.right - outer.right)} px`);
        }
        // Nothing in the pane is wider than the pane.
        if (root.scrollWidth > root.clientWidth + 1) out.push(`the pane scrolls sideways by ${root.scrollWidth - root.clientWidth} px`);
        return out;
      });
      expect(overflow).toEqual([]);
      await pictures.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${shots}/nested-${width}-${theme}.png` });
      await expectAccessible(page, `nested item with files at ${width} px, ${theme}`);
    }
  }
});

test('a duplicate made in the console keeps its files after the original is deleted', async ({ page, request }) => {
  test.setTimeout(240_000);
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await open(page, itemPath(ids.original), 1280, 'light');
  await expect(page.getByRole('heading', { name: 'Harbour', level: 2 })).toBeVisible();
  await page.getByRole('button', { name: 'Item menu' }).click();
  await page.getByRole('menuitem', { name: 'Duplicate Item' }).click();
  await expect(page.getByRole('heading', { name: 'New Places item', level: 2 })).toBeVisible();
  const title = field(page, 'title').getByRole('textbox');
  // The copy's values are in the form before the title is changed.
  await expect(title).toHaveValue('Harbour');
  await expect(field(page, 'photo').getByText('Harbour at dusk.png', { exact: true })).toBeVisible();
  await title.fill('Harbour copy');
  await expect(title).toHaveValue('Harbour copy');
  await page.getByRole('button', { name: 'Create Item' }).click();
  await expect(page.getByText('Item was created!')).toBeVisible();

  const titles = async () => {
    const answer = await request.get(content('collection', 'places', 'item'), { headers: bearer(made.token), params: { perPage: 100 } });
    return (await answer.json()) as { _id: string; title: string }[];
  };
  await expect.poll(async () => (await titles()).map((entry) => entry.title)).toContain('Harbour copy');
  ids.copy = (await titles()).find((entry) => entry.title === 'Harbour copy')!._id;
  const copy = await item(request, ids.copy);
  const original = await item(request, ids.original);
  const copyPhoto = copy.photo as Image;
  expect(copyPhoto.imageURL).not.toBe((original.photo as Image).imageURL);
  expect(copyPhoto.imageURL).toContain(`/i/${ids.copy}/`);
  expect(copyPhoto.fileName).toBe('Harbour at dusk.png');
  expect((copy.gallery as Image[]).map((entry) => entry.fileName)).toEqual(['pier.png', longName]);

  // The original goes; its files with it, the copy's stay.
  const deleted = await request.delete(content('collection', 'places', 'item', ids.original), { headers: bearer(made.token) });
  expect(deleted.status()).toBe(204);
  await expect.poll(async () => (await request.get((original.photo as Image).imageURL)).status()).toBe(404);
  for (const url of [copyPhoto.imageURL, ...(copy.gallery as Image[]).map((entry) => entry.imageURL)]) expect((await request.get(url)).status(), url).toBe(200);

  for (const width of widths) {
    for (const theme of themes) {
      await open(page, itemPath(ids.copy), width, theme);
      await expect(page.getByRole('heading', { name: 'Harbour copy', level: 2 })).toBeVisible();
      await expect(field(page, 'photo').getByRole('img', { name: 'Boats at the quay' })).toBeVisible();
      await expectImagesLoaded(page.locator('main'));
      await field(page, 'photo').scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${shots}/duplicate-${width}-${theme}.png` });
      await expectAccessible(page, `duplicate after its original was deleted at ${width} px, ${theme}`);
    }
  }
});

test('the phone editor takes "+1 (555) 010-2000" as typed, saves its digits, and nothing below it moves', async ({ page, request }) => {
  test.setTimeout(240_000);
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  for (const width of widths) {
    for (const theme of themes) {
      await open(page, itemPath(ids.copy), width, theme);
      await expect(page.getByRole('heading', { name: 'Harbour copy', level: 2 })).toBeVisible();
      const phone = field(page, 'phone').getByRole('textbox');
      const below = field(page, 'notes');
      const top = async () => (await below.boundingBox())!.y;
      const before = await top();
      await phone.fill('');
      await expect.poll(top).toBe(before);
      await phone.pressSequentially('+1 (555) 010-2000');
      await expect(phone).toHaveValue('+1 (555) 010-2000');
      await expect(field(page, 'phone').getByText('Saved as 15550102000')).toBeVisible();
      await expect(field(page, 'phone').locator('.field-error')).toHaveCount(0);
      expect(await top()).toBe(before);
      // A letter does nothing, and says so in the same line.
      await phone.press('x');
      await expect(phone).toHaveValue('+1 (555) 010-2000');
      await expect(field(page, 'phone').getByText('A phone number holds digits, spaces and + ( ) - . only.')).toBeVisible();
      expect(await top()).toBe(before);
      await page.screenshot({ path: `${shots}/phone-typing-${width}-${theme}.png` });
      await expectAccessible(page, `phone while typing at ${width} px, ${theme}`);
      // Leaving the field keeps what was typed, and nothing moves.
      await field(page, 'notes').getByRole('textbox').click();
      await expect(phone).toHaveValue('+1 (555) 010-2000');
      expect(await top()).toBe(before);
      await page.screenshot({ path: `${shots}/phone-left-${width}-${theme}.png` });
      // Back to the stored number: nothing is left unsaved before the next width or theme.
      await phone.fill('5550100');
      await expect(page.getByRole('button', { name: 'Update' })).toBeDisabled();
    }
  }
  await open(page, itemPath(ids.copy), 1280, 'light');
  await field(page, 'phone').getByRole('textbox').fill('');
  await field(page, 'phone').getByRole('textbox').pressSequentially('+1 (555) 010-2000');
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(page.getByText('Item was updated!')).toBeVisible();
  expect((await item(request, ids.copy)).phone).toBe('15550102000');
});
