/**
 * Project users managed from the console (docs/console.md "Project users"): a member adds a user
 * by hand (e-mail, password, already verified), opens them (keyboard), sends a password reset,
 * then links them to an item through the item page's Users panel, and deletes them ("User has
 * been deleted"). At 1280 and 900 px, light and dark; axe on every screen; screenshots in
 * .tmp/shots/G.
 */
import { expect, test } from '@playwright/test';
import { createVerifiedAccount } from './support/accounts.ts';
import { expectAccessible } from './support/axe.ts';
import { signIn } from './support/console.ts';
import { bearer, organizationWithProject, type Made } from './support/platform.ts';

const api = (made: Made, ...rest: string[]) => [`/api/organization/${made.organizationID}/project/${made.projectID}`, ...rest].join('/');
const projectPath = (made: Made) => `/organization/${made.organizationID}/project/${made.projectID}`;
const shot = (name: string) => `.tmp/shots/G/${name}.png`;

// One look per theme and per width (docs/architecture.md "Looks in the browser suite").
for (const [colorScheme, width] of [
  ['light', 1280],
  ['dark', 900],
] as const) {
  test(`a user is added by hand, opened, sent a reset, linked to an item and deleted (${colorScheme}, ${width} px)`, async ({ browser, request }) => {
    test.setTimeout(120_000);
    const tag = `${colorScheme}${width}`;
    const admin = await createVerifiedAccount(request, `pu${tag}`);
    const made = await organizationWithProject(request, admin, { organization: 'People', project: 'App' });
    const collection = await request.post(api(made, 'collection'), {
      headers: bearer(made.token),
      data: { id: 'posts', name: 'Posts', schema: [{ name: 'Title', slug: 'title', type: 1, primaryField: true }] },
    });
    expect(collection.status(), await collection.text()).toBe(201);
    const item = await request.post(api(made, 'collection', 'posts', 'item'), { headers: bearer(made.token), data: { title: 'Hello' } });
    const itemID = ((await item.json()) as { _id: string })._id;

    const context = await browser.newContext({ colorScheme, reducedMotion: 'reduce', viewport: { width, height: 900 } });
    const page = await context.newPage();
    await signIn(page, admin);
    await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
    await page.goto(`${projectPath(made)}/auth/users`);
    await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
    await expect(page.getByRole('heading', { name: 'Users Beta' })).toBeVisible();
    await expect(page.getByText(/Your app has no users yet/)).toBeVisible();

    // Add a user by hand, from the keyboard.
    const email = `${tag}-tester@example.com`;
    await page.getByRole('button', { name: 'Add user' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Add user' });
    await expect(dialog.getByLabel('E-mail', { exact: true })).toBeFocused();
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await page.keyboard.type('app user password 42');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    await expect(dialog.getByRole('switch', { name: /already verified/ })).toBeChecked();
    await page.screenshot({ path: shot(`add-user-${tag}`) });
    await expectAccessible(page, `add user ${tag}`);
    await dialog.getByRole('button', { name: 'Add user' }).click();
    await expect(page.getByText('User has been added')).toBeVisible();
    await expect(dialog).toHaveCount(0);
    const table = page.getByRole('table', { name: /Users/ });
    await expect(table.getByRole('rowheader', { name: email })).toBeVisible();
    const listed = (await (await request.get(api(made, 'user'), { headers: bearer(made.token) })).json()) as { users: { userID: string; email: string; verified: boolean }[] };
    expect(listed.users).toMatchObject([{ email, verified: true }]);
    const userID = listed.users[0]!.userID;
    await page.screenshot({ path: shot(`users-${tag}`) });
    await expectAccessible(page, `users ${tag}`);

    // Open the user; send a password reset.
    await page.getByRole('button', { name: `View ${email}` }).focus();
    await page.keyboard.press('Enter');
    const details = page.getByRole('dialog', { name: email });
    await expect(details.getByText(userID)).toBeVisible();
    await expect(details.getByText('Verified')).toBeVisible();
    await page.screenshot({ path: shot(`user-${tag}`) });
    await expectAccessible(page, `user dialog ${tag}`);
    await details.getByRole('button', { name: 'Send password reset' }).click();
    await expect(page.getByText('Password Reset Email Sent')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(details).toHaveCount(0);

    // The item page's Users panel can use them now.
    await page.goto(`${projectPath(made)}/collection/posts/item/${itemID}`);
    const panel = page.getByRole('region', { name: 'Users' });
    await panel.getByLabel('User to add').selectOption({ label: email });
    await panel.getByRole('button', { name: 'Add user' }).click();
    await expect(panel.getByRole('list', { name: 'Users of this item' }).getByText(email)).toBeVisible();
    await panel.scrollIntoViewIfNeeded();
    await page.screenshot({ path: shot(`item-panel-${tag}`) });
    await expectAccessible(page, `item users panel ${tag}`);

    // Delete the user.
    await page.goto(`${projectPath(made)}/auth/users`);
    await page.getByRole('button', { name: `Delete ${email}` }).click();
    const confirm = page.getByRole('dialog', { name: `Delete ${email}?` });
    await expectAccessible(page, `delete user ${tag}`);
    await confirm.getByRole('button', { name: 'Delete user' }).click();
    await expect(page.getByText('User has been deleted')).toBeVisible();
    await expect(page.getByRole('table', { name: /Users/ })).toHaveCount(0);
    await context.close();
  });
}
