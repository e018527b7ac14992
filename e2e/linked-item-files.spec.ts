/**
 * Files in the ItemRef picker's dialog: a linked item created in the dialog
 * gets its chosen image uploaded once it exists, as on the item page ("Uploading images",
 * "Images Uploaded"); editing a linked item from its chip deletes its image at once ("Image
 * deleted"). The image is a small PNG made here with sharp.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import sharp from 'sharp';
import { createVerifiedAccount } from './support/accounts.ts';
import { signIn } from './support/console.ts';
import { bearer, organizationWithProject, type Made } from './support/platform.ts';

let made: Made;
let account: Awaited<ReturnType<typeof createVerifiedAccount>>;
let dir = '';
let portrait = '';

const content = (...rest: string[]) => [`/api/organization/${made.organizationID}/project/${made.projectID}`, ...rest].join('/');
const fieldOf = (scope: Page | ReturnType<Page['getByRole']>, slug: string) => scope.locator(`[data-field="${slug}"]`).first();

async function authors(request: APIRequestContext) {
  const response = await request.get(content('collection', 'authors', 'item'), { headers: bearer(made.token), params: { perPage: 100 } });
  expect(response.status()).toBe(200);
  return (await response.json()) as (Record<string, unknown> & { _id: string })[];
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  dir = mkdtempSync(path.join(tmpdir(), 'larder-linked-files-e2e-'));
  portrait = path.join(dir, 'portrait.png');
  writeFileSync(portrait, await sharp({ create: { width: 320, height: 240, channels: 3, background: '#36c' } }).png().toBuffer());
  account = await createVerifiedAccount(request, 'linkedfiles');
  made = await organizationWithProject(request, account, { organization: 'Linked Files', project: 'Portraits' });
  for (const data of [
    {
      id: 'authors',
      name: 'Authors',
      schema: [
        { name: 'Name', slug: 'name', type: 1, required: true, primaryField: true },
        { name: 'Portrait', slug: 'portrait', type: 5 },
      ],
    },
    {
      id: 'books',
      name: 'Books',
      schema: [
        { name: 'Title', slug: 'title', type: 1, primaryField: true },
        { name: 'Author', slug: 'author', type: 6, referenceCollectionID: 'authors' },
      ],
    },
  ]) {
    const created = await request.post(content('collection'), { headers: bearer(made.token), data });
    expect(created.status(), await created.text()).toBe(201);
  }
});

test.afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('a linked item created in the dialog gets its image uploaded; editing it from its chip deletes the image', async ({ page, request }) => {
  test.setTimeout(120_000);
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await page.goto(`/organization/${made.organizationID}/project/${made.projectID}/collection/books/item`);
  await expect(page.getByRole('heading', { name: 'New Books item', level: 2 })).toBeVisible();

  await fieldOf(page, 'author').getByRole('button', { name: 'New Authors item' }).click();
  const dialog = page.getByRole('dialog', { name: 'New Authors item' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('textbox', { name: /^Name/ }).fill('Mary Somerville');
  const chooser = page.waitForEvent('filechooser');
  await fieldOf(dialog, 'portrait').getByRole('button', { name: 'Choose a file' }).click();
  await (await chooser).setFiles(portrait);
  await expect(fieldOf(dialog, 'portrait').getByText('portrait.png will be uploaded when the item is created.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Create Item' }).click();
  await expect(page.getByText('Images Uploaded')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(fieldOf(page, 'author').getByRole('list', { name: 'Linked items' }).getByText('Mary Somerville', { exact: true })).toBeVisible();

  const mary = (await authors(request)).find((item) => item.name === 'Mary Somerville');
  const stored = mary?.portrait as { imageURL: string; extension: string } | null | undefined;
  expect(stored?.extension).toBe('png');
  expect((await request.get(stored!.imageURL)).status()).toBe(200);

  // The chip's dialog shows the stored image, and deletes it at once.
  await fieldOf(page, 'author').getByRole('button', { name: 'Edit Mary Somerville' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Mary Somerville' });
  await expect(edit).toBeVisible();
  const remove = fieldOf(edit, 'portrait').getByRole('button', { name: /^Delete / });
  await expect(remove).toBeVisible();
  await remove.click();
  await expect(page.getByText('Image deleted')).toBeVisible();
  await expect.poll(async () => (await authors(request)).find((item) => item._id === mary!._id)?.portrait ?? null).toBeNull();
  await expect.poll(async () => (await request.get(stored!.imageURL)).status()).toBe(404);
});
