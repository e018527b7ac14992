/**
 * The schema builder as a person uses it: one field of every type through
 * the picker, reordering by dragging (keyboard and mouse) kept after a reload, fields three levels
 * deep inside nested collections, and the two-click field delete; with accessibility scans.
 */
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { createVerifiedAccount } from './support/accounts.ts';
import { expectAccessible } from './support/axe.ts';
import { signIn } from './support/console.ts';
import { bearer, organizationWithProject, type Made } from './support/platform.ts';

interface Field {
  id: string;
  name: string;
  slug: string;
  type: number;
  nestedCollectionSchema?: Field[];
}

/** Every type the picker offers, as labelled, with what its draft needs besides a name. */
const types: { label: string; fill?: (draft: Locator) => Promise<void> }[] = [
  { label: 'Plain text' },
  { label: 'Rich text' },
  { label: 'Number' },
  { label: 'Phone' },
  { label: 'Image' },
  {
    label: 'Item reference',
    fill: async (draft) => {
      await draft.getByLabel('Referenced collection').selectOption('authors');
    },
  },
  {
    label: 'Option',
    fill: async (draft) => {
      await draft.getByRole('textbox', { name: 'New option' }).fill('Red');
      await draft.getByRole('button', { name: 'Add option' }).click();
      await draft.getByRole('textbox', { name: 'New option' }).fill('Green');
      await draft.getByRole('textbox', { name: 'New option' }).press('Enter');
    },
  },
  {
    label: 'Boolean',
    fill: async (draft) => {
      await draft.getByLabel('Default value').selectOption('true');
    },
  },
  { label: 'Link' },
  { label: 'Date' },
  { label: 'Image set' },
  { label: 'Nested collection' },
  { label: 'Map location' },
  { label: 'JSON' },
];

const contentPath = (made: Made, rest: string) => `/api/organization/${made.organizationID}/project/${made.projectID}/${rest}`;

async function schemaOf(request: APIRequestContext, made: Made, nestedID?: string): Promise<Field[]> {
  const response = await request.get(contentPath(made, 'collection/articles/schema'), { headers: bearer(made.token), params: nestedID ? { nestedID } : {} });
  expect(response.status()).toBe(200);
  return (await response.json()) as Field[];
}

/** The names of a level's fields as shown, top to bottom. */
const shownNames = (list: Locator) => list.locator(':scope > li .field-card-name').allTextContents();

/** Adds a field through the picker of `level` (the last picker in it is the level's own). */
async function addField(page: Page, level: Locator, typeLabel: string, name: string, fill?: (draft: Locator) => Promise<void>) {
  await level.getByRole('button', { name: 'Create new field' }).last().click();
  await page.getByRole('menuitem', { name: typeLabel, exact: true }).click();
  const draft = page.getByRole('region', { name: `New ${typeLabel} field` });
  await expect(draft.getByLabel('Name', { exact: true })).toBeFocused();
  await draft.getByLabel('Name', { exact: true }).fill(name);
  if (fill) await fill(draft);
  await draft.getByRole('button', { name: 'Save field' }).click();
  await expect(draft).toHaveCount(0);
  await expect(level.getByRole('button', { name: `Edit ${name}`, exact: true })).toBeVisible();
}

test('a schema is built with every field type, reordered by dragging, nested three deep and pruned', async ({ page, request }) => {
  test.setTimeout(240_000);
  const admin = await createVerifiedAccount(request, 'schemer');
  const made = await organizationWithProject(request, admin, { organization: 'Schemas', project: 'Magazine' });
  for (const name of ['Articles', 'Authors']) {
    const created = await request.post(contentPath(made, 'collection'), { headers: bearer(made.token), data: { name } });
    expect(created.status()).toBe(201);
  }

  await signIn(page, admin);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await page.goto(`/organization/${made.organizationID}/project/${made.projectID}/collection/articles/edit`);
  const top = page.locator('.schema-builder > .schema-level');
  const fields = page.getByRole('list', { name: 'Fields of Articles' });
  await expect(fields).toBeVisible();

  // The picker lists every type but Metadata.
  await top.getByRole('button', { name: 'Create new field' }).last().click();
  const offered = await page.getByRole('menuitem').allTextContents();
  expect(offered).toEqual(types.map((type) => type.label));
  await page.keyboard.press('Escape');

  // A draft's tick waits for the rules; its slug follows the name.
  await top.getByRole('button', { name: 'Create new field' }).last().click();
  await page.getByRole('menuitem', { name: 'Option', exact: true }).click();
  const optionDraft = page.getByRole('region', { name: 'New Option field' });
  await expect(optionDraft.getByRole('button', { name: 'Save field' })).toBeDisabled();
  await optionDraft.getByLabel('Name', { exact: true }).fill('Draft only');
  await expect(optionDraft.getByLabel('Slug', { exact: true })).toHaveValue('draftOnly');
  await expect(optionDraft.getByRole('button', { name: 'Save field' })).toBeDisabled();
  await expectAccessible(page, 'schema builder with a draft');
  await optionDraft.getByRole('button', { name: 'Discard' }).click();
  await expect(optionDraft).toHaveCount(0);

  for (const type of types) await addField(page, top, type.label, `${type.label} field`, type.fill);
  const saved = await schemaOf(request, made);
  expect(saved.map((field) => field.name)).toEqual([...types.map((type) => `${type.label} field`), 'Metadata']);
  expect(new Set(saved.map((field) => field.type)).size).toBe(types.length + 1);

  // Keyboard dragging: the handle, Space, arrow, Space.
  const order = page.waitForResponse((response) => response.url().includes('/schema/order') && response.request().method() === 'PUT', { timeout: 15_000 });
  await fields.getByRole('button', { name: 'Move Plain text field' }).focus();
  // A person's pace: each key is handled after the list has been measured for the last one.
  for (const key of ['Space', 'ArrowDown', 'ArrowDown', 'Space']) {
    await page.keyboard.press(key);
    await page.waitForTimeout(150);
  }
  await expect(page.getByText('Plain text field dropped at position 3 of 15.')).toBeAttached();
  expect((await order).status()).toBe(200);
  await expect.poll(() => shownNames(fields).then((names) => names.slice(0, 3))).toEqual(['Rich text field', 'Number field', 'Plain text field']);

  // Mouse dragging, in steps: Phone field up above Rich text field.
  const again = page.waitForResponse((response) => response.url().includes('/schema/order') && response.request().method() === 'PUT', { timeout: 15_000 });
  const handle = fields.getByRole('button', { name: 'Move Phone field' });
  const target = fields.getByRole('button', { name: 'Move Rich text field' });
  await target.scrollIntoViewIfNeeded();
  const from = (await handle.boundingBox())!;
  const to = (await target.boundingBox())!;
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  await page.mouse.move(from.x + from.width / 2, from.y - 10, { steps: 5 });
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 4, { steps: 25 });
  await page.mouse.up();
  expect((await again).status()).toBe(200);
  const expected = ['Phone field', 'Rich text field', 'Number field', 'Plain text field'];
  await expect.poll(() => shownNames(fields).then((names) => names.slice(0, 4))).toEqual(expected);

  await page.reload();
  await expect(fields).toBeVisible();
  await expect.poll(() => shownNames(fields).then((names) => names.slice(0, 4))).toEqual(expected);
  expect((await schemaOf(request, made)).slice(0, 4).map((field) => field.name)).toEqual(expected);

  // Inside the nested collection, and two levels further down.
  await fields.getByRole('button', { name: 'Edit Nested collection field', exact: true }).click();
  const nested = page.locator('.schema-level-nested').first();
  await expect(nested.getByRole('heading', { name: 'Nested schema of Nested collection field' })).toBeVisible();
  await addField(page, nested, 'Plain text', 'Verse');
  await addField(page, nested, 'Nested collection', 'Lines');
  await nested.getByRole('button', { name: 'Edit Lines', exact: true }).click();
  const lines = nested.locator('.schema-level-nested').first();
  await addField(page, lines, 'Nested collection', 'Words');
  await lines.getByRole('button', { name: 'Edit Words', exact: true }).click();
  const words = lines.locator('.schema-level-nested').first();
  await addField(page, words, 'Number', 'Syllables');
  expect((await schemaOf(request, made, 'nestedCollectionField')).map((field) => field.name)).toEqual(['Verse', 'Lines', 'Metadata']);
  expect((await schemaOf(request, made, 'nestedCollectionField.lines.words')).map((field) => field.name)).toEqual(['Syllables', 'Metadata']);
  await expectAccessible(page, 'schema builder with nested schemas open');

  // Deleting takes two clicks.
  await fields.getByRole('button', { name: 'Edit Phone field', exact: true }).click();
  const panel = page.getByRole('group', { name: 'Phone field' });
  await panel.getByRole('button', { name: 'Delete' }).click();
  await expect(panel.getByText('Deleting the field will permanently delete all associated data in the collection')).toBeVisible();
  expect((await schemaOf(request, made)).some((field) => field.name === 'Phone field')).toBe(true);
  await expectAccessible(page, 'schema builder confirming a field delete');
  await panel.getByRole('button', { name: 'Confirm Delete' }).click();
  await expect(fields.getByRole('button', { name: 'Edit Phone field', exact: true })).toHaveCount(0);
  expect((await schemaOf(request, made)).some((field) => field.name === 'Phone field')).toBe(false);
});

test('a field is changed in place and the narrow screen keeps the builder usable', async ({ page, request }) => {
  const admin = await createVerifiedAccount(request, 'editor');
  const made = await organizationWithProject(request, admin, { organization: 'Edits', project: 'Blog' });
  const created = await request.post(contentPath(made, 'collection'), {
    headers: bearer(made.token),
    data: { name: 'Articles', schema: [{ name: 'Title', slug: 'title', type: 1 }] },
  });
  expect(created.status()).toBe(201);
  await page.setViewportSize({ width: 900, height: 900 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await signIn(page, admin);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await page.goto(`/organization/${made.organizationID}/project/${made.projectID}/collection/articles/edit`);
  const fields = page.getByRole('list', { name: 'Fields of Articles' });
  await fields.getByRole('button', { name: 'Edit Title' }).click();
  const panel = page.getByRole('group', { name: 'Title' });
  await expect(panel.getByLabel('Slug', { exact: true })).toHaveAttribute('readonly', '');
  await expect(panel.getByRole('button', { name: 'Save field' })).toBeDisabled();
  await panel.getByLabel('Name', { exact: true }).fill('Headline');
  await panel.getByRole('switch', { name: 'Primary field' }).click();
  await expect(panel.getByRole('switch', { name: 'Required' })).toBeChecked();
  await panel.getByRole('button', { name: 'Save field' }).click();
  await expect(page.getByText('Field Updated')).toBeVisible();
  await expect(fields.getByRole('button', { name: 'Edit Headline' })).toBeFocused();
  const [title] = await schemaOf(request, made);
  expect(title).toMatchObject({ name: 'Headline', slug: 'title', primaryField: true, required: true });
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(900);
  await expectAccessible(page, 'schema builder at 900 px, dark');
});
