/**
 * The console's Integrations section (docs/integrations.md "The console") in Chromium: an admin
 * opens it from the side menu, adds the chat integration with the webhook URL of a stand-in on
 * 127.0.0.2 (the one range the e2e server may reach: `OUTBOUND_ALLOW_PRIVATE` in e2e/run.ts), an
 * item created through the API arrives there as a Slack message and its run shows in the run log;
 * "Send a test" does the same. axe on the list and the instance at 1280 and 900 px (the instance
 * also at 600 px, its run log without sideways scrolling), light and dark.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { createVerifiedAccount, type Account } from './support/accounts.ts';
import { expectAccessible } from './support/axe.ts';
import { signIn } from './support/console.ts';
import { bearer, organizationWithProject, type Made } from './support/platform.ts';

let made: Made;
let account: Account;
let standIn: http.Server;
let hookUrl = '';
const messages: { url: string; body: { blocks?: { type: string; text?: { text: string } }[]; text?: string } }[] = [];

const projectPath = () => `/organization/${made.organizationID}/project/${made.projectID}`;

test.beforeAll(async ({ request }) => {
  // Answers as Slack's incoming webhooks do: 200 "ok".
  standIn = http.createServer((req, res) => {
    let data = '';
    req.on('data', (chunk: Buffer) => (data += chunk.toString()));
    req.on('end', () => {
      messages.push({ url: req.url ?? '', body: JSON.parse(data || '{}') as (typeof messages)[number]['body'] });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.2', resolve));
  hookUrl = `http://127.0.0.2:${(standIn.address() as AddressInfo).port}/services/T0/B0/secret`;

  account = await createVerifiedAccount(request, 'integrations');
  made = await organizationWithProject(request, account, { organization: 'Integrations Org', project: 'Journal' });
  const collection = await request.post(`/api/organization/${made.organizationID}/project/${made.projectID}/collection`, {
    headers: bearer(made.token),
    data: { id: 'posts', name: 'Posts', schema: [{ name: 'Title', slug: 'title', type: 1, primaryField: true }] },
  });
  expect(collection.status(), await collection.text()).toBe(201);
});

test.afterAll(async () => {
  await new Promise<void>((resolve) => standIn.close(() => resolve()));
});

const headerOf = (message: (typeof messages)[number]) => JSON.stringify(message.body);

async function openSection(page: Page) {
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await page.goto(`${projectPath()}/collection/posts`);
  await page.getByRole('navigation', { name: 'Project menu' }).getByRole('button', { name: 'Integrations' }).click();
  await expect(page).toHaveURL(new RegExp(`${projectPath()}/integrations$`));
  await expect(page.getByRole('heading', { level: 2, name: 'Integrations' })).toBeVisible();
}

test('the chat integration: added in the console, an item reaches the stand-in, the run and a test in the log', async ({ page, request }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await openSection(page);
  await expect(page.getByText('No integrations yet.')).toBeVisible();
  await page.getByRole('link', { name: 'Add Chat notification' }).click();
  const form = page.getByRole('form', { name: 'Add Chat notification' });
  await form.getByLabel('Name').fill('Team chat');
  await form.getByRole('checkbox', { name: 'Posts' }).check();
  await form.getByLabel('Incoming webhook URL').fill(hookUrl);
  await form.getByLabel('Message heading').fill('New journal post');
  await page.screenshot({ path: '/tmp/integrations-add-light-1280.png', fullPage: true });
  await expectAccessible(page, 'integration add light 1280');
  await form.getByRole('button', { name: 'Add integration' }).click();
  await expect(page).toHaveURL(new RegExp(`${projectPath()}/integration/[^/]+$`));
  await expect(page.getByRole('heading', { level: 2, name: 'Team chat' })).toBeVisible();
  await expect(page.getByLabel('Incoming webhook URL')).toHaveValue('');
  await expect(page.getByText('Stored — leave empty to keep')).toBeVisible();
  await expect(page.getByText('No runs yet.')).toBeVisible();

  const created = await request.post(`/api/organization/${made.organizationID}/project/${made.projectID}/collection/posts/item`, {
    headers: bearer(made.token),
    data: { title: 'Hello from the browser test' },
  });
  expect(created.status(), await created.text()).toBeLessThan(300);
  await expect.poll(() => messages.map(headerOf).join('\n'), { timeout: 20_000 }).toContain('Hello from the browser test');
  expect(messages[0]!.url).toBe('/services/T0/B0/secret');
  expect(headerOf(messages[0]!)).toContain('New journal post');

  const log = page.getByRole('table', { name: 'Run log' });
  await expect(log.getByRole('row').filter({ hasText: 'Item created' }).filter({ hasText: 'Succeeded' })).toHaveCount(1, { timeout: 20_000 });

  await page.getByRole('button', { name: 'Send a test' }).click();
  await expect(log.getByRole('row').filter({ hasText: 'Test' })).toHaveCount(1);
  await expect(log.getByRole('row').filter({ hasText: 'Test' }).filter({ hasText: 'Succeeded' })).toHaveCount(1, { timeout: 20_000 });
  await expect.poll(() => messages.length, { timeout: 20_000 }).toBe(2);
  await page.screenshot({ path: '/tmp/integrations-instance-light-1280.png', fullPage: true });
  await expectAccessible(page, 'integration instance light 1280');

  // The list shows it with its last run.
  await page.getByRole('link', { name: 'All integrations' }).click();
  const row = page.getByRole('table', { name: "This project's integrations" }).getByRole('row').filter({ hasText: 'Team chat' });
  await expect(row).toContainText('Chat notification');
  await expect(row).toContainText('On');
  await expect(row).toContainText('Succeeded');
});

test('the list and an instance pass axe at 1280 and 900 px (the instance at 600 px too), light and dark, without sideways scrolling', async ({ browser, request }) => {
  // Ten axe runs (two themes, three widths): minutes on a loaded 2-core machine.
  test.setTimeout(300_000);
  // On its own (a retry runs in a fresh project): the instance is made through the API.
  const calls = `/api/organization/${made.organizationID}/project/${made.projectID}/integrations`;
  const existing = (await (await request.get(calls, { headers: bearer(made.token) })).json()) as { name: string }[];
  if (!existing.some((instance) => instance.name === 'Team chat')) {
    const added = await request.post(calls, { headers: bearer(made.token), data: { integration: 'slack', name: 'Team chat', collections: ['posts'], events: ['create'], settings: { webhookUrl: hookUrl } } });
    expect(added.status(), await added.text()).toBe(201);
  }
  for (const colorScheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({ colorScheme, reducedMotion: 'reduce', viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    try {
      await openSection(page);
      await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
      const list = page.getByRole('table', { name: "This project's integrations" });
      await expect(list.getByRole('row').filter({ hasText: 'Team chat' })).toHaveCount(1);
      for (const width of [1280, 900]) {
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({ path: `/tmp/integrations-list-${colorScheme}-${width}.png`, fullPage: true });
        expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth), `list at ${width} px`).toBe(true);
        await expectAccessible(page, `integrations list ${colorScheme} ${width}`);
      }
      await page.setViewportSize({ width: 1280, height: 900 });
      await list.getByRole('link', { name: 'Team chat' }).click();
      await expect(page.getByRole('table', { name: 'Run log' })).toBeVisible();
      for (const width of [1280, 900, 600]) {
        await page.setViewportSize({ width, height: 900 });
        await page.screenshot({ path: `/tmp/integrations-instance-${colorScheme}-${width}.png`, fullPage: true });
        expect(await page.evaluate(() => document.scrollingElement!.scrollWidth <= window.innerWidth), `instance at ${width} px`).toBe(true);
        // The run log fits too: below 40rem its runs are laid out on lines of their own.
        const runLog = page.locator('.integration-runs .table-scroll');
        expect(await runLog.evaluate((element) => element.scrollWidth <= element.clientWidth), `run log at ${width} px`).toBe(true);
        await expectAccessible(page, `integration instance ${colorScheme} ${width}`);
      }
      // The delete confirmation, reached with the keyboard, and left with Escape.
      await page.getByRole('button', { name: 'Delete' }).focus();
      await page.keyboard.press('Enter');
      await expect(page.getByRole('dialog', { name: 'Delete the integration?' })).toBeVisible();
      await expectAccessible(page, `integration delete ${colorScheme}`);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('dialog')).toHaveCount(0);
    } finally {
      await context.close();
    }
  }
});
