/**
 * Organizations as people use them: an admin makes one and a project in it, invites colleagues
 * by e-mail; a new colleague joins by signing up, an existing one by signing in; a read-only
 * member sees no admin sections and the server refuses their writes.
 */
import { expect, test, type Page } from '@playwright/test';
import { createVerifiedAccount, latestMail, newAccount } from './support/accounts.ts';
import { expectSignedIn, signIn } from './support/console.ts';
import { bearer, consoleToken } from './support/platform.ts';

async function inviteFrom(page: Page, email: string) {
  await page.getByRole('tab', { name: 'Settings' }).click();
  await page.getByRole('button', { name: 'Invite' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite people' });
  await dialog.getByRole('textbox', { name: /E-mail address/ }).fill(email);
  await dialog.getByRole('button', { name: 'Send Invite' }).click();
  await expect(page.getByText('Invitation sent')).toBeVisible();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('row', { name: new RegExp(email) })).toContainText('Invited');
}

test('an admin creates an organization and a project, invites a colleague who joins by signing up', async ({ page, browser, request }) => {
  const admin = await createVerifiedAccount(request, 'admin');
  const organizationName = `Kitchen ${admin.username}`;
  await signIn(page, admin);

  // No organization yet: a dialog that does not go away asks for the first one.
  const first = page.getByRole('dialog', { name: 'Create your first organization' });
  await expect(first).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(first).toBeVisible();
  await expect(first.getByRole('button', { name: 'Create organization' })).toBeDisabled();
  await first.getByLabel('Organization name').fill(organizationName);
  await first.getByRole('button', { name: 'Create organization' }).click();
  await expect(page).toHaveURL(/\/organization\/[0-9a-f]{24}$/);
  await expect(page.getByRole('heading', { level: 1, name: organizationName })).toBeVisible();
  const organizationID = new URL(page.url()).pathname.split('/').pop()!;

  // A project: Create waits for a name.
  await page.getByRole('button', { name: 'New Project' }).click();
  const newProject = page.getByRole('dialog', { name: 'New Project' });
  await expect(newProject.getByRole('button', { name: 'Create' })).toBeDisabled();
  await newProject.getByLabel('Project Name').fill('  Recipes  ');
  await newProject.getByLabel('Description').fill('Everything we cook');
  await newProject.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('Project Created')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Recipes' })).toBeVisible();
  await page.getByRole('link', { name: `Back to ${organizationName}` }).click();
  await expect(page.getByRole('link', { name: /Recipes.*Everything we cook/ })).toBeVisible();

  // Invite a colleague who has no account yet.
  const colleague = newAccount('colleague');
  await inviteFrom(page, colleague.email);
  const invitation = await latestMail(request, colleague.email, 'invite');
  expect(invitation.subject).toContain(organizationName);

  // The colleague opens the link signed out: no account yet, so sign-up, with the invite.
  const context = await browser.newContext();
  const other = await context.newPage();
  await other.goto(new URL(invitation.link!).pathname);
  await expect(other).toHaveURL(/\/signup\?inviteID=/);
  await other.getByLabel('Username').fill(colleague.username);
  await other.getByLabel('E-mail address').fill(colleague.email);
  await other.getByLabel('Password').fill(colleague.password);
  await other.getByRole('button', { name: 'Create account' }).click();
  // Invited to this address, the account needs no confirmation: signed in, the invite accepted.
  await expect(other.getByText('Invite has been accepted')).toBeVisible();
  await expect(other).toHaveURL(new RegExp(`/organization/${organizationID}$`));
  await expect(other.getByRole('heading', { level: 1, name: organizationName })).toBeVisible();

  // Read-only: no New Project card, no admin sections.
  await expect(other.getByRole('link', { name: /Recipes/ })).toBeVisible();
  await expect(other.getByRole('button', { name: 'New Project' })).toHaveCount(0);
  await other.getByRole('tab', { name: 'Settings' }).click();
  await expect(other.getByRole('heading', { level: 2, name: 'Users' })).toBeVisible();
  for (const name of ['Billing', 'Plan & Usage', 'Danger Zone']) await expect(other.getByRole('heading', { name })).toHaveCount(0);
  await expect(other.getByRole('button', { name: 'Invite' })).toHaveCount(0);
  await expect(other.getByText('Only administrators can rename the organization.')).toBeVisible();
  const row = other.getByRole('row', { name: new RegExp(colleague.email) });
  await expect(row).toContainText('Active');
  await expect(row).toContainText('Read only');

  // A write through the API with the colleague's own token is refused.
  const token = await consoleToken(other);
  const write = await other.request.post(`/api/organization/${organizationID}/project`, { headers: bearer(token), data: { name: 'Sneaky' } });
  expect(write.status()).toBe(403);
  const rename = await other.request.put(`/api/organization/${organizationID}`, { headers: bearer(token), data: { name: 'Mine now' } });
  expect(rename.status()).toBe(403);
  await context.close();

  // The admin sees the colleague active now.
  await page.reload();
  await expect(page.getByRole('row', { name: new RegExp(colleague.email) })).toContainText('Active');
});

test('an existing user opens an invitation signed out: sign in, then the invite is accepted', async ({ page, browser, request }) => {
  const admin = await createVerifiedAccount(request, 'owner');
  const member = await createVerifiedAccount(request, 'member');
  await signIn(page, admin);
  const first = page.getByRole('dialog', { name: 'Create your first organization' });
  await first.getByLabel('Organization name').fill(`Bakery ${admin.username}`);
  await first.getByRole('button', { name: 'Create organization' }).click();
  await expect(page).toHaveURL(/\/organization\//);
  const organizationID = new URL(page.url()).pathname.split('/').pop()!;
  await inviteFrom(page, member.email);

  const link = (await latestMail(request, member.email, 'invite')).link!;
  const context = await browser.newContext();
  const other = await context.newPage();
  await other.goto(new URL(link).pathname);
  // The invited person already has a verified account: sign in, with the invite.
  await expect(other).toHaveURL(/\/login\?inviteID=/);
  await expect(other.getByRole('alert')).toHaveText('Sign in to accept your invitation.');
  await other.getByLabel('Username or e-mail').fill(member.username);
  await other.getByLabel('Password').fill(member.password);
  await other.getByRole('button', { name: 'Sign in' }).click();
  await expect(other.getByText('Invite has been accepted')).toBeVisible();
  await expect(other).toHaveURL(new RegExp(`/organization/${organizationID}$`));
  await expectSignedIn(other);

  // The same link again: the invitation is used up.
  await other.goto(new URL(link).pathname);
  await expect(other.getByText('Invitation can not be found')).toBeVisible();
  await context.close();
});

test('the organization guard sends a stranger to their own first organization', async ({ page, request }) => {
  const owner = await createVerifiedAccount(request, 'host');
  const stranger = await createVerifiedAccount(request, 'stranger');
  await signIn(page, owner);
  const first = page.getByRole('dialog', { name: 'Create your first organization' });
  await first.getByLabel('Organization name').fill('Private');
  await first.getByRole('button', { name: 'Create organization' }).click();
  await expect(page).toHaveURL(/\/organization\//);
  const privateID = new URL(page.url()).pathname.split('/').pop()!;

  const context = await page.context().browser()!.newContext();
  const other = await context.newPage();
  await signIn(other, stranger);
  const own = other.getByRole('dialog', { name: 'Create your first organization' });
  await own.getByLabel('Organization name').fill('Mine');
  await own.getByRole('button', { name: 'Create organization' }).click();
  await expect(other).toHaveURL(/\/organization\//);
  const mineID = new URL(other.url()).pathname.split('/').pop()!;
  await other.goto(`/organization/${privateID}/settings`);
  await expect(other).toHaveURL(new RegExp(`/organization/${mineID}$`));
  await expect(other.getByRole('heading', { level: 1, name: 'Mine' })).toBeVisible();
  // Home returns to the last organization used.
  await other.goto('/');
  await expect(other).toHaveURL(new RegExp(`/organization/${mineID}$`));
  await context.close();
});

test('rename and delete an organization; deleting needs its exact name', async ({ page, request }) => {
  const admin = await createVerifiedAccount(request, 'renamer');
  await signIn(page, admin);
  const first = page.getByRole('dialog', { name: 'Create your first organization' });
  await first.getByLabel('Organization name').fill('Old name');
  await first.getByRole('button', { name: 'Create organization' }).click();
  await page.getByRole('tab', { name: 'Settings' }).click();
  await page.getByLabel('Organization name').fill('New name');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Organization Updated')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'New name' })).toBeVisible();

  await page.getByRole('button', { name: 'Delete organization' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete organization' });
  await dialog.getByLabel('Organization name').fill('new name');
  await dialog.getByRole('button', { name: 'Delete organization' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Organization name is not correct');
  await dialog.getByLabel('Organization name').fill('New name');
  await dialog.getByRole('button', { name: 'Delete organization' }).click();
  await expect(page.getByText('Organization Deleted')).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('dialog', { name: 'Create your first organization' })).toBeVisible();
});
