/**
 * The Mail screen (docs/mail.md) over an in-memory Mail API: templates (edit, variables at the
 * cursor, debounced server preview in a sandboxed frame, save, a refused template at its field with
 * nothing saved, reset with confirmation, a test to me), the sender (the stored SMTP password never
 * shown, a typed one put into the URL, only changed keys sent, a refusal at its field), the delivery
 * log (URL state, detail, resend), read-only members, and the public verification page.
 */
import '@testing-library/jest-dom/vitest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Outlet } from 'react-router';
import { defaultMailTemplates, mailTemplateKinds, mailTemplateVariables, type MailTemplateKind } from '../../definitions/mail.ts';
import MailScreen from '../../src/screens/mail/MailScreen.tsx';
import AppUserVerifyEmailScreen from '../../src/screens/auth/AppUserVerifyEmailScreen.tsx';
import { ApiError } from '../../src/api/errors.ts';
import type { MailApi, MailLogDetail, MailLogEntry, MailSettings, MailTemplate, MailTemplateInput } from '../../src/api/mail.ts';
import { MailApiProvider } from '../../src/api/mail-queries.ts';
import { notify } from '../../renderers/toasts/notify.ts';
import { fakePlatformApi, me, member, ORG, organization, PROJECT, renderPlatform } from './support/platform.tsx';

vi.mock('../../renderers/toasts/notify.ts', () => ({ notify: vi.fn(async () => undefined) }));

const base = `/organization/${ORG}/project/${PROJECT}/mail`;

function logEntry(n: number, overrides: Partial<MailLogEntry> = {}): MailLogEntry {
  return {
    id: `m${n}`,
    to: `user${n}@example.com`,
    template: 'verification',
    subject: `Confirm your e-mail address for Recipes #${n}`,
    state: 'sent',
    error: null,
    attempts: 1,
    createdDate: '2026-11-20T10:00:00.000Z',
    sentDate: '2026-11-20T10:00:05.000Z',
    via: 'installation',
    ...overrides,
  };
}

/** Liquid enough for the preview: `{{ name }}` of the kind's variables, anything else refused at its field. */
function render(kind: MailTemplateKind, draft: MailTemplateInput) {
  const values: Record<string, string> = { email: 'ada@example.com', link: 'https://larder.example/v/sample', project: 'Recipes', code: '482913', minutes: '30', hours: '24' };
  const out: Record<string, string> = {};
  for (const part of ['subject', 'html', 'text'] as const) {
    out[part] = draft[part].replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => {
      if (!mailTemplateVariables[kind].includes(name)) {
        throw new ApiError({ status: 400, code: 'mail_template_invalid', detail: `Unknown variable ${name}`, problem: { type: 'about:blank', title: 'Bad', status: 400, code: 'mail_template_invalid', detail: `Unknown variable ${name}`, errors: [{ path: `/${part}`, message: `Unknown variable ${name}` }] } });
      }
      return values[name]!;
    });
  }
  return out as unknown as MailTemplateInput;
}

function fakeMailApi(initial: { log?: MailLogEntry[]; settings?: Partial<MailSettings> } = {}) {
  const templates = new Map<MailTemplateKind, MailTemplate>(
    mailTemplateKinds.map((kind) => [kind, { kind, ...defaultMailTemplates[kind], variables: [...mailTemplateVariables[kind]], custom: false, updatedDate: null }]),
  );
  const state = {
    templates,
    settings: {
      senderName: null,
      senderAddress: null,
      replyTo: null,
      smtpUrl: 'smtps://apikey@smtp.example.com:465',
      smtpPasswordSet: true,
      verifyOnSignup: true,
      transport: 'project',
      defaultSender: 'no-reply@larder.example',
      ...initial.settings,
    } as MailSettings,
    log: initial.log ?? [],
  };
  let saves = 0;
  const api = {
    templates: vi.fn(async () => [...state.templates.values()].map((t) => structuredClone(t))),
    template: vi.fn(async (_scope, kind: MailTemplateKind) => structuredClone(state.templates.get(kind)!)),
    saveTemplate: vi.fn(async (_scope, kind: MailTemplateKind, input: MailTemplateInput) => {
      render(kind, input); // refuses an unknown variable before anything is kept
      saves += 1;
      const next = { ...state.templates.get(kind)!, ...input, custom: true, updatedDate: `2026-11-28T10:00:0${saves}.000Z` };
      state.templates.set(kind, next);
      return structuredClone(next);
    }),
    resetTemplate: vi.fn(async (_scope, kind: MailTemplateKind) => {
      const next = { ...state.templates.get(kind)!, ...defaultMailTemplates[kind], custom: false, updatedDate: null };
      state.templates.set(kind, next);
      return structuredClone(next);
    }),
    preview: vi.fn(async (_scope, kind: MailTemplateKind, draft: MailTemplateInput) => render(kind, draft)),
    sendTest: vi.fn(async () => undefined),
    settings: vi.fn(async () => structuredClone(state.settings)),
    saveSettings: vi.fn(async (_scope, input) => {
      if (typeof input.smtpUrl === 'string' && !input.smtpUrl.startsWith('smtp')) {
        throw new ApiError({ status: 400, code: 'mail_smtp_url_invalid', detail: 'Not an SMTP URL', problem: { type: 'about:blank', title: 'Bad', status: 400, code: 'mail_smtp_url_invalid', detail: 'Not an SMTP URL', params: { field: 'smtpUrl', message: 'Not an SMTP URL' } } });
      }
      const { smtpUrl, ...rest } = input;
      Object.assign(state.settings, rest);
      if (smtpUrl !== undefined) {
        const url = smtpUrl === null ? null : new URL(smtpUrl);
        if (url?.password) state.settings.smtpPasswordSet = true;
        if (url) url.password = '';
        state.settings.smtpUrl = url ? url.href : null;
        if (!url) state.settings.smtpPasswordSet = false;
      }
      return structuredClone(state.settings);
    }),
    log: vi.fn(async (_scope, query) => {
      const search = (query.search ?? '').toLowerCase();
      const rows = state.log.filter((m) => (!search || m.to.includes(search) || m.subject.toLowerCase().includes(search)) && (!query.state || m.state === query.state));
      const page = query.page ?? 1;
      const perPage = query.perPage ?? 50;
      return { mails: rows.slice((page - 1) * perPage, page * perPage), total: rows.length, page, perPage, retentionDays: 30 };
    }),
    mail: vi.fn(async (_scope, mailID: string): Promise<MailLogDetail> => {
      const entry = state.log.find((m) => m.id === mailID)!;
      return { ...entry, text: `Text of ${mailID}`, html: `<p>HTML of ${mailID}</p><script>parent.pwned = true</script>`, replyTo: null, from: 'Recipes <no-reply@larder.example>' };
    }),
    resend: vi.fn(async () => undefined),
    verifyEmail: vi.fn(async () => ({ project: 'Recipes' })),
  } satisfies MailApi;
  return { api, state };
}

function open(path: string, mail: MailApi, permissions: Parameters<typeof member>[1] = { admin: true, create: true, update: true, delete: true }) {
  const platform = fakePlatformApi({ organization: vi.fn(async () => organization({ users: [member('ana', permissions)] })) });
  return renderPlatform({
    routes: [
      {
        id: 'viewProject',
        path: '/organization/:organizationID/project/:projectID',
        element: <Outlet />,
        children: [
          {
            id: 'viewMail',
            path: 'mail',
            element: (
              <MailApiProvider value={mail}>
                <MailScreen />
              </MailApiProvider>
            ),
          },
        ],
      },
    ],
    path,
    api: platform,
  });
}

const where = () => screen.getByTestId('where').textContent ?? '';
const toasts = () => vi.mocked(notify).mock.calls.map(([request]) => request);

beforeEach(() => vi.mocked(notify).mockClear());
afterEach(cleanup);

describe('Mail › Templates', () => {
  it('lists the kinds, edits the chosen one, inserts a variable at the cursor, previews it sandboxed and saves it', async () => {
    const { api, state } = fakeMailApi();
    open(base, api);
    const kinds = await screen.findByRole('navigation', { name: 'Templates' });
    await waitFor(() => expect(within(kinds).getAllByRole('button').map((b) => b.textContent)).toEqual(['E-mail verificationDefault', 'Password resetDefault', 'One-time codeDefault']));
    expect(within(kinds).getByRole('button', { name: /E-mail verification/ })).toHaveAttribute('aria-current', 'page');

    const subject = await screen.findByLabelText('Subject');
    expect(subject).toHaveValue(defaultMailTemplates.verification.subject);
    await userEvent.clear(subject);
    await userEvent.type(subject, 'Welcome to ');
    // The cursor is at the end of the subject; the variable goes there.
    await userEvent.click(screen.getByRole('button', { name: 'Insert project' }));
    expect(subject).toHaveValue('Welcome to {{ project }}');
    expect(subject).toHaveFocus();

    // The preview is the server's rendering of the draft, once typing pauses.
    await waitFor(() => expect(screen.getByText('Subject: Welcome to Recipes')).toBeInTheDocument(), { timeout: 3000 });
    expect(api.preview).toHaveBeenLastCalledWith(expect.anything(), 'verification', expect.objectContaining({ subject: 'Welcome to {{ project }}' }), expect.anything());
    const frame = screen.getByTitle('Preview of the HTML mail');
    expect(frame).toHaveAttribute('sandbox', '');
    expect(frame.getAttribute('srcdoc')).toContain('Confirm that ada@example.com is your e-mail address for Recipes');

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(state.templates.get('verification')!.subject).toBe('Welcome to {{ project }}'));
    expect(toasts()).toContainEqual({ kind: 'success', title: 'Template saved' });
    // Saved: the list and the editor say so.
    expect(await within(kinds).findByRole('button', { name: /E-mail verification\s*Edited/ })).toBeInTheDocument();
  });

  it('shows a refused template at its field and saves nothing', async () => {
    const { api, state } = fakeMailApi();
    open(base, api);
    const text = await screen.findByLabelText('Plain text');
    await userEvent.type(text, ' {{{{ secret }}');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(text).toHaveAttribute('aria-invalid', 'true'));
    expect(text).toHaveAccessibleDescription('Unknown variable secret');
    expect(state.templates.get('verification')!.custom).toBe(false);
    expect(state.templates.get('verification')!.text).toBe(defaultMailTemplates.verification.text);
    expect(toasts()).toEqual([]);
    // Mending the field clears its message.
    await userEvent.clear(text);
    await userEvent.type(text, 'Hello {{{{ email }}');
    await waitFor(() => expect(text).not.toHaveAttribute('aria-invalid'));
  });

  it('resets an edited template after confirmation, and sends a test of the draft to me', async () => {
    const { api, state } = fakeMailApi();
    state.templates.set('reset', { ...state.templates.get('reset')!, subject: 'Mine', custom: true, updatedDate: '2026-11-01T00:00:00.000Z' });
    open(`${base}?kind=reset`, api);
    expect(await screen.findByLabelText('Subject')).toHaveValue('Mine');

    await userEvent.click(screen.getByRole('button', { name: 'Send a test to me' }));
    await waitFor(() => expect(api.sendTest).toHaveBeenCalledWith(expect.anything(), 'reset', expect.objectContaining({ subject: 'Mine' })));
    expect(toasts()).toContainEqual({ kind: 'success', title: `Test mail sent to ${me.email}` });

    await userEvent.click(screen.getByRole('button', { name: 'Reset to default' }));
    const dialog = await screen.findByRole('dialog', { name: 'Reset this template?' });
    expect(api.resetTemplate).not.toHaveBeenCalled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Reset to default' }));
    await waitFor(() => expect(api.resetTemplate).toHaveBeenCalledWith(expect.anything(), 'reset'));
    expect(await screen.findByLabelText('Subject')).toHaveValue(defaultMailTemplates.reset.subject);
    await waitFor(() => expect(toasts()).toContainEqual({ kind: 'success', title: 'Template reset to the default' }));
  });

  it('chooses a kind through the URL and keeps the tab there', async () => {
    const { api } = fakeMailApi();
    open(base, api);
    await userEvent.click(await screen.findByRole('button', { name: /One-time code/ }));
    await waitFor(() => expect(where()).toContain('kind=otp'));
    expect(await screen.findByLabelText('Subject')).toHaveValue(defaultMailTemplates.otp.subject);
    await userEvent.click(screen.getByRole('tab', { name: 'Delivery log' }));
    await waitFor(() => expect(where()).toBe(`${base}?tab=log`));
  });
});

describe('Mail › Templates: unsaved drafts', () => {
  const kindList = () => screen.getByRole('navigation', { name: 'Templates' });

  it('keeps each kind\'s draft while moving between kinds, marks it, and saves or discards one kind only', async () => {
    const { api, state } = fakeMailApi();
    open(base, api);
    const subject = await screen.findByLabelText('Subject');
    await userEvent.clear(subject);
    await userEvent.type(subject, 'My verification');
    expect(within(kindList()).getByRole('button', { name: /E-mail verification.*Unsaved/ })).toBeInTheDocument();

    await userEvent.click(within(kindList()).getByRole('button', { name: /Password reset/ }));
    await waitFor(() => expect(where()).toContain('kind=reset'));
    expect(await screen.findByLabelText('Subject')).toHaveValue(defaultMailTemplates.reset.subject);
    // The other kind's draft is kept and marked; this one has none.
    expect(within(kindList()).getByRole('button', { name: /E-mail verification.*Unsaved/ })).toBeInTheDocument();
    expect(within(kindList()).getByRole('button', { name: /Password reset/ })).not.toHaveTextContent('Unsaved');
    await userEvent.type(screen.getByLabelText('Subject'), ' now');
    expect(within(kindList()).getByRole('button', { name: /Password reset.*Unsaved/ })).toBeInTheDocument();

    await userEvent.click(within(kindList()).getByRole('button', { name: /E-mail verification/ }));
    await waitFor(() => expect(where()).not.toContain('kind='));
    await waitFor(() => expect(screen.getByLabelText('Subject')).toHaveValue('My verification'));
    expect(screen.getByText('Unsaved changes')).toBeInTheDocument();

    // Save saves this kind only; the reset draft stays.
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(state.templates.get('verification')!.subject).toBe('My verification'));
    expect(api.saveTemplate).toHaveBeenCalledTimes(1);
    await waitFor(() => expect(within(kindList()).getByRole('button', { name: /E-mail verification/ })).not.toHaveTextContent('Unsaved'));
    expect(within(kindList()).getByRole('button', { name: /Password reset.*Unsaved/ })).toBeInTheDocument();

    // Discard drops this kind's draft only.
    await userEvent.type(screen.getByLabelText('Subject'), '!');
    await userEvent.click(within(kindList()).getByRole('button', { name: /Password reset/ }));
    await waitFor(() => expect(screen.getByLabelText('Subject')).toHaveValue(`${defaultMailTemplates.reset.subject} now`));
    await userEvent.click(screen.getByRole('button', { name: 'Discard changes' }));
    expect(screen.getByLabelText('Subject')).toHaveValue(defaultMailTemplates.reset.subject);
    expect(within(kindList()).getByRole('button', { name: /Password reset/ })).not.toHaveTextContent('Unsaved');
    expect(within(kindList()).getByRole('button', { name: /E-mail verification.*Unsaved/ })).toBeInTheDocument();
    expect(state.templates.get('reset')!.custom).toBe(false);
  });

  it('asks before another tab or page would lose a draft: Stay keeps it, Leave drops it', async () => {
    const { api } = fakeMailApi();
    const view = open(`${base}?kind=otp`, api);
    const subject = await screen.findByLabelText('Subject');
    await userEvent.type(subject, ' (draft)');

    // Another tab of Mail.
    await userEvent.click(screen.getByRole('tab', { name: 'Sender' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Unsaved changes' });
    expect(dialog).toHaveTextContent('Do you really want to leave? You have unsaved changes!');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Stay' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(where()).toBe(`${base}?kind=otp`);
    expect(screen.getByRole('tab', { name: 'Templates' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByLabelText('Subject')).toHaveValue(`${defaultMailTemplates.otp.subject} (draft)`);

    // Another page: asked again; Escape stays too.
    void view.router.navigate(`/organization/${ORG}/project/${PROJECT}`);
    expect(await screen.findByRole('alertdialog', { name: 'Unsaved changes' })).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(where()).toBe(`${base}?kind=otp`);
    expect(screen.getByLabelText('Subject')).toHaveValue(`${defaultMailTemplates.otp.subject} (draft)`);

    // Reloading or closing the tab: the browser is asked to hold it.
    const unload = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(unload);
    expect(unload.defaultPrevented).toBe(true);

    // Leave: the tab changes and the draft is gone.
    await userEvent.click(screen.getByRole('tab', { name: 'Sender' }));
    await userEvent.click(within(await screen.findByRole('alertdialog', { name: 'Unsaved changes' })).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(where()).toBe(`${base}?tab=sender`));
    expect(await screen.findByLabelText('Sender name')).toBeInTheDocument();
    const after = new Event('beforeunload', { cancelable: true });
    window.dispatchEvent(after);
    expect(after.defaultPrevented).toBe(false);
    await userEvent.click(screen.getByRole('tab', { name: 'Templates' }));
    await userEvent.click(await screen.findByRole('button', { name: /One-time code/ }));
    await waitFor(() => expect(screen.getByLabelText('Subject')).toHaveValue(defaultMailTemplates.otp.subject));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('lets the person go without asking when nothing is unsaved', async () => {
    const { api } = fakeMailApi();
    open(base, api);
    const subject = await screen.findByLabelText('Subject');
    await userEvent.type(subject, 'x');
    await userEvent.type(subject, '{Backspace}');
    expect(subject).toHaveValue(defaultMailTemplates.verification.subject);
    await userEvent.click(screen.getByRole('tab', { name: 'Delivery log' }));
    await waitFor(() => expect(where()).toBe(`${base}?tab=log`));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });
});

describe('Mail › Sender', () => {
  it('never shows the stored password; a typed one travels in the URL, and only changed keys are sent', async () => {
    const { api } = fakeMailApi();
    open(`${base}?tab=sender`, api);
    const password = await screen.findByLabelText('SMTP password');
    expect(password).toHaveValue('');
    expect(password).toHaveAttribute('type', 'password');
    expect(password).toHaveAccessibleDescription('A password is stored. Leave this empty to keep it.');
    expect(screen.getByLabelText('SMTP server URL')).toHaveValue('smtps://apikey@smtp.example.com:465');
    expect(screen.getByText("The project's own SMTP server", { selector: 'strong' })).toBeInTheDocument();
    expect(screen.getByText('(smtp.example.com:465)')).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('Sender name'), 'Recipes');
    await userEvent.type(password, 'p@ss word');
    await userEvent.click(screen.getByRole('switch', { name: /verify their e-mail address/ }));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.saveSettings).toHaveBeenCalledTimes(1));
    const body = api.saveSettings.mock.calls[0]![1];
    expect(body).toEqual({ senderName: 'Recipes', verifyOnSignup: false, smtpUrl: expect.any(String) });
    expect(decodeURIComponent(new URL(body.smtpUrl!).password)).toBe('p@ss word');
    expect(toasts()).toContainEqual({ kind: 'success', title: 'Sender settings saved' });
    // After saving, the form shows the server's answer again, the password field empty.
    await waitFor(() => expect(screen.getByLabelText('SMTP password')).toHaveValue(''));
    expect(screen.getByLabelText('Sender name')).toHaveValue('Recipes');
  });

  it('checks the shape before sending and shows the server refusal at its field', async () => {
    const { api } = fakeMailApi({ settings: { smtpUrl: null, smtpPasswordSet: false, transport: 'outbox' } });
    open(`${base}?tab=sender`, api);
    expect(await screen.findByText(/The outbox: no mail leaves/)).toBeInTheDocument();
    expect(screen.getByLabelText('SMTP password')).toHaveAccessibleDescription('No password is stored.');
    const address = screen.getByLabelText('Sender address');
    expect(address).toHaveAttribute('placeholder', 'no-reply@larder.example');
    await userEvent.type(address, 'not-an-address');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(address).toHaveAttribute('aria-invalid', 'true');
    expect(address).toHaveFocus();
    expect(api.saveSettings).not.toHaveBeenCalled();

    await userEvent.clear(address);
    await userEvent.type(screen.getByLabelText('SMTP server URL'), 'http://smtp.example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    // The console's own check: only smtp:// and smtps://.
    expect(screen.getByLabelText('SMTP server URL')).toHaveAccessibleDescription(/smtp:\/\/ or smtps:\/\/.*Enter a URL that starts with smtp:\/\/ or smtps:\/\/ and names a host\./);
    expect(api.saveSettings).not.toHaveBeenCalled();
  });

  it('puts the server refusal at the field it names', async () => {
    const { api } = fakeMailApi({ settings: { smtpUrl: null, smtpPasswordSet: false, transport: 'smtp' } });
    api.saveSettings.mockRejectedValueOnce(
      new ApiError({ status: 400, code: 'mail_smtp_url_invalid', detail: 'SMTP host not found', problem: { type: 'about:blank', title: 'Bad', status: 400, code: 'mail_smtp_url_invalid', detail: 'SMTP host not found', errors: [{ path: '/smtpUrl', message: 'SMTP host not found' }] } }),
    );
    open(`${base}?tab=sender`, api);
    expect(await screen.findByText("The installation's SMTP server")).toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('SMTP server URL'), 'smtp://me@nowhere.invalid');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByLabelText('SMTP server URL')).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.getByText('SMTP host not found')).toBeInTheDocument();
  });
});

describe('Mail › Delivery log', () => {
  it('shows each mail with its state and error, searches and pages in the URL, opens a mail and resends it', async () => {
    const log = [logEntry(1, { state: 'failed', error: '550 mailbox unavailable', attempts: 5, sentDate: null }), ...Array.from({ length: 59 }, (_, i) => logEntry(i + 2))];
    const { api } = fakeMailApi({ log });
    open(`${base}?tab=log`, api);
    expect(await screen.findByText('Mails are kept for 30 days; queued mails are kept until they leave.')).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Delivery log' });
    const first = within(table).getAllByRole('row')[1]!;
    expect(within(first).getByRole('rowheader')).toHaveTextContent('user1@example.com');
    expect(first).toHaveTextContent('Failed550 mailbox unavailable');
    expect(within(first).getAllByRole('cell')[4]).toHaveTextContent('5');
    expect(screen.getByText('1–50 of 60')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(where()).toBe(`${base}?tab=log&page=2`));
    expect(await screen.findByText('51–60 of 60')).toBeInTheDocument();

    await userEvent.type(screen.getByLabelText('Search recipient or subject'), 'user7@');
    await waitFor(() => expect(where()).toBe(`${base}?tab=log&search=user7%40`));
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Delivery log' })).getAllByRole('row')).toHaveLength(2));
    expect(api.log).toHaveBeenLastCalledWith(expect.anything(), expect.objectContaining({ search: 'user7@', page: 1 }));

    await userEvent.click(screen.getByRole('button', { name: 'View the mail to user7@example.com' }));
    const dialog = await screen.findByRole('dialog', { name: 'Mail to user7@example.com' });
    expect(where()).toContain('mail=m7');
    expect(within(dialog).getByText('Text of m7')).toBeInTheDocument();
    const frame = within(dialog).getByTitle("The mail's HTML");
    expect(frame).toHaveAttribute('sandbox', '');
    expect(frame.getAttribute('srcdoc')).toContain('<p>HTML of m7</p>');

    await userEvent.click(within(dialog).getByRole('button', { name: 'Resend' }));
    await waitFor(() => expect(api.resend).toHaveBeenCalledWith(expect.anything(), 'm7'));
    expect(toasts()).toContainEqual({ kind: 'success', title: 'Mail queued again' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(where()).not.toContain('mail='));
  });

  it('says so when the log is empty, and when a filter matches nothing', async () => {
    const { api } = fakeMailApi();
    open(`${base}?tab=log`, api);
    expect(await screen.findByText('No mail has been sent yet.')).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByLabelText('State'), 'failed');
    expect(await screen.findByText('No mail matches.')).toBeInTheDocument();
    expect(where()).toBe(`${base}?tab=log&state=failed`);
  });
});

describe('Mail for a read-only member', () => {
  it('shows everything but the edit controls', async () => {
    const { api } = fakeMailApi({ log: [logEntry(1)] });
    const view = open(base, api, { admin: false, create: false, update: false, delete: false });
    expect(await screen.findByText('You can read the mail settings; only organization admins can change them.')).toBeInTheDocument();
    expect(await screen.findByLabelText('Subject')).toHaveAttribute('readonly');
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send a test to me' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Insert / })).not.toBeInTheDocument();
    expect(screen.getByText('{{ email }}')).toBeInTheDocument();

    await view.router.navigate(`${base}?tab=sender`);
    expect(await screen.findByLabelText('Sender name')).toHaveAttribute('readonly');
    expect(screen.getByRole('switch', { name: /verify their e-mail address/ })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();

    await view.router.navigate(`${base}?tab=log`);
    expect(await screen.findByRole('button', { name: 'View the mail to user1@example.com' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Resend/ })).not.toBeInTheDocument();
  });
});

describe('the verification page', () => {
  const openPage = (mail: MailApi, verifyID = 'v3rify') =>
    renderPlatform({
      routes: [
        {
          id: 'bagel-auth-verify-email',
          path: '/bagel-auth-verify-email/:verifyID',
          element: (
            <MailApiProvider value={mail}>
              <AppUserVerifyEmailScreen />
            </MailApiProvider>
          ),
        },
      ],
      path: `/bagel-auth-verify-email/${verifyID}`,
      api: fakePlatformApi(),
    });

  it('confirms on load, once, and says so', async () => {
    const { api } = fakeMailApi();
    openPage(api);
    expect(await screen.findByText('Your e-mail address for Recipes is confirmed. You can go back to the app.')).toBeInTheDocument();
    expect(api.verifyEmail).toHaveBeenCalledTimes(1);
    expect(api.verifyEmail).toHaveBeenCalledWith('v3rify');
  });

  it('says the link does not work when the server refuses it', async () => {
    const { api } = fakeMailApi();
    api.verifyEmail.mockRejectedValueOnce(new ApiError({ status: 404, code: 'verification_not_found', detail: 'This verification link is invalid, expired or already used.' }));
    openPage(api);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('This link does not work');
    expect(alert).toHaveTextContent('This verification link is invalid, expired or already used.');
    expect(alert).toHaveTextContent('A verification link works once and for 24 hours.');
  });
});
