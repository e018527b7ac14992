/**
 * Mail in the console (docs/mail.md): a variable the template may not use is refused at its field
 * and nothing is saved; an admin edits the verification template (a new subject and a line of text)
 * with its live preview, saves it and sends a test to their own address; an app user signs up through the public Auth
 * API (`POST /auth/public/user` with an API token); the new text is in the Dev mailbox and in the
 * project's delivery log (its detail, and Resend); the mail's link opens the verification page, which
 * confirms the address once and refuses the used link. Sender: the project's own SMTP server, an
 * unreachable host refused at its field, the password never answered. Each kind keeps its unsaved
 * draft, marked, and leaving the Templates tab (or reloading) asks first. The delivery log fits at
 * 1280, 900 and 600 px without sideways scrolling, in both themes. axe in light at 1280 px
 * (templates, log) and in dark at 900 px (sender, verification page).
 */
import { expect, test, type APIRequestContext } from '@playwright/test';
import { createVerifiedAccount, latestMail, type Account } from './support/accounts.ts';
import { expectAccessible } from './support/axe.ts';
import { signIn } from './support/console.ts';
import { bearer, mintApiToken, organizationWithProject, type Made } from './support/platform.ts';

/** The mail's own HTML, shown in a frame that runs no script: the project's text, not the console's, and no place for axe to run. */
const sandboxedMail = { exclude: ['iframe.mail-frame'] };

const projectPath = (made: Made) => `/organization/${made.organizationID}/project/${made.projectID}`;


async function signUpAppUser(request: APIRequestContext, token: string, email: string): Promise<string> {
  const signup = await request.post('/auth/public/user', {
    headers: { ...bearer(token), 'accept-version': 'v1' },
    data: { email, password: 'app user password 42' },
  });
  expect(signup.status(), await signup.text()).toBe(201);
  return ((await signup.json()) as { user_id: string }).user_id;
}

let account: Account;
let made: Made;

test.beforeAll(async ({ request }) => {
  account = await createVerifiedAccount(request, 'mail');
  made = await organizationWithProject(request, account, { organization: 'Mail Org', project: 'Recipes' });
});

test('an edited verification template reaches a new app user, the Dev mailbox and the log; its link confirms the address once', async ({ page, request }) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  const tag = Date.now().toString(36);
  const subject = `Welcome to {{ project }}, please confirm (${tag})`;
  const line = `A line written by the e2e test ${tag}.`;

  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await page.goto(`${projectPath(made)}/mail`);
  await expect(page.getByRole('tab', { name: 'Templates' })).toHaveAttribute('aria-selected', 'true');
  const subjectField = page.getByLabel('Subject', { exact: true });
  await expect(subjectField).toHaveValue('Confirm your e-mail address for {{ project }}');

  // A variable the template may not use: the server's word shows at the field, and Save keeps nothing.
  await subjectField.fill('Hello {{ secret }}');
  await expect(subjectField).toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Unknown variable secret')).toBeVisible();
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(subjectField).toHaveAttribute('aria-invalid', 'true');
  const kept = await request.get(`/api/organization/${made.organizationID}/project/${made.projectID}/mail/templates/verification`, { headers: bearer(made.token) });
  expect(((await kept.json()) as { custom: boolean }).custom).toBe(false);

  // The draft: a new subject, and a line added to the plain text with a variable inserted by a click.
  await subjectField.fill(subject);
  const text = page.getByLabel('Plain text', { exact: true });
  await text.click();
  await text.press('ControlOrMeta+End');
  await text.pressSequentially(`\n\n${line} For `);
  await page.getByRole('button', { name: 'Insert email' }).click();
  await expect(text).toHaveValue(new RegExp(`${line} For \\{\\{ email \\}\\}$`));

  // The server's preview with sample values, the HTML in a frame that runs no script.
  await expect(page.getByText(`Subject: Welcome to Recipes, please confirm (${tag})`)).toBeVisible();
  await expect(page.locator('.mail-preview .mail-plain')).toContainText(`${line} For ada@example.com`);
  await expect(page.getByTitle('Preview of the HTML mail')).toHaveAttribute('sandbox', '');
  await expectAccessible(page, 'mail templates light 1280', sandboxedMail);

  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Template saved')).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Templates' }).getByRole('button', { name: /E-mail verification\s*Edited/ })).toBeVisible();

  // A test of the saved text goes to the member's own address.
  await page.getByRole('button', { name: 'Send a test to me' }).click();
  await expect(page.getByText(`Test mail sent to ${account.email}`)).toBeVisible();
  await expect
    .poll(async () => {
      const box = (await (await request.get('/api/dev/mailbox', { params: { to: account.email } })).json()) as { mails: { subject: string }[] };
      return box.mails.map((m) => m.subject);
    })
    .toContain(`Welcome to Recipes, please confirm (${tag})`);

  // An app user signs up: the verification mail carries the new text.
  const email = `mail-${tag}@example.com`;
  const userID = await signUpAppUser(request, await mintApiToken(request, made), email);
  const mail = await latestMail(request, email, 'project-user-verification', 20_000);
  expect(mail.subject).toBe(`Welcome to Recipes, please confirm (${tag})`);
  expect(mail.text).toContain(`${line} For ${email}`);
  expect(mail.link).toMatch(/\/bagel-auth-verify-email\/[^/]+$/);

  // The Dev mailbox shows it.
  await page.goto('/dev/mailbox');
  const inMailbox = page.getByRole('article', { name: mail.subject });
  await expect(inMailbox.first()).toBeVisible();
  await inMailbox.first().getByText('Show the whole message').click();
  await expect(inMailbox.first().getByText(`${line} For ${email}`)).toBeVisible();

  // The project's delivery log shows it, and its detail both parts.
  await page.goto(`${projectPath(made)}/mail?tab=log&search=${encodeURIComponent(email)}`);
  const row = page.getByRole('row').filter({ hasText: email });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(mail.subject);
  await expect(row).toContainText('E-mail verification');
  await expect(row).toContainText(/Sent|Queued/);
  await expect(page.getByText(/Mails are kept for \d+ days?/)).toBeVisible();
  await row.getByRole('button', { name: `View the mail to ${email}` }).click();
  const dialog = page.getByRole('dialog', { name: `Mail to ${email}` });
  await expect(dialog.locator('.mail-plain')).toContainText(`${line} For ${email}`);
  await expect(dialog.getByTitle("The mail's HTML")).toHaveAttribute('sandbox', '');
  await expect(page).toHaveURL(/mail=/);
  await expectAccessible(page, 'mail detail light 1280', sandboxedMail);
  await dialog.getByRole('button', { name: 'Resend' }).click();
  await expect(page.getByText('Mail queued again')).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();
  await expectAccessible(page, 'mail log light 1280');

  // The link confirms the address, once.
  const verifyPath = new URL(mail.link!).pathname;
  await page.goto(verifyPath);
  await expect(page.getByText('Your e-mail address for Recipes is confirmed.', { exact: false })).toBeVisible();
  const user = await request.get(`/api/organization/${made.organizationID}/project/${made.projectID}/user/${userID}`, { headers: bearer(made.token) });
  expect(user.status(), await user.text()).toBe(200);
  expect(((await user.json()) as { verified?: boolean }).verified).toBe(true);
  await page.goto(verifyPath);
  await expect(page.getByRole('alert')).toContainText('This link does not work');
});

test('each kind keeps its unsaved draft, marked in the list; leaving the Templates tab asks (Stay keeps, Leave drops)', async ({ page }) => {
  test.setTimeout(60_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
  await page.goto(`${projectPath(made)}/mail`);
  const kinds = page.getByRole('navigation', { name: 'Templates' });
  const subjectField = page.getByLabel('Subject', { exact: true });
  await expect(subjectField).toBeVisible();
  const stored = await subjectField.inputValue();

  await subjectField.fill('A draft not yet saved');
  await kinds.getByRole('button', { name: /Password reset/ }).click();
  await expect(page).toHaveURL(/kind=reset/);
  await expect(subjectField).not.toHaveValue('A draft not yet saved');
  await expect(kinds.getByRole('button', { name: /E-mail verification.*Unsaved/ })).toBeVisible();
  await kinds.getByRole('button', { name: /E-mail verification/ }).click();
  await expect(subjectField).toHaveValue('A draft not yet saved');

  // Reloading asks the browser's own question; dismissed, the draft stays.
  const asked = new Promise<string>((resolve) => page.once('dialog', (dialog) => void dialog.dismiss().then(() => resolve(dialog.type()))));
  void page.reload().catch(() => undefined);
  expect(await asked).toBe('beforeunload');
  await expect(subjectField).toHaveValue('A draft not yet saved');

  await page.getByRole('tab', { name: 'Sender' }).click();
  const question = page.getByRole('alertdialog', { name: 'Unsaved changes' });
  await expect(question).toContainText('Do you really want to leave? You have unsaved changes!');
  await expectAccessible(page, 'mail leave question light 1280', sandboxedMail);
  await question.getByRole('button', { name: 'Stay' }).click();
  await expect(question).toBeHidden();
  await expect(page.getByRole('tab', { name: 'Templates' })).toHaveAttribute('aria-selected', 'true');
  await expect(subjectField).toHaveValue('A draft not yet saved');

  await page.getByRole('tab', { name: 'Sender' }).click();
  await question.getByRole('button', { name: 'Leave' }).click();
  await expect(page.getByLabel('Sender name')).toBeVisible();
  await page.getByRole('tab', { name: 'Templates' }).click();
  await expect(subjectField).toHaveValue(stored);
  await expect(kinds).not.toContainText('Unsaved');
});

test('the delivery log fits at 1280, 900 and 600 px without sideways scrolling, light and dark', async ({ browser, request }) => {
  test.setTimeout(90_000);
  const token = await mintApiToken(request, made, { powerRead: true }, 'Log rows');
  const tag = Date.now().toString(36);
  for (const n of [1, 2, 3]) await signUpAppUser(request, token, `a-rather-long-recipient-address-${n}-${tag}@subdomain.example.com`);
  for (const colorScheme of ['light', 'dark'] as const) {
    const context = await browser.newContext({ colorScheme, reducedMotion: 'reduce', viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    try {
      await signIn(page, account);
      await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
      await page.goto(`${projectPath(made)}/mail?tab=log`);
      await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
      const table = page.getByRole('table', { name: 'Delivery log' });
      await expect(table.getByRole('row').filter({ hasText: tag })).toHaveCount(3);
      for (const width of [1280, 900, 600]) {
        await page.setViewportSize({ width, height: 900 });
        const sizes = await page.evaluate(() => {
          const list = document.querySelector('.mail-log-list')!;
          return { page: document.scrollingElement!.scrollWidth, window: window.innerWidth, list: list.scrollWidth, listClient: list.clientWidth };
        });
        expect(sizes.page, `page at ${width} px`).toBeLessThanOrEqual(sizes.window);
        expect(sizes.list, `log at ${width} px`).toBeLessThanOrEqual(sizes.listClient);
        // Each mail is still a row of the table, its recipient the row's header and its buttons there.
        const row = table.getByRole('row').filter({ hasText: `-1-${tag}@` });
        await expect(row.getByRole('rowheader')).toHaveText(`a-rather-long-recipient-address-1-${tag}@subdomain.example.com`);
        // Where each mail has lines of its own, its attempts say what the number counts.
        if (width < 1280) await expect(row.getByRole('cell', { name: /^\d+ attempts?$/ })).toBeVisible();
        await expect(row.getByRole('button', { name: /^View the mail to / })).toBeVisible();
        await expectAccessible(page, `mail log ${colorScheme} ${width}`);
      }

      // The row's buttons are reached with the keyboard.
      const view = page.getByRole('button', { name: `View the mail to a-rather-long-recipient-address-1-${tag}@subdomain.example.com` });
      await view.focus();
      await page.keyboard.press('Enter');
      await expect(page.getByRole('dialog', { name: `Mail to a-rather-long-recipient-address-1-${tag}@subdomain.example.com` })).toBeVisible();
    } finally {
      await context.close();
    }
  }
});

test('Sender and the verification page at 900 px in the dark theme pass axe', async ({ browser, request }) => {
  test.setTimeout(60_000);
  const context = await browser.newContext({ colorScheme: 'dark', reducedMotion: 'reduce', viewport: { width: 900, height: 900 } });
  const page = await context.newPage();
  try {
    await signIn(page, account);
    await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
    await page.goto(`${projectPath(made)}/mail?tab=sender`);
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await expect(page.getByLabel('Sender name')).toBeVisible();
    await expect(page.locator('.mail-transport')).toContainText('In use now');
    await expect(page.getByLabel('SMTP password')).toHaveValue('');
    await page.getByLabel('Sender name').fill('Recipes team');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('Sender settings saved')).toBeVisible();
    const settings = await request.get(`/api/organization/${made.organizationID}/project/${made.projectID}/mail/settings`, { headers: bearer(made.token) });
    expect(((await settings.json()) as { senderName: string | null }).senderName).toBe('Recipes team');
    await expectAccessible(page, 'mail sender dark 900');

    // The project's own SMTP server. A host the server may not reach is refused at the field.
    const smtpUrl = page.getByLabel('SMTP server URL');
    await smtpUrl.fill('smtp://mailer@127.0.0.1:2525');
    await page.getByLabel('SMTP password').fill('s3cret pass');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(smtpUrl).toHaveAttribute('aria-invalid', 'true');
    await expect(smtpUrl).toHaveAccessibleDescription(/not an address this server may connect to/);
    await expect(page.getByText('No password is stored.')).toBeVisible();
    // One it may (e2e/run.ts allows 127.0.0.2): the password typed goes in, and never comes back out.
    await smtpUrl.fill('smtp://mailer@127.0.0.2:2525');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('A password is stored. Leave this empty to keep it.')).toBeVisible();
    await expect(page.getByLabel('SMTP password')).toHaveValue('');
    await expect(smtpUrl).toHaveValue(/^smtp:\/\/mailer@127\.0\.0\.2:2525\/?$/);
    await expect(page.locator('.mail-transport')).toContainText("The project's own SMTP server");
    const stored = await request.get(`/api/organization/${made.organizationID}/project/${made.projectID}/mail/settings`, { headers: bearer(made.token) });
    expect(await stored.text()).not.toContain('s3cret');
    // Cleared again: the installation's transport (the outbox here) delivers the project's mail.
    await smtpUrl.fill('');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expect(page.getByText('No password is stored.')).toBeVisible();
    await expect(page.locator('.mail-transport')).toContainText('The outbox');

    await page.goto('/bagel-auth-verify-email/not-a-real-link');
    await expect(page.getByRole('alert')).toContainText('This link does not work');
    await expectAccessible(page, 'verification page dark 900');
  } finally {
    await context.close();
  }
});

// The three parts of Mail in the variants the tests above do not already scan them in.
for (const [colorScheme, width] of [['light', 900], ['dark', 1280]] as const) {
  test(`Templates, Sender and the delivery log pass axe (${colorScheme}, ${width} px)`, async ({ browser }) => {
    test.setTimeout(90_000);
    const context = await browser.newContext({ colorScheme, reducedMotion: 'reduce', viewport: { width, height: 900 } });
    const page = await context.newPage();
    try {
      await signIn(page, account);
      await expect(page).toHaveURL(new RegExp(`/organization/${made.organizationID}$`));
      await page.goto(`${projectPath(made)}/mail`);
      await expect(page.locator('html')).toHaveAttribute('data-theme', colorScheme);
      await expect(page.getByLabel('Subject', { exact: true })).toBeVisible();
      await expectAccessible(page, `mail templates ${colorScheme} ${width}`, sandboxedMail);
      await page.getByRole('tab', { name: 'Sender' }).click();
      await expect(page.getByLabel('Sender name')).toBeVisible();
      await expectAccessible(page, `mail sender ${colorScheme} ${width}`);
      await page.getByRole('tab', { name: 'Delivery log' }).click();
      await expect(page.getByRole('table')).toBeVisible();
      await expectAccessible(page, `mail log ${colorScheme} ${width}`);
    } finally {
      await context.close();
    }
  });
}
