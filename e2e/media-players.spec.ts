/**
 * Previews of stored files on the item page (an audio player at speed 1, 1.5
 * or 2 with download and delete; a 3D viewer for obj, stl, dae, ply, fbx, gltf and glb):
 * files are put on an item through the API (`PUT …/item/{id}/image`), then the page plays a
 * WAV at 1.5×, draws a 3D model on its canvas (Chromium's software WebGL), reads a glTF whose
 * buffer is a data: URI under the console's CSP, says a broken model could not be read, and passes
 * axe in light and dark. Every file is written by code here (e2e/support/media-files.ts).
 */
import { expect, test, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import sharp from 'sharp';
import { createVerifiedAccount, type Account } from './support/accounts.ts';
import { expectAccessible } from './support/axe.ts';
import { signIn, watchCsp } from './support/console.ts';
import { asciiStl, brokenModel, silentWav, triangleGltf } from './support/media-files.ts';
import { bearer, organizationWithProject, type Made } from './support/platform.ts';

let made: Made;
let account: Account;
let itemID = '';
let quietID = '';

const content = (...rest: string[]) => [`/api/organization/${made.organizationID}/project/${made.projectID}`, ...rest].join('/');
const itemPath = (id: string) => `/organization/${made.organizationID}/project/${made.projectID}/collection/media/item/${id}`;
const field = (page: Page, slug: string): Locator => page.locator(`.field-editor[data-field="${slug}"]`);

/** A 1×1 PNG. */
const pixel = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

async function upload(request: APIRequestContext, slug: string, name: string, mimeType: string, buffer: Buffer, altText = '') {
  const response = await request.put(content('collection', 'media', 'item', itemID, 'image'), {
    headers: bearer(made.token),
    params: { imageSlug: slug },
    multipart: { altText, imageFile: { name, mimeType, buffer } },
  });
  expect(response.status(), await response.text()).toBe(200);
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async ({ request }) => {
  test.setTimeout(120_000);
  account = await createVerifiedAccount(request, 'mediaplay');
  made = await organizationWithProject(request, account, { organization: 'Studio', project: 'Sounds and shapes' });
  const collection = await request.post(content('collection'), {
    headers: bearer(made.token),
    data: {
      id: 'media',
      name: 'Media',
      schema: [
        { name: 'Title', slug: 'title', type: 1, primaryField: true },
        { name: 'Recording', slug: 'recording', type: 5, accept: 'audio/*' },
        { name: 'Shape', slug: 'shape', type: 5, accept: '.stl,.obj,.ply' },
        { name: 'Scene', slug: 'scene', type: 5, accept: '.gltf,.glb' },
        { name: 'Damaged', slug: 'damaged', type: 5, accept: '.stl' },
        { name: 'Photo', slug: 'photo', type: 5 },
      ],
    },
  });
  expect(collection.status(), await collection.text()).toBe(201);
  const item = await request.post(content('collection', 'media', 'item'), { headers: bearer(made.token), data: { title: 'Specimen' } });
  expect(item.status(), await item.text()).toBe(201);
  itemID = ((await item.json()) as { _id: string })._id;
  await upload(request, 'recording', 'chime.wav', 'audio/wav', silentWav(800));
  await upload(request, 'shape', 'tetrahedron.stl', 'model/stl', asciiStl());
  await upload(request, 'scene', 'triangle.gltf', 'model/gltf+json', triangleGltf());
  await upload(request, 'damaged', 'damaged.stl', 'model/stl', brokenModel());
  await upload(request, 'photo', 'pixel.png', 'image/png', pixel, 'A single pixel');
  const quiet = await request.post(content('collection', 'media', 'item'), { headers: bearer(made.token), data: { title: 'Quiet' } });
  expect(quiet.status(), await quiet.text()).toBe(201);
  quietID = ((await quiet.json()) as { _id: string })._id;
  await request
    .put(content('collection', 'media', 'item', quietID, 'image'), {
      headers: bearer(made.token),
      params: { imageSlug: 'recording' },
      multipart: { altText: '', imageFile: { name: 'hush.wav', mimeType: 'audio/wav', buffer: silentWav(300) } },
    })
    .then(async (response) => expect(response.status(), await response.text()).toBe(200));
});

async function openItem(page: Page, id = itemID, title = 'Specimen') {
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await page.goto(itemPath(id));
  await expect(page.getByRole('heading', { name: title, level: 2 })).toBeVisible();
}

test('plays audio at 1.5× and offers its download', async ({ page, request }) => {
  await openItem(page);
  const recording = field(page, 'recording');
  const audio = recording.locator('audio');
  await expect(audio).toBeVisible();
  const speeds = recording.getByRole('group', { name: 'Playback speed' });
  await expect(speeds.getByRole('radio', { name: '1×' })).toBeChecked();
  await speeds.getByRole('radio', { name: '1.5×' }).check();
  await expect(speeds.getByRole('radio', { name: '1.5×' })).toBeChecked();
  expect(await audio.evaluate((element: HTMLAudioElement) => element.playbackRate)).toBe(1.5);

  // The choice above was the user's gesture, so the page may start playing.
  const played = await audio.evaluate(async (element: HTMLAudioElement) => {
    await element.play();
    await new Promise<void>((resolve) => {
      if (element.ended) resolve();
      else element.addEventListener('ended', () => resolve(), { once: true });
    });
    return { rate: element.playbackRate, time: element.currentTime, duration: element.duration, error: element.error?.code ?? null };
  });
  expect(played.error).toBeNull();
  expect(played.rate).toBe(1.5);
  expect(played.duration).toBeCloseTo(0.8, 1);
  expect(played.time).toBeGreaterThan(0.7);

  // The same speed holds after the source reloads.
  await audio.evaluate((element: HTMLAudioElement) => element.load());
  await expect.poll(() => audio.evaluate((element: HTMLAudioElement) => element.readyState)).toBeGreaterThan(0);
  expect(await audio.evaluate((element: HTMLAudioElement) => element.playbackRate)).toBe(1.5);

  const download = recording.getByRole('link', { name: /^Download / });
  const href = await download.getAttribute('href');
  expect(href).toMatch(/\/files\/.+\.wav\?download=true$/);
  const served = await request.get(href!);
  expect(served.status()).toBe(200);
  expect(served.headers()['content-disposition']).toMatch(/^attachment/);
});

test('draws a 3D model on its canvas, reads a glTF with a data: buffer, and names a broken file', async ({ page }) => {
  const violations = watchCsp(page);
  // three comes in its own chunk, fetched only once a model is shown.
  const viewerChunks: string[] = [];
  page.on('request', (request) => {
    if (/\/assets\/ModelViewer-[^/]+\.js$/.test(new URL(request.url()).pathname)) viewerChunks.push(request.url());
  });
  await openItem(page, quietID, 'Quiet');
  await expect(field(page, 'recording').getByRole('group', { name: 'Playback speed' })).toBeVisible();
  expect(viewerChunks).toEqual([]);
  await page.goto(itemPath(itemID));
  await expect(page.getByRole('heading', { name: 'Specimen', level: 2 })).toBeVisible();

  const canvas = field(page, 'shape').getByRole('img', { name: /^3D model / });
  await expect(canvas).toBeVisible();
  await expect(field(page, 'shape').getByRole('button', { name: 'Reset view' })).toBeVisible();
  await expect(field(page, 'shape').getByText(/WebGL/)).toHaveCount(0);
  // Drawn: the canvas is not one flat colour (the model is lit and shaded over the background).
  const drawn = async () => {
    const { channels } = await sharp(await canvas.screenshot()).stats();
    return Math.max(...channels.slice(0, 3).map((c) => c.stdev));
  };
  await expect.poll(drawn).toBeGreaterThan(10);

  // It turns by keyboard: Shift+arrow rotates, so the picture changes.
  const before = await canvas.screenshot();
  await canvas.focus();
  await page.keyboard.press('Shift+ArrowLeft');
  await page.keyboard.press('Shift+ArrowLeft');
  await expect.poll(async () => Buffer.compare(before, await canvas.screenshot())).not.toBe(0);
  await field(page, 'shape').getByRole('button', { name: 'Reset view' }).click();

  await expect(field(page, 'scene').getByRole('img', { name: /^3D model / })).toBeVisible();
  await expect(field(page, 'scene').getByRole('button', { name: 'Reset view' })).toBeVisible();

  await expect(field(page, 'damaged').getByText(/^This 3D file could not be read\./)).toBeVisible();
  await expect(field(page, 'damaged').getByRole('img', { name: /^3D model / })).toBeHidden();
  await expect(field(page, 'damaged').getByRole('link', { name: /^Download / })).toBeVisible();

  await expect(field(page, 'photo').getByRole('img', { name: 'A single pixel' })).toBeVisible();
  expect(viewerChunks).toHaveLength(1);
  expect(violations).toEqual([]);
});

// One look per theme and per width (docs/architecture.md "Looks in the browser suite").
for (const [colorScheme, width] of [
  ['light', 1280],
  ['dark', 900],
] as const) {
  test(`the players pass axe (${colorScheme}, ${width} px)`, async ({ browser }) => {
    const context = await browser.newContext({ colorScheme, reducedMotion: 'reduce', viewport: { width, height: 900 } });
    try {
      const page = await context.newPage();
      await openItem(page);
      await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
      await expect(field(page, 'shape').getByRole('button', { name: 'Reset view' })).toBeVisible();
      await expect(field(page, 'damaged').getByText(/^This 3D file could not be read\./)).toBeVisible();
      await expect(field(page, 'recording').getByRole('group', { name: 'Playback speed' })).toBeVisible();
      await expectAccessible(page, `media players ${colorScheme} ${width}`);
      await page.screenshot({ path: `/tmp/media-players-${colorScheme}-${width}.png`, fullPage: true });
    } finally {
      await context.close();
    }
  });
}
