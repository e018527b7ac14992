/**
 * The map layout of the item list (a click prefills the new item; docs/layouts.md): chosen
 * from the list's menu; it asks for the visible area as a `within` box; a marker opens its item
 * (by click and by Enter); a click on the map opens a new item with the point set, which, saved,
 * comes back as a marker; the Unset Markers list holds the item with no place; the same on a
 * nested collection. The offline world layer: no tile requests, no CSP violations. axe in light
 * and dark at 1280 and 900 px.
 */
import { expect, test, type Page } from '@playwright/test';
import { createVerifiedAccount } from './support/accounts.ts';
import { expectAccessible } from './support/axe.ts';
import { signIn, watchCsp } from './support/console.ts';
import { bearer, organizationWithProject, type Made } from './support/platform.ts';

let made: Made;
let account: Awaited<ReturnType<typeof createVerifiedAccount>>;
const ids: Record<string, string> = {};
const content = (...rest: string[]) => [`/api/organization/${made.organizationID}/project/${made.projectID}`, ...rest].join('/');
const listPath = () => `/organization/${made.organizationID}/project/${made.projectID}/collection/offices`;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  account = await createVerifiedAccount(request, 'layoutmap');
  made = await organizationWithProject(request, account, { organization: 'Cartography', project: 'Sites' });
  const offices = await request.post(content('collection'), {
    headers: bearer(made.token),
    data: {
      id: 'offices',
      name: 'Offices',
      schema: [
        { name: 'Name', slug: 'name', type: 1, primaryField: true },
        { name: 'Location', slug: 'location', type: 13 },
      ],
    },
  });
  expect(offices.status(), await offices.text()).toBe(201);
  for (const [name, location] of [
    ['Lyon office', { lat: 45.7485, lng: 4.8467 }],
    ['Geneva office', { lat: 46.2044, lng: 6.1432 }],
    ['Remote worker', undefined],
  ] as const) {
    const made_ = await request.post(content('collection', 'offices', 'item'), { headers: bearer(made.token), data: location ? { name, location } : { name } });
    expect(made_.status(), await made_.text()).toBe(201);
    ids[name] = ((await made_.json()) as { _id: string })._id;
  }
  // Where the map opens: Lyon at the default zoom (6).
  const layout = await request.put(content('collection', 'offices', 'layout'), { headers: bearer(made.token), data: { center: { lat: 45.7485, lng: 4.8467 } } });
  expect(layout.status(), await layout.text()).toBe(200);
});

async function signInTo(page: Page, path: string) {
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await page.goto(path);
}

const map = (page: Page, name = 'Offices') => page.getByRole('application', { name: `Map of ${name}` });
const unsetList = (page: Page) => page.getByRole('region', { name: 'Unset Markers' });

test('the menu picks the map; markers open their items by click and by Enter; the unset list holds the item without a place', async ({ page }) => {
  test.setTimeout(120_000);
  const csp = watchCsp(page);
  const tiles: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'image' && !request.url().startsWith('data:') && !request.url().includes('/assets/')) tiles.push(request.url());
  });
  const boxes: URLSearchParams[] = [];
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.endsWith('/collection/offices/item') && url.searchParams.get('query')?.includes(':within:')) boxes.push(url.searchParams);
  });
  await signInTo(page, listPath());
  await expect(page.getByRole('heading', { name: 'Offices', level: 2 })).toBeVisible();
  await page.getByRole('button', { name: 'Collection menu' }).click();
  await page.getByRole('menuitemradio', { name: 'Map' }).click();
  await expect(page).toHaveURL(/\?layout=map$/);
  await expect(map(page)).toBeVisible();
  const lyon = map(page).getByRole('button', { name: 'Lyon office' });
  await expect(lyon).toBeVisible();
  await expect(map(page).getByRole('button', { name: 'Geneva office' })).toBeVisible();
  await expect(page.getByText('2 places in this area.')).toBeVisible();
  // The visible area, asked as a box around Lyon, at most 1000 markers.
  expect(boxes.length).toBeGreaterThan(0);
  const box = boxes.at(-1)!;
  expect(box.get('perPage')).toBe('1000');
  const [minLat, minLng, maxLat, maxLng] = box.get('query')!.replace('location:within:', '').split(',').map(Number) as [number, number, number, number];
  expect(minLat).toBeLessThan(45.7485);
  expect(maxLat).toBeGreaterThan(45.7485);
  expect(minLng).toBeLessThan(4.8467);
  expect(maxLng).toBeGreaterThan(6.1432);

  await expect(unsetList(page).getByText('1 item has no place.')).toBeVisible();
  await expect(unsetList(page).getByRole('button', { name: 'Remote worker' })).toBeVisible();
  expect(csp).toEqual([]);
  expect(tiles).toEqual([]);

  await lyon.click();
  await expect(page).toHaveURL(new RegExp(`/collection/offices/item/${ids['Lyon office']}$`));
  await expect(page.getByRole('heading', { name: 'Lyon office', level: 2 })).toBeVisible();
  await page.goBack();
  // By the keyboard: the marker takes the focus, Enter opens it.
  // The list screen moves the focus to its heading once it has drawn after Back; focus the marker after that.
  const geneva = map(page).getByRole('button', { name: 'Geneva office' });
  await expect(async () => {
    await geneva.focus();
    await expect(geneva).toBeFocused({ timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/collection/offices/item/${ids['Geneva office']}$`));
  await page.goBack();
  await unsetList(page).getByRole('button', { name: 'Remote worker' }).click();
  await expect(page).toHaveURL(new RegExp(`/collection/offices/item/${ids['Remote worker']}$`));
  await expect(page.getByRole('heading', { name: 'Remote worker', level: 2 })).toBeVisible();
});

test('a click on the map opens a new item at that point; saved, it is a marker', async ({ page }) => {
  test.setTimeout(120_000);
  // The layout chosen in the menu was saved with the collection: the plain list path shows the map.
  await signInTo(page, listPath());
  await expect(map(page)).toBeVisible();
  await expect(map(page).getByRole('button', { name: 'Lyon office' })).toBeVisible();
  const area = (await map(page).boundingBox())!;
  // Centred on Lyon at zoom 6: up and to the left is north-west of it.
  await page.mouse.click(area.x + area.width / 2 - 80, area.y + area.height / 2 - 60);
  await expect(page).toHaveURL(new RegExp(`${listPath()}/item$`));
  await expect(page.getByRole('heading', { name: 'New Offices item', level: 2 })).toBeVisible();
  const editor = page.locator('[data-field="location"]');
  const latitude = editor.getByRole('textbox', { name: 'Latitude' });
  const longitude = editor.getByRole('textbox', { name: 'Longitude' });
  await expect(latitude).toHaveValue(/^\d+\.\d{4}$/);
  const point = { lat: Number(await latitude.inputValue()), lng: Number(await longitude.inputValue()) };
  expect(point.lat).toBeGreaterThan(45.75);
  expect(point.lng).toBeLessThan(4.84);
  expect(point.lng).toBeGreaterThan(0);
  await page.getByRole('textbox', { name: 'Name' }).fill('Clicked place');
  const created = page.waitForResponse((response) => response.request().method() === 'POST' && new URL(response.url()).pathname.endsWith('/collection/offices/item'));
  await page.getByRole('button', { name: 'Create Item' }).click();
  const answer = await created;
  expect(answer.status()).toBe(201);
  const saved = (await answer.json()) as { _id: string; location: unknown };
  expect(saved.location).toEqual(point);
  // Close after saving (on by default): back to the map, where the new item is a marker.
  await expect(page).toHaveURL(new RegExp(`${listPath()}(\\?layout=map)?$`));
  await expect(map(page).getByRole('button', { name: 'Clicked place' })).toBeVisible();
  await expect(page.getByText('3 places in this area.')).toBeVisible();
});

test('a nested collection has its own map: markers, the unset list and opening a nested item', async ({ page, request }) => {
  test.setTimeout(120_000);
  const routes = await request.post(content('collection'), {
    headers: bearer(made.token),
    data: {
      id: 'routes',
      name: 'Routes',
      schema: [
        { name: 'Name', slug: 'name', type: 1, primaryField: true },
        {
          name: 'Stops',
          slug: 'stops',
          type: 12,
          nestedCollectionSchema: [
            { name: 'Stop', slug: 'stop', type: 1, primaryField: true },
            { name: 'Place', slug: 'place', type: 13 },
          ],
        },
      ],
    },
  });
  expect(routes.status(), await routes.text()).toBe(201);
  const tour = await request.post(content('collection', 'routes', 'item'), { headers: bearer(made.token), data: { name: 'Alps tour' } });
  expect(tour.status()).toBe(201);
  const tourID = ((await tour.json()) as { _id: string })._id;
  const stops: Record<string, string> = {};
  for (const [stop, place] of [
    ['Chamonix', { lat: 45.9237, lng: 6.8694 }],
    ['Zermatt', { lat: 46.0207, lng: 7.7491 }],
    ['Somewhere', undefined],
  ] as const) {
    const answer = await request.post(`${content('collection', 'routes', 'item', tourID)}?nestedID=stops`, { headers: bearer(made.token), data: place ? { stop, place } : { stop } });
    expect(answer.status(), await answer.text()).toBe(201);
    stops[stop] = ((await answer.json()) as { _id: string })._id;
  }
  // The nested list's layout, shared by every tour's stops.
  const layout = await request.put(`${content('collection', 'routes', 'layout')}?nestedID=stops`, { headers: bearer(made.token), data: { layout: 'map' } });
  expect(layout.status(), await layout.text()).toBe(200);

  const lists: URLSearchParams[] = [];
  page.on('request', (sent) => {
    const url = new URL(sent.url());
    if (url.pathname.endsWith(`/collection/routes/item/${tourID}`) && url.searchParams.has('query')) lists.push(url.searchParams);
  });
  await signInTo(page, `/organization/${made.organizationID}/project/${made.projectID}/collection/routes/item/${tourID}/nestedID/stops`);
  await expect(map(page, 'Stops')).toBeVisible();
  // No centre saved: the map opens on the first placed stop.
  await expect(map(page, 'Stops').getByRole('button', { name: 'Chamonix' })).toBeVisible();
  await expect(map(page, 'Stops').getByRole('button', { name: 'Zermatt' })).toBeVisible();
  await expect(unsetList(page).getByRole('button', { name: 'Somewhere' })).toBeVisible();
  expect(lists.some((params) => params.get('nestedID') === 'stops' && params.get('query')!.startsWith('place:within:'))).toBe(true);
  await expectAccessible(page, 'nested map layout');
  await map(page, 'Stops').getByRole('button', { name: 'Zermatt' }).click();
  await expect(page).toHaveURL(new RegExp(`/nestedID/stops/item/${stops['Zermatt']}$`));
  await expect(page.getByRole('textbox', { name: 'Stop' })).toHaveValue('Zermatt');
});

// One look per theme and per width (docs/architecture.md "Looks in the browser suite").
for (const [colorScheme, width] of [
  ['light', 1280],
  ['dark', 900],
] as const) {
  test(`the map layout passes axe (${colorScheme}, ${width} px)`, async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ colorScheme, reducedMotion: 'reduce', viewport: { width, height: 900 } });
    try {
      const page = await context.newPage();
      await signInTo(page, `${listPath()}?layout=map`);
      await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
      await expect(map(page).locator('path.world-map-country').first()).toBeAttached();
      await expect(map(page).getByRole('button', { name: 'Lyon office' })).toBeVisible();
      await expect(unsetList(page).getByRole('button', { name: 'Remote worker' })).toBeVisible();
      if (width <= 900) {
        // The unset list stacks below the map.
        const mapBox = (await map(page).boundingBox())!;
        const listBox = (await unsetList(page).boundingBox())!;
        expect(listBox.y).toBeGreaterThanOrEqual(mapBox.y + mapBox.height);
      }
      await expectAccessible(page, `map layout ${colorScheme} ${width}`);
      await page.screenshot({ path: `/tmp/layout-map-${colorScheme}-${width}.png`, fullPage: true });
    } finally {
      await context.close();
    }
  });
}
