/**
 * The calendar layout as an editor uses it: a click on a
 * date opens a new item with the start set, saved it shows on the grid; an item of the "No date"
 * list is dragged onto a date, and another scheduled by keyboard; a nested collection shows its
 * calendar too; axe in light and dark, at 1280 and 800 px (the side list then stacks under the grid).
 */
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { createVerifiedAccount } from './support/accounts.ts';
import { expectAccessible } from './support/axe.ts';
import { signIn } from './support/console.ts';
import { bearer, organizationWithProject, type Made } from './support/platform.ts';

const content = (made: Made, ...rest: string[]) => [`/api/organization/${made.organizationID}/project/${made.projectID}`, ...rest].join('/');

// The grid shows the current month: dates are made in it, on days every month has.
const now = new Date();
const month = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
const day = (n: number) => `${month}-${String(n).padStart(2, '0')}`;

let made: Made;
let account: Awaited<ReturnType<typeof createVerifiedAccount>>;
let conferenceID = '';
const project = () => `/organization/${made.organizationID}/project/${made.projectID}`;

async function post(request: APIRequestContext, path: string, data: unknown) {
  const response = await request.post(path, { headers: bearer(made.token), data });
  expect(response.status(), await response.text()).toBe(201);
  return (await response.json()) as { _id: string };
}

async function putLayout(request: APIRequestContext, collectionID: string, settings: unknown, nestedID?: string) {
  const response = await request.put(`${content(made, 'collection', collectionID, 'layout')}${nestedID ? `?nestedID=${nestedID}` : ''}`, { headers: bearer(made.token), data: settings });
  expect(response.status(), await response.text()).toBe(200);
}

async function seed(request: APIRequestContext) {
  await post(request, content(made, 'collection'), {
    id: 'events',
    name: 'Events',
    schema: [
      { name: 'Title', slug: 'title', type: 1, primaryField: true },
      { name: 'Starts', slug: 'starts', type: 10 },
      { name: 'Ends', slug: 'ends', type: 10 },
    ],
  });
  await post(request, content(made, 'collection', 'events', 'item'), { title: 'Harvest fair', starts: `${day(10)}T09:00:00.000Z`, ends: `${day(10)}T12:00:00.000Z` });
  await post(request, content(made, 'collection', 'events', 'item'), { title: 'Loose tasting' });
  await post(request, content(made, 'collection', 'events', 'item'), { title: 'Loose pickling' });
  // Stored as the list's layout: back from the item page (no query parameter) the list shows the calendar again.
  await putLayout(request, 'events', { layout: 'calendar', startKey: 'starts', endKey: 'ends', titleKeys: ['title'] });

  await post(request, content(made, 'collection'), {
    id: 'conferences',
    name: 'Conferences',
    schema: [
      { name: 'Name', slug: 'name', type: 1, primaryField: true },
      {
        name: 'Sessions',
        slug: 'sessions',
        type: 12,
        nestedCollectionSchema: [
          { name: 'Topic', slug: 'topic', type: 1 },
          { name: 'At', slug: 'at', type: 10 },
        ],
      },
    ],
  });
  conferenceID = (await post(request, content(made, 'collection', 'conferences', 'item'), { name: 'Preserves' }))._id;
  await post(request, `${content(made, 'collection', 'conferences', 'item', conferenceID)}?nestedID=sessions`, { topic: 'Quince paste', at: `${day(12)}T10:00:00.000Z` });
  await post(request, `${content(made, 'collection', 'conferences', 'item', conferenceID)}?nestedID=sessions`, { topic: 'Open questions' });
  await putLayout(request, 'conferences', { layout: 'calendar', startKey: 'at', titleKeys: ['topic'] }, 'sessions');
}

/** The item as the API has it now. */
async function itemTitled(request: APIRequestContext, title: string) {
  const response = await request.get(`${content(made, 'collection', 'events', 'item')}?search=${encodeURIComponent(title)}`, { headers: bearer(made.token) });
  const items = (await response.json()) as Record<string, unknown>[];
  return items.find((item) => item.title === title);
}

const calendar = (page: Page) => page.getByRole('region', { name: /^Calendar of / });
const noDate = (page: Page) => page.getByRole('region', { name: 'No date' });
/** A day of the month grid, by its ISO date. */
const dayCell = (page: Page, iso: string) => calendar(page).locator(`[data-date="${iso}"]`).first();

/** Drags by pointer in small steps (FullCalendar follows mouse moves, not HTML drag events). */
async function drag(page: Page, from: Locator, to: Locator) {
  // Both ends in view, away from the edges where the grid would scroll the page mid-drag.
  await to.scrollIntoViewIfNeeded();
  await from.scrollIntoViewIfNeeded();
  const a = (await from.boundingBox())!;
  const b = (await to.boundingBox())!;
  await page.mouse.move(a.x + 10, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + 20, a.y + a.height / 2 + 5, { steps: 5 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 20 });
  await page.mouse.up();
}

test.describe.configure({ mode: 'serial' });
test.use({ timezoneId: 'UTC', viewport: { width: 1280, height: 1100 } });

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  account = await createVerifiedAccount(request, 'calendarist');
  made = await organizationWithProject(request, account, { organization: 'Pantry', project: 'Agenda' });
  await seed(request);
});

test('a click on a date opens a new item with its start; saved, it shows on that date', async ({ page, request }) => {
  test.setTimeout(120_000);
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await page.goto(`${project()}/collection/events?layout=calendar`);
  await expect(calendar(page)).toBeVisible();
  await expect(calendar(page).getByText('Harvest fair')).toBeVisible();
  await expect(noDate(page).getByText('2 items without a date')).toBeVisible();

  await dayCell(page, day(20)).click({ position: { x: 30, y: 40 } });
  await expect(page.getByRole('heading', { name: 'New Events item' })).toBeVisible();
  await page.getByRole('textbox', { name: 'Title' }).fill('Jam session');
  await page.getByRole('button', { name: 'Create Item' }).click();
  await expect(calendar(page).getByText('Jam session')).toBeVisible();
  const saved = await itemTitled(request, 'Jam session');
  expect(saved?.starts).toBe(`${day(20)}T00:00:00.000Z`);
  await expect(dayCell(page, day(20)).getByText('Jam session')).toBeVisible();
});

test('an item without a date is dragged onto a date, another scheduled by keyboard; events open their item', async ({ page, request }) => {
  test.setTimeout(120_000);
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await page.goto(`${project()}/collection/events?layout=calendar`);
  const tasting = noDate(page).locator('li', { hasText: 'Loose tasting' });
  await expect(tasting).toBeVisible();

  await drag(page, tasting, dayCell(page, day(14)));
  await expect(dayCell(page, day(14)).getByText('Loose tasting')).toBeVisible();
  await expect(noDate(page).getByText('1 item without a date')).toBeVisible();
  const dragged = await itemTitled(request, 'Loose tasting');
  expect(dragged?.starts).toBe(`${day(14)}T00:00:00.000Z`);
  // The layout has an end field: an hour after the start.
  expect(dragged?.ends).toBe(`${day(14)}T01:00:00.000Z`);

  // By keyboard: Schedule…, a date and time, Enter.
  await noDate(page).getByRole('button', { name: 'Schedule Loose pickling' }).press('Enter');
  const start = noDate(page).getByLabel('Start of Loose pickling');
  await expect(start).toBeFocused();
  await start.fill(`${day(16)}T15:30`);
  await start.press('Enter');
  await expect(dayCell(page, day(16)).getByText('Loose pickling')).toBeVisible();
  await expect(noDate(page).getByText('Every item has a date.')).toBeVisible();
  expect((await itemTitled(request, 'Loose pickling'))?.starts).toBe(`${day(16)}T15:30:00.000Z`);

  // Moving an event to another day saves it.
  await drag(page, dayCell(page, day(16)).getByText('Loose pickling'), dayCell(page, day(17)));
  await expect(dayCell(page, day(17)).getByText('Loose pickling')).toBeVisible();
  await expect.poll(async () => (await itemTitled(request, 'Loose pickling'))?.starts).toBe(`${day(17)}T15:30:00.000Z`);

  await calendar(page).getByText('Harvest fair').click();
  await expect(page.getByRole('heading', { name: 'Harvest fair' })).toBeVisible();
});

test('a nested collection shows its calendar and its items without a date', async ({ page }) => {
  test.setTimeout(120_000);
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await page.goto(`${project()}/collection/conferences/item/${conferenceID}/nestedID/sessions`);
  await expect(calendar(page)).toBeVisible();
  await expect(dayCell(page, day(12)).getByText('Quince paste')).toBeVisible();
  await expect(noDate(page).getByRole('button', { name: 'Open Open questions' })).toBeVisible();
  await expectAccessible(page, 'nested calendar');
  await noDate(page).getByRole('button', { name: 'Schedule Open questions' }).click();
  await noDate(page).getByLabel('Start of Open questions').fill(`${day(13)}T11:00`);
  await expectAccessible(page, 'nested calendar, scheduling');
  await noDate(page).getByRole('button', { name: 'Save' }).click();
  await expect(dayCell(page, day(13)).getByText('Open questions')).toBeVisible();
  await expect(noDate(page).getByText('Every item has a date.')).toBeVisible();
  // A click on an event opens the nested item.
  await dayCell(page, day(12)).getByText('Quince paste').click();
  await expect(page.getByRole('heading', { name: 'Quince paste' })).toBeVisible();
});

// One look per theme and per width (docs/architecture.md "Looks in the browser suite").
for (const [colorScheme, width] of [
  ['light', 1280],
  ['dark', 800],
] as const) {
  test(`the calendar passes axe (${colorScheme}, ${width} px)`, async ({ browser }) => {
    test.setTimeout(120_000);
    const context = await browser.newContext({ colorScheme, reducedMotion: 'reduce', viewport: { width, height: 900 }, timezoneId: 'UTC' });
    const page = await context.newPage();
    await signIn(page, account);
    await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
    await page.goto(`${project()}/collection/events?layout=calendar`);
    await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
    await expect(calendar(page).getByText('Harvest fair')).toBeVisible();
    const grid = (await calendar(page).boundingBox())!;
    const side = (await noDate(page).boundingBox())!;
    // Beside the grid when there is room, under it at 900 px and below.
    if (width <= 900) expect(side.y).toBeGreaterThanOrEqual(grid.y + grid.height - 1);
    else expect(side.x).toBeGreaterThanOrEqual(grid.x + grid.width - 1);
    await expectAccessible(page, `calendar ${colorScheme} ${width}`);
    await page.screenshot({ path: `.tmp/calendar-${colorScheme}-${width}.png`, fullPage: true });
    await context.close();
  });
}
