/**
 * Webhooks in the console (docs/webhooks.md). A receiver runs on
 * 127.0.0.2, the range the e2e server may reach (e2e/run.ts), whose retries are seconds apart
 * there. The empty state's Create Webhook opens the 400 px dialog; Create waits for a name and an
 * address; the new webhook opens with its secret; an item write shows up in the delivery log; a
 * failing receiver shows retries; Redeliver sends the delivery again. axe on each screen.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { createVerifiedAccount, type Account } from './support/accounts.ts';
import { expectAccessible } from './support/axe.ts';
import { signIn } from './support/console.ts';
import { bearer, organizationWithProject, type Made } from './support/platform.ts';

let made: Made;
let account: Account;
let receiver: http.Server;
let receiverUrl = '';
let failing = false;
const received: { body: string; signature: string }[] = [];

const projectPath = () => `/organization/${made.organizationID}/project/${made.projectID}`;

test.beforeAll(async ({ request }) => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString('utf8'), signature: String(req.headers['x-larder-signature'] ?? '') });
      res.statusCode = failing ? 500 : 200;
      res.end(failing ? 'receiver down' : 'thanks');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.2', resolve));
  receiverUrl = `http://127.0.0.2:${(receiver.address() as AddressInfo).port}/hook`;

  account = await createVerifiedAccount(request, 'webhooks');
  made = await organizationWithProject(request, account, { organization: 'Webhook Org', project: 'Blog' });
  const collection = await request.post(`/api/organization/${made.organizationID}/project/${made.projectID}/collection`, {
    headers: bearer(made.token),
    data: { id: 'posts', name: 'Posts', schema: [{ name: 'Title', slug: 'title', type: 1, primaryField: true }] },
  });
  expect(collection.status(), await collection.text()).toBe(201);
});

test.afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
});

test('create a webhook in the dialog, see deliveries, retries and a redelivery in its log', async ({ page, request }) => {
  test.setTimeout(90_000);
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await page.goto(`${projectPath()}/webhooks`);
  await expect(page.locator('.webhooks-screen').getByText("You don't seem to have any webhooks yet")).toBeVisible();
  await expectAccessible(page, 'webhooks empty state');

  await page.locator('.webhooks-screen').getByRole('button', { name: 'Create Webhook' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Webhook' });
  await expect(dialog).toBeVisible();
  expect((await dialog.boundingBox())!.width).toBeLessThanOrEqual(400);
  const create = dialog.getByRole('button', { name: 'Create', exact: true });
  await expect(create).toBeDisabled();
  await dialog.getByLabel('Name').fill('Publish hook');
  await expect(create).toBeDisabled();
  await dialog.getByLabel('URI').fill(receiverUrl);
  await expect(dialog.getByLabel('HTTP Method')).toHaveValue('POST');
  await dialog.getByLabel('Filter collections').fill('pos');
  await dialog.getByRole('checkbox', { name: 'Posts' }).check();
  await expectAccessible(page, 'create webhook dialog');
  await expect(create).toBeEnabled();
  await create.click();
  await expect(page.getByText('Webhook created successfully')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('heading', { level: 2, name: 'Publish hook' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Signing secret' })).toHaveValue(/^whsec_/);

  // An item write is delivered and logged.
  const item = await request.post(`/api/organization/${made.organizationID}/project/${made.projectID}/collection/posts/item`, { headers: bearer(made.token), data: { title: 'First post' } });
  expect(item.status()).toBe(201);
  const log = page.locator('table.webhook-log tbody tr');
  await expect(log).toHaveCount(1, { timeout: 20_000 });
  await expect(log.first()).toContainText('200');
  await expect(log.first()).toContainText('thanks');
  expect(JSON.parse(received[0]!.body)).toMatchObject({ collectionID: 'posts', trigger: 'create', item: { title: 'First post' } });
  expect(received[0]!.signature).toMatch(/^sha256=[0-9a-f]{64}$/);

  // A failing receiver: every attempt is logged as it is retried.
  failing = true;
  await request.post(`/api/organization/${made.organizationID}/project/${made.projectID}/collection/posts/item`, { headers: bearer(made.token), data: { title: 'Second post' } });
  await expect(page.locator('table.webhook-log tbody tr', { hasText: 'receiver down' })).toHaveCount(3, { timeout: 40_000 });
  await expect(log.first()).toContainText('500');
  await expect(log.first()).toContainText('failed');
  await expectAccessible(page, 'webhook view with its log');

  // Redeliver the failed delivery once the receiver is back.
  failing = false;
  await log.first().getByRole('button', { name: 'Redeliver' }).click();
  await expect(log.first()).toContainText('redelivery', { timeout: 20_000 });
  await expect(log.first()).toContainText('200');
  await expect(log).toHaveCount(5);
  expect(received.filter((r) => JSON.parse(r.body).item.title === 'Second post')).toHaveLength(4);
});

test('the webhook view passes axe in dark mode at 900 px', async ({ browser }) => {
  const context = await browser.newContext({ colorScheme: 'dark', viewport: { width: 900, height: 900 } });
  const page = await context.newPage();
  try {
    await signIn(page, account);
    await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
    const created = await page.request.post('/api/webhook', {
      headers: bearer(made.token),
      data: { organizationID: made.organizationID, projectID: made.projectID, name: 'Dark hook', webhookURI: receiverUrl, method: 'PUT', trigger: 'update' },
    });
    expect(created.status()).toBe(201);
    const webhook = (await created.json()) as { id: string };
    await page.goto(`${projectPath()}/webhooks/${webhook.id}`);
    await expect(page.getByRole('heading', { level: 2, name: 'Dark hook' })).toBeVisible();
    await expectAccessible(page, 'webhook view dark 900');
  } finally {
    await context.close();
  }
});
