/**
 * The core field editors on the item page: an item
 * with every core type is created by keyboard and mouse, saved, reloaded and checked on the page
 * and through the API, edited, duplicated and deleted. Bad input (letters in Number and Phone, 300
 * characters in a Link, broken JSON) is caught at the field before any request; a value the server
 * refuses (a unique field duplicated) comes back as that field's message with everything typed
 * kept. The copy-link button, the Date editor's time zone, the Metadata panel's "Not Set", the
 * read-only displays of the media types, and axe on the filled form in light and dark at 1280 and
 * 900 px.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Locator, type Page, type Request } from '@playwright/test';
import { createVerifiedAccount } from './support/accounts.ts';
import { expectAccessible } from './support/axe.ts';
import { signIn } from './support/console.ts';
import { bearer, organizationWithProject, type Made } from './support/platform.ts';

const content = (made: Made, ...rest: string[]) => [`/api/organization/${made.organizationID}/project/${made.projectID}`, ...rest].join('/');

/** A zone far from UTC, so that a Date saved in the wrong zone shows (the browser guesses it). */
const timezoneId = 'Asia/Tokyo';
test.use({ timezoneId, locale: 'en-US', permissions: ['clipboard-read', 'clipboard-write'] });

let made: Made;
let account: Awaited<ReturnType<typeof createVerifiedAccount>>;
const authors: Record<string, string> = {};
let seededID = '';
const projectPath = () => `/organization/${made.organizationID}/project/${made.projectID}`;
const listPath = () => `${projectPath()}/collection/gadgets`;

/** A 1×1 PNG, stored as a project file: an image value holds http(s) or this server's file addresses only (docs/errors.md). */
const pixelPng = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

async function seed(request: APIRequestContext) {
  const people = await request.post(content(made, 'collection'), {
    headers: bearer(made.token),
    data: { id: 'authors', name: 'Authors', schema: [{ name: 'Full name', slug: 'fullName', type: 1, primaryField: true }] },
  });
  expect(people.status(), await people.text()).toBe(201);
  for (const fullName of ['Ada Lovelace', 'Grace Hopper']) {
    const made_ = await request.post(content(made, 'collection', 'authors', 'item'), { headers: bearer(made.token), data: { fullName } });
    expect(made_.status(), await made_.text()).toBe(201);
    authors[fullName] = ((await made_.json()) as { _id: string })._id;
  }
  const gadgets = await request.post(content(made, 'collection'), {
    headers: bearer(made.token),
    data: {
      id: 'gadgets',
      name: 'Gadgets',
      schema: [
        { name: 'Name', slug: 'name', type: 1, primaryField: true, min: 3, max: 40 },
        { name: 'Code', slug: 'code', type: 1, unique: true },
        { name: 'Body', slug: 'body', type: 2 },
        { name: 'Photo', slug: 'photo', type: 5 },
        { name: 'Gallery', slug: 'gallery', type: 11 },
        { name: 'Place', slug: 'place', type: 13 },
        { name: 'Price', slug: 'price', type: 3 },
        { name: 'Hotline', slug: 'hotline', type: 4 },
        { name: 'In stock', slug: 'inStock', type: 8 },
        { name: 'Warranty', slug: 'warranty', type: 8, defaultValue: true },
        {
          name: 'Colour',
          slug: 'colour',
          type: 7,
          options: [
            { _id: 'red', value: 'Red' },
            { _id: 'green', value: 'Green' },
            { _id: 'blue', value: 'Blue' },
          ],
        },
        { name: 'Launch', slug: 'launch', type: 10 },
        { name: 'Specs', slug: 'specs', type: 14 },
        { name: 'Site', slug: 'site', type: 9 },
        { name: 'Writers', slug: 'writers', type: 6, referenceCollectionID: 'authors' },
        { name: 'Parts', slug: 'parts', type: 12, nestedCollectionSchema: [{ name: 'Part name', slug: 'partName', type: 1 }] },
      ],
    },
  });
  expect(gadgets.status(), await gadgets.text()).toBe(201);
  const asset = await request.put(content(made, 'asset'), { headers: bearer(made.token), multipart: { asset: { name: 'pixel.png', mimeType: 'image/png', buffer: pixelPng } } });
  expect(asset.status(), await asset.text()).toBe(201);
  const pixel = ((await asset.json()) as { url: string }).url;
  // The media types have no editors yet: an item made over the API shows their values read-only.
  const seeded = await request.post(content(made, 'collection', 'gadgets', 'item'), {
    headers: bearer(made.token),
    data: {
      name: 'Seeded lamp',
      code: 'LAMP-1',
      body: '<p>Bright <b>light</b></p>',
      photo: { imageURL: pixel, altText: 'A lamp' },
      gallery: [{ imageURL: pixel, altText: 'Lamp from above' }],
      place: { lat: 35.676191, lng: 139.650311 },
    },
  });
  expect(seeded.status(), await seeded.text()).toBe(201);
  seededID = ((await seeded.json()) as { _id: string })._id;
}

type Gadget = Record<string, unknown> & { _id: string; _createdDate: string; _lastUpdatedDate: string };

async function gadget(request: APIRequestContext, itemID: string): Promise<Gadget> {
  const response = await request.get(content(made, 'collection', 'gadgets', 'item', itemID), { headers: bearer(made.token) });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as Gadget;
}

async function gadgetByName(request: APIRequestContext, name: string): Promise<Gadget | undefined> {
  const response = await request.get(content(made, 'collection', 'gadgets', 'item'), { headers: bearer(made.token), params: { perPage: 100 } });
  expect(response.status()).toBe(200);
  return ((await response.json()) as Gadget[]).find((item) => item.name === name);
}

/** One field of the form (its label, editor and messages). */
const field = (page: Page, slug: string): Locator => page.locator(`.field-editor[data-field="${slug}"]`);
const box = (page: Page, slug: string): Locator => field(page, slug).getByRole('textbox');

/** The writes the page sends for items of the collection (creates, updates, deletes). */
function watchWrites(page: Page): Request[] {
  const writes: Request[] = [];
  page.on('request', (request) => {
    if (request.method() !== 'GET' && request.url().includes('/collection/gadgets/item')) writes.push(request);
  });
  return writes;
}

/**
 * Keeps the bodies of the item creates the page sends, read in the page: the console sends them
 * as `Request` objects, whose bodies the browser does not show to Playwright's request events.
 */
async function recordCreates(page: Page) {
  await page.addInitScript(() => {
    const sent: unknown[] = [];
    (window as unknown as { itemCreates: unknown[] }).itemCreates = sent;
    const original = window.fetch.bind(window);
    window.fetch = async (input, init) => {
      const request = new Request(input, init);
      if (request.method === 'POST' && /\/collection\/gadgets\/item$/.test(new URL(request.url).pathname)) sent.push(await request.clone().json());
      return original(request);
    };
  });
}
const sentCreates = (page: Page) => page.evaluate(() => (window as unknown as { itemCreates: Record<string, unknown>[] }).itemCreates);

/** Chooses an option of the Colour dropdown with the mouse, and waits for it to close. */
async function chooseColour(page: Page, name: string) {
  await field(page, 'colour').getByRole('combobox').click();
  const listbox = page.getByRole('listbox');
  await expect(listbox).toBeVisible();
  await listbox.getByRole('option', { name }).click();
  await expect(listbox).toBeHidden();
  await expect(field(page, 'colour').getByRole('combobox')).toHaveText(name);
}

/** Picks an author in the Writers picker by typing and the keyboard, as a person does. */
async function pickWriter(page: Page, term: string, name: string) {
  const search = field(page, 'writers').getByRole('combobox');
  await search.fill('');
  await search.pressSequentially(term);
  const results = page.getByRole('listbox', { name: 'Items found' });
  await expect(results.getByRole('option', { name })).toBeVisible();
  await search.press('ArrowDown');
  await expect(results.getByRole('option', { name })).toHaveAttribute('aria-selected', 'true');
  await search.press('Enter');
  await expect(field(page, 'writers').getByRole('list', { name: 'Linked items' }).getByText(name)).toBeVisible();
}

/** Types a date and time into a `datetime-local` input segment by segment (en-US: mm/dd/yyyy, hh:mm:ss AM). */
async function typeDate(input: Locator, { month, day, year, hour, minute, pm }: { month: string; day: string; year: string; hour: string; minute: string; pm: boolean }) {
  await input.focus();
  await input.pressSequentially(`${month}${day}${year}`);
  await input.press('Tab');
  await input.pressSequentially(`${hour}${minute}00${pm ? 'P' : 'A'}`);
}

/** Turns "Close after saving" off (each test's browser starts with it on), so saving stays on the item. */
async function stayAfterSaving(page: Page) {
  await page.getByRole('button', { name: 'Item menu' }).click();
  await page.getByRole('menuitemcheckbox', { name: 'Close after saving' }).click();
  await expect(page.getByRole('menuitemcheckbox', { name: 'Close after saving' })).toHaveAttribute('aria-checked', 'false');
  await page.keyboard.press('Escape');
}

async function signInTo(page: Page, path: string) {
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await page.goto(path);
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  account = await createVerifiedAccount(request, 'fieldeditor');
  made = await organizationWithProject(request, account, { organization: 'Workshop', project: 'Catalogue' });
  await seed(request);
});

let createdID = '';

test('bad input is caught at the field before any request', async ({ page }) => {
  test.setTimeout(120_000);
  await signInTo(page, `${listPath()}/item`);
  await expect(page.getByRole('heading', { name: 'New Gadgets item', level: 2 })).toBeVisible();
  const writes = watchWrites(page);

  // Letters into Number: nothing gets in, and it says why.
  await box(page, 'price').pressSequentially('abc');
  await expect(box(page, 'price')).toHaveValue('');
  await expect(field(page, 'price').getByText('Value must be a number')).toBeVisible();
  await box(page, 'price').pressSequentially('12x.5');
  await expect(box(page, 'price')).toHaveValue('12.5');

  // Letters into Phone: they do nothing; the usual characters stay as typed, the digits are saved.
  await box(page, 'hotline').pressSequentially('555-12ab34');
  await expect(box(page, 'hotline')).toHaveValue('555-1234');
  await expect(field(page, 'hotline').getByText('A phone number holds digits, spaces and + ( ) - . only.')).toBeVisible();

  // 300 characters into Link: the first 256 are kept, and it says so.
  const long = `https://example.com/${'a'.repeat(280)}`;
  expect(long).toHaveLength(300);
  await box(page, 'site').pressSequentially(long);
  await expect(box(page, 'site')).toHaveValue(long.slice(0, 256));
  await expect(field(page, 'site').getByText('At most 256 characters.')).toBeVisible();
  await expect(field(page, 'site').getByText('256 of 256 characters')).toBeVisible();

  // Broken JSON: Not Valid, and the page will not save while it is there.
  await box(page, 'specs').pressSequentially('{"watts": 800');
  await expect(field(page, 'specs').getByText('Not Valid', { exact: true })).toBeVisible();
  await expect(box(page, 'specs')).toHaveAttribute('aria-invalid', 'true');
  await box(page, 'name').fill('Broken toaster');
  await page.getByRole('button', { name: 'Create Item' }).click();
  await expect(page.getByText('Specs: Not Valid')).toBeVisible();
  await expect(page).toHaveURL(/\/collection\/gadgets\/item$/);
  // Everything typed is still there.
  await expect(box(page, 'specs')).toHaveValue('{"watts": 800');
  await expect(box(page, 'price')).toHaveValue('12.5');
  expect(writes.map((request) => `${request.method()} ${request.url()}`)).toEqual([]);
});

test('an item with every core type is created by keyboard and mouse, reloaded and checked', async ({ page, request }) => {
  test.setTimeout(180_000);
  await signInTo(page, `${listPath()}/item`);
  await expect(page.getByRole('heading', { name: 'New Gadgets item', level: 2 })).toBeVisible();
  const writes = watchWrites(page);

  // A new item's Metadata panel: nothing set yet.
  const metadata = page.getByRole('group', { name: 'Metadata' });
  await expect(metadata.getByText('Not Set')).toHaveCount(3);
  // The Date editor names the zone the browser guessed.
  await expect(field(page, 'launch').getByText(`Time zone: ${timezoneId}`)).toBeVisible();
  // The media types have their editors (e2e/media-upload.spec.ts): nothing chosen yet.
  for (const slug of ['photo', 'gallery']) {
    await expect(field(page, slug).getByText('No file yet.')).toBeVisible();
  }
  // RichText has its own editor (e2e/rich-text.spec.ts).
  await expect(field(page, 'body').getByRole('toolbar', { name: 'Body: formatting' })).toBeVisible();
  // Nested items wait for the item to exist.
  await expect(field(page, 'parts').getByText('The item must first be created before adding nested items')).toBeVisible();
  // Bool starts indeterminate: neither on nor off.
  const inStock = field(page, 'inStock').getByRole('checkbox');
  await expect(inStock).toHaveAttribute('aria-checked', 'mixed');
  // A Bool with a default starts there: left alone, the server stores it.
  await expect(field(page, 'warranty').getByRole('checkbox')).toHaveAttribute('aria-checked', 'true');

  // PlainText: under the minimum is said on leaving; past the maximum is cut.
  const name = box(page, 'name');
  await name.pressSequentially('To');
  await name.press('Tab');
  await expect(field(page, 'name').getByText('Enter at least 3 characters.')).toBeVisible();
  await name.pressSequentially(`aster ${'x'.repeat(40)}`);
  await expect(name).toHaveValue(`Toaster ${'x'.repeat(32)}`);
  await expect(field(page, 'name').getByText('40 of 40 characters')).toBeVisible();
  await expect(field(page, 'name').getByText('At most 40 characters.')).toBeVisible();
  await name.press('ControlOrMeta+a');
  await name.pressSequentially('Toaster');
  await expect(field(page, 'name').getByText('7 of 40 characters')).toBeVisible();

  await box(page, 'code').pressSequentially('TST-1');
  await box(page, 'price').pressSequentially('1299.5');
  await box(page, 'hotline').pressSequentially('5551234');
  await inStock.click();
  await expect(inStock).toHaveAttribute('aria-checked', 'true');
  await expect(field(page, 'inStock').getByText('Yes')).toBeVisible();
  await chooseColour(page, 'Green');
  await typeDate(field(page, 'launch').locator('input'), { month: '05', day: '01', year: '2025', hour: '09', minute: '30', pm: false });
  await expect(field(page, 'launch').locator('input')).toHaveValue('2025-05-01T09:30');
  await box(page, 'specs').pressSequentially('{"watts": 800, "slots": [1, 2]}');
  await expect(field(page, 'specs').getByText('Valid', { exact: true })).toBeVisible();
  await box(page, 'site').pressSequentially('https://example.com/toaster');
  await expect(field(page, 'site').getByRole('link', { name: 'Open link' })).toHaveAttribute('href', 'https://example.com/toaster');
  await pickWriter(page, 'Ada', 'Ada Lovelace');
  await pickWriter(page, 'Grace', 'Grace Hopper');

  await page.screenshot({ path: '/tmp/item-editors-filled.png', fullPage: true });
  await expectAccessible(page, 'filled new item (light, 1280)');

  // Stay on the item after saving, to see it reloaded.
  await stayAfterSaving(page);
  await page.getByRole('button', { name: 'Create Item' }).click();
  await expect(page.getByText('Item was created!')).toBeVisible();
  await expect(page).toHaveURL(/\/collection\/gadgets\/item\/[0-9a-f]{24}$/);
  createdID = /\/item\/([0-9a-f]{24})$/.exec(page.url())![1]!;
  expect(writes.filter((request) => request.method() === 'POST')).toHaveLength(1);

  // Through the API: each value as its type stores it.
  const saved = await gadget(request, createdID);
  expect(saved).toMatchObject({
    name: 'Toaster',
    code: 'TST-1',
    price: 1299.5,
    hotline: '5551234',
    inStock: true,
    warranty: true,
    colour: { _id: 'green', value: 'Green' },
    // 09:30 in Tokyo (UTC+9).
    launch: '2025-05-01T00:30:00.000Z',
    specs: { watts: 800, slots: [1, 2] },
    site: 'https://example.com/toaster',
    writers: [
      { itemRefID: authors['Ada Lovelace'], value: 'Ada Lovelace' },
      { itemRefID: authors['Grace Hopper'], value: 'Grace Hopper' },
    ],
  });
  expect(typeof saved.price).toBe('number');

  // Reloaded, the page shows every value again.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Toaster', level: 2 })).toBeVisible();
  await expect(box(page, 'name')).toHaveValue('Toaster');
  await expect(box(page, 'code')).toHaveValue('TST-1');
  await expect(box(page, 'price')).toHaveValue('1299.5');
  await expect(box(page, 'hotline')).toHaveValue('5551234');
  await expect(field(page, 'inStock').getByRole('checkbox')).toHaveAttribute('aria-checked', 'true');
  await expect(field(page, 'colour').getByRole('combobox')).toHaveText('Green');
  await expect(field(page, 'launch').locator('input')).toHaveValue('2025-05-01T09:30');
  // Indented JSON; the stored object's key order is the database's (jsonb), so it is compared parsed.
  await expect(box(page, 'specs')).toHaveValue(/^\{\n {2}"/);
  expect(JSON.parse(await box(page, 'specs').inputValue())).toEqual({ watts: 800, slots: [1, 2] });
  await expect(field(page, 'specs').getByText('Valid', { exact: true })).toBeVisible();
  await expect(box(page, 'site')).toHaveValue('https://example.com/toaster');
  const linked = field(page, 'writers').getByRole('list', { name: 'Linked items' });
  await expect(linked.getByRole('listitem')).toHaveText(['Ada Lovelace', 'Grace Hopper']);
  // The saved item's Metadata: its id and dates, nothing Not Set.
  await expect(page.getByRole('group', { name: 'Metadata' })).toContainText(createdID);
  await expect(page.getByRole('group', { name: 'Metadata' }).getByText('Not Set')).toHaveCount(0);
  await expect(field(page, 'parts').getByRole('button', { name: 'Open Parts' })).toBeVisible();
});

test('edits are saved, the copy-link button copies, and a duplicate refused by the server keeps what was typed', async ({ page, request }) => {
  test.setTimeout(180_000);
  expect(createdID).not.toBe('');
  await recordCreates(page);
  await signInTo(page, `${listPath()}/item/${createdID}`);
  await expect(page.getByRole('heading', { name: 'Toaster', level: 2 })).toBeVisible();
  await stayAfterSaving(page);
  const writes = watchWrites(page);

  // Copy link: "Copied!" for a moment, then back; the clipboard holds the link.
  const copy = field(page, 'site').getByRole('button', { name: 'Copy link' });
  await expect(copy).toHaveText('Copy');
  await copy.click();
  await expect(copy).toHaveText('Copied!');
  await expect(field(page, 'site').getByRole('status')).toHaveText('Copied to clipboard');
  await expect(copy).toHaveText('Copy');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('https://example.com/toaster');
  const copyID = page.getByRole('group', { name: 'Metadata' }).getByRole('button', { name: 'Copy item ID' });
  await copyID.click();
  await expect(copyID).toHaveText('Copied!');
  await expect(copyID).toHaveText('Copy');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(createdID);

  // Edit several fields.
  await box(page, 'price').fill('');
  await box(page, 'price').pressSequentially('-3.25');
  await field(page, 'inStock').getByRole('checkbox').press('Space');
  await expect(field(page, 'inStock').getByRole('checkbox')).toHaveAttribute('aria-checked', 'false');
  // The Colour dropdown by keyboard: Enter opens it, arrows move, Enter chooses.
  const colour = field(page, 'colour').getByRole('combobox');
  await colour.focus();
  await colour.press('Enter');
  await expect(page.getByRole('listbox')).toBeVisible();
  await expect(page.getByRole('option', { name: 'Green' })).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByRole('option', { name: 'Blue' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('listbox')).toBeHidden();
  await expect(colour).toHaveText('Blue');
  await box(page, 'specs').fill('');
  await box(page, 'specs').pressSequentially('[true, null, "x"]');
  await field(page, 'writers').getByRole('button', { name: 'Remove Ada Lovelace' }).click();
  await box(page, 'hotline').fill('');
  // A date with a part cleared is no date: held at the field, not saved as "no date".
  const launch = field(page, 'launch').locator('input');
  await launch.focus();
  // From the month to the hour: day, year, hour.
  await launch.press('Tab');
  await launch.press('Tab');
  await launch.press('Tab');
  await launch.press('Backspace');
  await expect(field(page, 'launch').getByText('Fill in every part of the date and time, or clear them all.')).toBeVisible();
  await expect(launch).toHaveAttribute('aria-invalid', 'true');
  const writesBefore = writes.length;
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(page.getByText('Launch: Fill in every part of the date and time, or clear them all.')).toBeVisible();
  expect(writes.length).toBe(writesBefore);
  // Back to the hour (Update took the focus) to fill it in again.
  await launch.focus();
  await launch.press('Tab');
  await launch.press('Tab');
  await launch.press('Tab');
  await launch.pressSequentially('11');
  await expect(launch).toHaveValue('2025-05-01T11:30');
  await expect(field(page, 'launch').getByText(/Fill in every part/)).toHaveCount(0);
  await page.getByRole('button', { name: 'Update' }).click();
  await expect(page.getByText('Item was updated!')).toBeVisible();
  const edited = await gadget(request, createdID);
  expect(edited).toMatchObject({
    price: -3.25,
    inStock: false,
    colour: { _id: 'blue', value: 'Blue' },
    specs: [true, null, 'x'],
    writers: [{ itemRefID: authors['Grace Hopper'], value: 'Grace Hopper' }],
    launch: '2025-05-01T02:30:00.000Z',
  });
  expect(edited.hotline ?? null).toBeNull();

  // Duplicate: a new-item form with the copy; its Metadata is Not Set.
  await page.getByRole('button', { name: 'Item menu' }).click();
  await page.getByRole('menuitem', { name: 'Duplicate Item' }).click();
  await expect(page.getByRole('heading', { name: 'New Gadgets item', level: 2 })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Metadata' }).getByText('Not Set')).toHaveCount(3);
  await expect(box(page, 'code')).toHaveValue('TST-1');
  await box(page, 'name').fill('Toaster copy');
  await box(page, 'hotline').pressSequentially('0800');

  // The server refuses the duplicated unique Code: its message shows on that field, nothing typed is lost.
  const before = writes.length;
  await page.getByRole('button', { name: 'Create Item' }).click();
  await expect(field(page, 'code').getByText('Code must be unique: another item already has this value')).toBeVisible();
  await expect(box(page, 'code')).toHaveAttribute('aria-invalid', 'true');
  expect(writes.length).toBe(before + 1);
  const refused = writes.at(-1)!;
  expect(refused.method()).toBe('POST');
  // The copy sent: the saved item's values without its id, dates, order and rank.
  const [body] = await sentCreates(page);
  expect(body).toMatchObject({ name: 'Toaster copy', code: 'TST-1', price: -3.25 });
  for (const key of ['_id', '_createdDate', '_lastUpdatedDate', '_order', '_rank']) expect(body, key).not.toHaveProperty(key);
  await expect(page).toHaveURL(/\/collection\/gadgets\/item$/);
  await expect(box(page, 'name')).toHaveValue('Toaster copy');
  await expect(box(page, 'hotline')).toHaveValue('0800');
  await expect(box(page, 'price')).toHaveValue('-3.25');
  await expect(field(page, 'colour').getByRole('combobox')).toHaveText('Blue');
  await expect(box(page, 'specs')).toHaveValue(JSON.stringify([true, null, 'x'], null, 2));
  await expect(field(page, 'writers').getByRole('list', { name: 'Linked items' }).getByRole('listitem')).toHaveText(['Grace Hopper']);
  await expect(field(page, 'inStock').getByRole('checkbox')).toHaveAttribute('aria-checked', 'false');
  await page.screenshot({ path: '/tmp/item-editors-refused.png', fullPage: true });

  // Changing the field clears its message; then the copy is created.
  await box(page, 'code').fill('TST-2');
  await expect(field(page, 'code').getByText(/must be unique/)).toHaveCount(0);
  await page.getByRole('button', { name: 'Create Item' }).click();
  await expect(page.getByText('Item was created!')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Toaster copy', level: 2 })).toBeVisible();
  const copyItem = await gadgetByName(request, 'Toaster copy');
  expect(copyItem).toBeDefined();
  expect(copyItem!._id).not.toBe(createdID);
  expect(copyItem).toMatchObject({
    code: 'TST-2',
    price: -3.25,
    hotline: '0800',
    inStock: false,
    colour: { _id: 'blue', value: 'Blue' },
    launch: '2025-05-01T02:30:00.000Z',
    specs: [true, null, 'x'],
    site: 'https://example.com/toaster',
    writers: [{ itemRefID: authors['Grace Hopper'], value: 'Grace Hopper' }],
  });
  expect(copyItem!._createdDate >= edited._lastUpdatedDate).toBe(true);

  // Delete the copy, after the confirmation.
  await page.getByRole('button', { name: 'Item menu' }).click();
  await page.getByRole('menuitem', { name: 'Delete Item' }).click();
  await page.getByRole('alertdialog', { name: 'Delete this item?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(new RegExp(`${listPath()}$`));
  const gone = await request.get(content(made, 'collection', 'gadgets', 'item', copyItem!._id), { headers: bearer(made.token) });
  expect(gone.status()).toBe(404);
  expect(await gadgetByName(request, 'Toaster')).toBeDefined();
});

test('the media types show their values read-only', async ({ page }) => {
  test.setTimeout(120_000);
  await signInTo(page, `${listPath()}/item/${seededID}`);
  await expect(page.getByRole('heading', { name: 'Seeded lamp', level: 2 })).toBeVisible();
  await expect(field(page, 'body').getByRole('textbox', { name: 'Body' })).toHaveText('Bright light');
  await expect(page.getByRole('group', { name: 'Photo', exact: true }).getByRole('img', { name: 'A lamp' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Gallery', exact: true }).getByRole('img', { name: 'Lamp from above' })).toBeVisible();
  // GeoPoint has its own editor (e2e/geo-point.spec.ts): the stored point shows with 4 decimals.
  await expect(field(page, 'place').getByRole('textbox', { name: 'Latitude' })).toHaveValue('35.6762');
  await expect(field(page, 'place').getByRole('textbox', { name: 'Longitude' })).toHaveValue('139.6503');
  // Their alt text is editable (e2e/media-upload.spec.ts has the rest).
  await expect(field(page, 'photo').getByRole('textbox', { name: 'Alt text' })).toHaveValue('A lamp');
});

for (const [colorScheme, width] of [
  ['dark', 1280],
  ['light', 900],
  ['dark', 900],
] as const) {
  test(`the filled item form passes axe (${colorScheme}, ${width} px)`, async ({ browser }) => {
    test.setTimeout(120_000);
    expect(createdID).not.toBe('');
    const context = await browser.newContext({ colorScheme, reducedMotion: 'reduce', viewport: { width, height: 900 }, timezoneId, locale: 'en-US' });
    try {
      const page = await context.newPage();
      await signInTo(page, `${listPath()}/item/${createdID}`);
      await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
      await expect(page.getByRole('heading', { name: 'Toaster', level: 2 })).toBeVisible();
      // Messages and statuses drawn too: a problem held at a field, and JSON's Valid.
      await box(page, 'price').pressSequentially('x');
      await expect(field(page, 'price').getByText('Value must be a number')).toBeVisible();
      await expect(field(page, 'specs').getByText('Valid', { exact: true })).toBeVisible();
      await expectAccessible(page, `filled item ${colorScheme} ${width}`);
      await page.screenshot({ path: `/tmp/item-editors-${colorScheme}-${width}.png`, fullPage: true });
      // The open dropdown too. Radix marks the page behind it aria-hidden and traps the focus in
      // the list; axe reads the static DOM and reports the hidden page's controls (aria-hidden-focus)
      // for a listbox, though not for a dialog doing the same. That rule is checked here by what it
      // guards against instead: Tab does not leave the open list.
      await field(page, 'colour').getByRole('combobox').click();
      const listbox = page.getByRole('listbox');
      await expect(listbox).toBeVisible();
      await expect(listbox.getByRole('option', { name: 'Blue' })).toBeFocused();
      await page.keyboard.press('Tab');
      await page.keyboard.press('Shift+Tab');
      await expect(listbox).toBeVisible();
      expect(await listbox.evaluate((list) => list.contains(document.activeElement))).toBe(true);
      const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).disableRules(['aria-hidden-focus']).analyze();
      const serious = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      expect(serious, `axe on the open dropdown ${colorScheme} ${width}`).toEqual([]);
      await page.keyboard.press('Escape');
      await expect(listbox).toBeHidden();
      await expect(field(page, 'colour').getByRole('combobox')).toBeFocused();
    } finally {
      await context.close();
    }
  });
}
