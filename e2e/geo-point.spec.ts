/**
 * The GeoPoint editor on the item page: a city picked by address
 * search ("Lyon", from the built-in gazetteer: no internet), a point set by clicking the map and
 * by the keyboard (arrows move the map, Enter sets its centre), each saved, reloaded and kept, and
 * checked through the API. The map is the offline world layer: no tile requests, no CSP
 * violations. axe in light and dark at 1280 and 900 px with the search list open.
 */
import { expect, test, type Page } from '@playwright/test';
import { createVerifiedAccount } from './support/accounts.ts';
import { expectAccessible } from './support/axe.ts';
import { signIn, watchCsp } from './support/console.ts';
import { bearer, organizationWithProject, type Made } from './support/platform.ts';

let made: Made;
let account: Awaited<ReturnType<typeof createVerifiedAccount>>;
let tripID = '';
const content = (...rest: string[]) => [`/api/organization/${made.organizationID}/project/${made.projectID}`, ...rest].join('/');
const listPath = () => `/organization/${made.organizationID}/project/${made.projectID}/collection/trips`;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  account = await createVerifiedAccount(request, 'geopoint');
  made = await organizationWithProject(request, account, { organization: 'Atlas', project: 'Travels' });
  const trips = await request.post(content('collection'), {
    headers: bearer(made.token),
    data: {
      id: 'trips',
      name: 'Trips',
      schema: [
        { name: 'Name', slug: 'name', type: 1, primaryField: true },
        { name: 'Location', slug: 'location', type: 13 },
      ],
    },
  });
  expect(trips.status(), await trips.text()).toBe(201);
});

async function signInTo(page: Page, path: string) {
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await page.goto(path);
}

const editor = (page: Page) => page.locator('[data-field="location"]');
const latitude = (page: Page) => editor(page).getByRole('textbox', { name: 'Latitude' });
const longitude = (page: Page) => editor(page).getByRole('textbox', { name: 'Longitude' });
const map = (page: Page) => editor(page).getByRole('application', { name: 'Map of Location' });

async function storedLocation(page: Page) {
  const response = await page.request.get(content('collection', 'trips', 'item', tripID), { headers: bearer(made.token) });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { location: unknown }).location;
}

/** Turns "Close after saving" off (each test's browser starts with it on), so saving stays on the item. */
async function stayAfterSaving(page: Page) {
  await page.getByRole('button', { name: 'Item menu' }).click();
  await page.getByRole('menuitemcheckbox', { name: 'Close after saving' }).click();
  await expect(page.getByRole('menuitemcheckbox', { name: 'Close after saving' })).toHaveAttribute('aria-checked', 'false');
  await page.keyboard.press('Escape');
}

/** Saves the item and waits for the server's answer (an earlier "Item was updated!" toast may still show). */
async function update(page: Page) {
  const saved = page.waitForResponse((response) => response.request().method() === 'PUT' && response.url().includes(`/collection/trips/item/${tripID}`));
  await page.getByRole('button', { name: 'Update' }).click();
  expect((await saved).status()).toBe(200);
  await expect(page.getByText('Item was updated!').last()).toBeVisible();
}

test('a city picked by address search is saved and kept', async ({ page }) => {
  test.setTimeout(120_000);
  const csp = watchCsp(page);
  const tiles: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'image' && !request.url().startsWith('data:') && !request.url().includes('/assets/')) tiles.push(request.url());
  });
  const searches: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/maps?')) searches.push(new URL(request.url()).search);
  });
  await signInTo(page, `${listPath()}/item`);
  await expect(page.getByRole('heading', { name: 'New Trips item', level: 2 })).toBeVisible();
  await page.getByRole('textbox', { name: 'Name' }).fill('Food tour');
  await expect(map(page)).toBeVisible();
  const search = editor(page).getByRole('combobox', { name: 'Location' });
  // Two characters ask nothing.
  await search.pressSequentially('Ly');
  await expect(editor(page).getByRole('status')).toHaveText('Type at least 3 characters to search.');
  await page.waitForTimeout(600);
  expect(searches).toEqual([]);
  await search.pressSequentially('on');
  const lyon = editor(page).getByRole('option', { name: 'Lyon, France' });
  await expect(lyon).toBeVisible();
  expect(searches).toHaveLength(1);
  expect(searches[0]).toMatch(/^\?input=Lyon&sessiontoken=[0-9a-f]{32}$/);
  await search.press('ArrowDown');
  await expect(search).toHaveAttribute('aria-activedescendant', (await lyon.getAttribute('id'))!);
  await search.press('Enter');
  await expect(latitude(page)).toHaveValue('45.7485');
  await expect(longitude(page)).toHaveValue('4.8467');
  await expect(editor(page).getByRole('status')).toHaveText('Point set to Lyon, France: 45.7485, 4.8467.');
  await expect(map(page).locator('path.world-map-point')).toHaveCount(1);
  await page.getByRole('button', { name: 'Create Item' }).click();
  await expect(page.getByText('Item was created!')).toBeVisible();
  // Close after saving (on by default) goes back to the list, which shows the point with 4 decimals.
  await expect(page).toHaveURL(new RegExp(`${listPath()}$`));
  await expect(page.getByText('45.7485, 4.8467')).toBeVisible();
  const list = await page.request.get(content('collection', 'trips', 'item'), { headers: bearer(made.token) });
  const [trip] = (await list.json()) as { _id: string; location: unknown }[];
  tripID = trip!._id;
  expect(trip!.location).toEqual({ lat: 45.7485, lng: 4.8467 });
  await page.goto(`${listPath()}/item/${tripID}`);
  await expect(latitude(page)).toHaveValue('45.7485');
  await expect(longitude(page)).toHaveValue('4.8467');
  expect(csp).toEqual([]);
  expect(tiles).toEqual([]);
});

test('a point set by clicking the map, then by the keyboard, is saved and kept', async ({ page }) => {
  test.setTimeout(120_000);
  expect(tripID).not.toBe('');
  await signInTo(page, `${listPath()}/item/${tripID}`);
  await expect(page.getByRole('heading', { name: 'Food tour', level: 2 })).toBeVisible();
  await stayAfterSaving(page);
  await expect(latitude(page)).toHaveValue('45.7485');
  const box = (await map(page).boundingBox())!;
  // The map is centred on Lyon at zoom 6: a click up and to the left is north-west of it.
  await page.mouse.click(box.x + box.width / 2 - 80, box.y + box.height / 2 - 60);
  await expect(latitude(page)).not.toHaveValue('45.7485');
  const clicked = { lat: Number(await latitude(page).inputValue()), lng: Number(await longitude(page).inputValue()) };
  expect(clicked.lat).toBeGreaterThan(45.75);
  expect(clicked.lng).toBeLessThan(4.84);
  expect(await latitude(page).inputValue()).toMatch(/^\d+\.\d{4}$/);
  await update(page);
  expect(await storedLocation(page)).toEqual(clicked);
  await page.reload();
  await expect(latitude(page)).toHaveValue(clicked.lat.toFixed(4));
  await expect(longitude(page)).toHaveValue(clicked.lng.toFixed(4));

  // By keyboard: the map takes the focus, the arrows move it east, Enter sets its centre.
  await map(page).focus();
  await expect(map(page)).toBeFocused();
  const before = Number(await longitude(page).inputValue());
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  await page.waitForTimeout(400);
  await page.keyboard.press('Enter');
  await expect(longitude(page)).not.toHaveValue(before.toFixed(4));
  const keyed = { lat: Number(await latitude(page).inputValue()), lng: Number(await longitude(page).inputValue()) };
  expect(keyed.lng).toBeGreaterThan(before);
  await update(page);
  expect(await storedLocation(page)).toEqual(keyed);

  // Bad coordinates are held at the field and never sent; Clear empties the point.
  await latitude(page).fill('95');
  await expect(editor(page).getByText('Latitude must be a number from -90 to 90.')).toBeVisible();
  await editor(page).getByRole('button', { name: 'Clear' }).click();
  await expect(latitude(page)).toHaveValue('');
  await expect(editor(page).getByText('Latitude must be a number')).toHaveCount(0);
  await update(page);
  // A cleared field is not set: the item leaves it out.
  expect((await storedLocation(page)) ?? null).toBeNull();
});

// One look per theme and per width (docs/architecture.md "Looks in the browser suite").
for (const [colorScheme, width] of [
  ['light', 1280],
  ['dark', 900],
] as const) {
  test(`the GeoPoint editor passes axe (${colorScheme}, ${width} px)`, async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ colorScheme, reducedMotion: 'reduce', viewport: { width, height: 900 } });
    try {
      const page = await context.newPage();
      await signInTo(page, `${listPath()}/item`);
      await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
      await expect(map(page).locator('path.world-map-country').first()).toBeAttached();
      await editor(page).getByRole('combobox', { name: 'Location' }).pressSequentially('Par');
      await expect(editor(page).getByRole('option', { name: 'Paris, France' })).toBeVisible();
      await expectAccessible(page, `GeoPoint editor ${colorScheme} ${width}`);
      await page.screenshot({ path: `/tmp/geo-point-${colorScheme}-${width}.png`, fullPage: true });
    } finally {
      await context.close();
    }
  });
}
