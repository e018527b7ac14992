/**
 * The webhook screens (docs/webhooks.md): Webhooks in the project shell,
 * the list and its empty state, the Create Webhook dialog (enable rule, collection tree, payload,
 * success and failure), one webhook's settings, its delivery log with Redeliver, and the disabled
 * notice with Re-enable. The HTTP client is replaced by a small in-memory webhook server, so the
 * paths, methods and bodies of src/api/webhooks.ts are checked as sent.
 */
import '@testing-library/jest-dom/vitest';
import { useState } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import ProjectShellScreen from '../../src/screens/project/ProjectShellScreen.tsx';
import WebhooksScreen from '../../src/screens/project/webhooks/WebhooksScreen.tsx';
import WebhookScreen from '../../src/screens/project/webhooks/WebhookScreen.tsx';
import { CreateWebhookDialog } from '../../src/screens/project/webhooks/CreateWebhookDialog.tsx';
import { useProjectIds } from '../../src/screens/project/project-context.ts';
import { ApiError } from '../../src/api/errors.ts';
import type { Project } from '../../src/api/platform.ts';
import { platformKeys } from '../../src/api/platform-queries.ts';
import type { CreatedWebhook, Webhook, WebhookLogEntry } from '../../src/api/webhooks.ts';
import { notify } from '../../renderers/toasts/notify.ts';
import { formatDateTime } from '../../definitions/format-date-time.ts';
import { fakePlatformApi, me, member, ORG, organization, PROJECT, project, renderPlatform } from './support/platform.tsx';

// The one HTTP client (src/api/client.ts) answers from the fake server below.
const { json } = vi.hoisted(() => ({ json: vi.fn() }));
vi.mock('../../src/api/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/api/client.ts')>()),
  getApiClient: () => ({ json }),
}));
vi.mock('../../renderers/toasts/notify.ts', () => ({ notify: vi.fn(async () => undefined) }));

const base = `/organization/${ORG}/project/${PROJECT}`;

/** posts › comments › replies are nested collections (schema fields with nestedCollectionSchema); authors has none. */
const collections = [
  {
    id: 'posts',
    name: 'Posts',
    schema: [
      { name: 'Title', slug: 'title', fieldType: 'PlainText' },
      {
        name: 'Comments',
        slug: 'comments',
        fieldType: 'NestedCollection',
        nestedCollectionSchema: [
          { name: 'Body', slug: 'body', fieldType: 'PlainText' },
          { name: 'Replies', slug: 'replies', fieldType: 'NestedCollection', nestedCollectionSchema: [] },
        ],
      },
    ],
  },
  { id: 'authors', name: 'Authors', schema: [] },
];

function webhook(id: string, overrides: Partial<Webhook> = {}): Webhook {
  return {
    id,
    name: `Hook ${id}`,
    webhookURI: `https://hooks.example.com/${id}`,
    method: 'POST',
    trigger: 'create',
    collections: [],
    projectID: PROJECT,
    organizationID: ORG,
    enabled: true,
    disabledAt: null,
    disabledReason: null,
    consecutiveFailures: 0,
    createdDate: '2025-05-01T10:00:00.000Z',
    updatedDate: '2025-05-01T10:00:00.000Z',
    ...overrides,
  };
}

function logEntry(id: number, overrides: Partial<WebhookLogEntry> = {}): WebhookLogEntry {
  return {
    id,
    deliveryID: `d${id}`,
    eventID: id,
    trigger: 'create',
    attempt: 1,
    manual: false,
    statusCode: 200,
    responseBody: 'ok',
    error: null,
    timeStamp: '2025-05-06T07:08:00.000Z',
    durationMs: 12,
    state: 'delivered',
    nextAttemptAt: null,
    ...overrides,
  };
}

type Call = { path: string; method: string; body: unknown; searchParams: unknown };

/** The webhook endpoints as docs/webhooks.md describes them, over a list the test sets. */
function fakeServer(initial: { webhooks?: Webhook[]; logs?: Record<string, WebhookLogEntry[]> } = {}) {
  const state = { webhooks: [...(initial.webhooks ?? [])], logs: { ...(initial.logs ?? {}) } };
  const calls: Call[] = [];
  /** A test sets these to make the next create or update fail. */
  const fail: { create?: unknown; update?: unknown; redeliver?: unknown } = {};
  let created = 0;
  json.mockReset();
  json.mockImplementation(async (path: string, options: { method?: string; json?: unknown; searchParams?: unknown } = {}) => {
    const method = (options.method ?? 'get').toLowerCase();
    calls.push({ path, method, body: options.json, searchParams: options.searchParams });
    let match: RegExpExecArray | null;
    if (path === 'api/webhook' && method === 'get') return structuredClone(state.webhooks);
    if (path === 'api/webhook' && method === 'post') {
      if (fail.create) throw fail.create;
      const body = options.json as Omit<Webhook, 'id'>;
      created += 1;
      const answer: CreatedWebhook = { ...webhook(`new${created}`), ...body, id: `new${created}`, secret: `whsec_${created}_s3cret` };
      const { secret: _secret, ...stored } = answer;
      state.webhooks.push(stored);
      return answer;
    }
    if ((match = /^api\/webhook\/([^/]+)$/.exec(path)) && method === 'put') {
      if (fail.update) throw fail.update;
      const index = state.webhooks.findIndex((w) => w.id === match![1]);
      const change = options.json as Partial<Webhook>;
      const next = { ...state.webhooks[index]!, ...change };
      if (change.enabled) Object.assign(next, { disabledAt: null, disabledReason: null, consecutiveFailures: 0 });
      state.webhooks[index] = next;
      return next;
    }
    if ((match = /^api\/webhook\/([^/]+)\/logs$/.exec(path)) && method === 'get') return structuredClone(state.logs[match[1]!] ?? []);
    if ((match = /^api\/webhook\/([^/]+)\/logs\/([^/]+)\/redeliver$/.exec(path)) && method === 'post') {
      if (fail.redeliver) throw fail.redeliver;
      const entries = state.logs[match[1]!] ?? [];
      const last = entries.find((e) => e.deliveryID === match![2])!;
      state.logs[match[1]!] = [logEntry(entries.length + 100, { deliveryID: last.deliveryID, attempt: last.attempt + 1, manual: true, state: 'pending', statusCode: null, responseBody: null }), ...entries];
      return { deliveryID: match[2] };
    }
    throw new Error(`unexpected call ${method} ${path}`);
  });
  const callsTo = (method: string, path: string | RegExp) => calls.filter((c) => c.method === method && (typeof path === 'string' ? c.path === path : path.test(c.path)));
  return { state, calls, callsTo, fail };
}

/** The platform's project answers with the fake server's webhooks, as the real project does. */
function platformFor(server: ReturnType<typeof fakeServer>, overrides: Parameters<typeof fakePlatformApi>[0] = {}) {
  return fakePlatformApi({
    project: vi.fn(async () => project({ collections: collections as unknown as Project['collections'], webhooks: server.state.webhooks.map(({ id, name }) => ({ id, name })) })),
    ...overrides,
  });
}

const shellRoutes: RouteObject[] = [
  {
    id: 'viewProject',
    path: '/organization/:organizationID/project/:projectID',
    element: <ProjectShellScreen />,
    children: [
      { id: 'noCollectionSelected', index: true, element: <p>project home</p> },
      { id: 'viewWebhooks', path: 'webhooks', element: <WebhooksScreen /> },
      { id: 'viewWebhook', path: 'webhooks/:webhookID', element: <WebhookScreen /> },
    ],
  },
];

function open(path: string, server: ReturnType<typeof fakeServer>, overrides: Parameters<typeof fakePlatformApi>[0] = {}, user = me) {
  return renderPlatform({ routes: shellRoutes, path: `${base}${path}`, api: platformFor(server, overrides), user });
}

const sideMenu = () => screen.getAllByRole('navigation', { name: 'Project menu' })[0]!;
const toasts = () => vi.mocked(notify).mock.calls.map(([request]) => request);

/** Opens the dialog with the list screen's own Create Webhook (the menu has one too while the project has no webhooks). */
async function openCreateDialog() {
  const main = (await screen.findByRole('heading', { level: 2, name: 'Webhooks' })).closest('section')!;
  const button = await within(main).findByRole('button', { name: 'Create Webhook' });
  await waitFor(() => expect(button).toBeEnabled());
  await userEvent.click(button);
  return screen.findByRole('dialog', { name: 'Create Webhook' });
}

/** The tree's checkbox for a row, by its accessible name: the collection name the user sees, nothing more. */
const treeBox = (scope: HTMLElement, label: string) => within(within(scope).getByRole('group', { name: 'Select Collections' })).getByRole('checkbox', { name: label });
/** The rows' visible labels, in order. */
const treeLabels = (scope: HTMLElement) =>
  within(within(scope).getByRole('group', { name: 'Select Collections' }))
    .queryAllByRole('checkbox')
    .map((box) => box.closest('label')!.querySelector('span')!.textContent);

beforeEach(() => vi.mocked(notify).mockClear());
afterEach(cleanup);

describe('webhooks list and shell', () => {
  it('the menu shows no empty state while the project is still loading, then the webhooks it has', async () => {
    const server = fakeServer({ webhooks: [webhook('w-loading', { name: 'Loading hook' })] });
    let release!: () => void;
    const loaded = new Promise<void>((resolve) => (release = resolve));
    const answer = platformFor(server).project as () => Promise<Project>;
    open('', server, {
      project: vi.fn(async () => {
        await loaded;
        return answer();
      }),
    });
    await screen.findByText('project home');
    expect(screen.queryByText("You don't seem to have any webhooks yet")).not.toBeInTheDocument();
    release();
    expect(await within(sideMenu()).findByRole('link', { name: 'Loading hook' })).toBeInTheDocument();
    expect(screen.queryByText("You don't seem to have any webhooks yet")).not.toBeInTheDocument();
  });

  it('empty project: "You don\'t seem to have any webhooks yet" with Create Webhook opening the dialog', async () => {
    const server = fakeServer();
    open('/webhooks', server);
    const main = (await screen.findByRole('heading', { level: 2, name: 'Webhooks' })).closest('section')!;
    expect(await within(main).findByText("You don't seem to have any webhooks yet")).toBeInTheDocument();
    // The shell's menu says the same, with a button that opens the dialog (checked below).
    expect(within(sideMenu()).getByText("You don't seem to have any webhooks yet")).toBeInTheDocument();
    expect(within(sideMenu()).getByRole('button', { name: 'Create Webhook' })).toHaveAttribute('aria-haspopup', 'dialog');
    expect(server.callsTo('get', 'api/webhook')[0]!.searchParams).toEqual({ organizationID: ORG, projectID: PROJECT });
    await userEvent.click(within(main).getByRole('button', { name: 'Create Webhook' }));
    expect(await screen.findByRole('dialog', { name: 'Create Webhook' })).toBeInTheDocument();
  });

  it('the menu\'s empty-state Create Webhook opens the Create Webhook dialog in one click, from anywhere in the project', async () => {
    const server = fakeServer();
    const { router } = open('', server);
    await screen.findByText('project home');
    const button = await within(sideMenu()).findByRole('button', { name: 'Create Webhook' });
    await userEvent.click(button);
    const dialog = await screen.findByRole('dialog', { name: 'Create Webhook' });
    expect(router.state.location.pathname).toBe(`${base}/webhooks`);
    // The request is not left in the history entry: a reload or a step back does not open it again.
    await waitFor(() => expect(router.state.location.state).toBeNull());
    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // Already on the list, it opens the dialog too.
    await userEvent.click(within(sideMenu()).getByRole('button', { name: 'Create Webhook' }));
    expect(await screen.findByRole('dialog', { name: 'Create Webhook' })).toBeInTheDocument();
  });

  it('the menu\'s add button opens the Create Webhook dialog from a webhook\'s view', async () => {
    const server = fakeServer({ webhooks: [webhook('w1', { name: 'Deploy' })] });
    const { router } = open('/webhooks/w1', server);
    await screen.findByRole('heading', { level: 2, name: 'Deploy' });
    await userEvent.click(within(sideMenu()).getByRole('button', { name: 'Create a webhook' }));
    expect(await screen.findByRole('dialog', { name: 'Create Webhook' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(`${base}/webhooks`);
  });

  it('empty state header shows no stray "0" next to the title', async () => {
    open('/webhooks', fakeServer());
    const heading = await screen.findByRole('heading', { level: 2, name: 'Webhooks' });
    await screen.findAllByText("You don't seem to have any webhooks yet");
    expect(heading.parentElement!.textContent).toBe('Webhooks');
  });

  it('lists the webhooks with method, trigger and a disabled mark, each a link to its view', async () => {
    const server = fakeServer({ webhooks: [webhook('w1', { name: 'Deploy' }), webhook('w2', { name: 'Audit', method: 'PUT', trigger: 'delete', enabled: false })] });
    open('/webhooks', server);
    const main = (await screen.findByRole('heading', { level: 2, name: 'Webhooks' })).closest('section')!;
    const items = await within(main).findAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual(['Deploy POST · create', 'Audit PUT · delete · disabled']);
    expect(within(items[0]!).getByRole('link', { name: 'Deploy' })).toHaveAttribute('href', `${base}/webhooks/w1`);
    expect(within(items[1]!).getByRole('link', { name: 'Audit' })).toHaveAttribute('href', `${base}/webhooks/w2`);
    // With webhooks, the add button sits in the header.
    await userEvent.click(await within(main).findByRole('button', { name: 'Create Webhook' }));
    expect(await screen.findByRole('dialog', { name: 'Create Webhook' })).toBeInTheDocument();
  });

  it('choosing Webhooks in the shell opens the first webhook with its settings', async () => {
    const server = fakeServer({ webhooks: [webhook('w1', { name: 'Deploy', method: 'PUT', trigger: 'update' }), webhook('w2', { name: 'Audit' })] });
    const { router } = open('', server);
    await within(await waitFor(sideMenu)).findByRole('link', { name: 'Deploy' });
    expect(within(sideMenu()).getByRole('link', { name: 'Audit' })).toHaveAttribute('href', `${base}/webhooks/w2`);
    await userEvent.click(within(sideMenu()).getByRole('button', { name: 'Webhooks' }));
    expect(router.state.location.pathname).toBe(`${base}/webhooks/w1`);
    expect(await screen.findByRole('heading', { level: 2, name: 'Deploy' })).toBeInTheDocument();
    const settings = screen.getByRole('form', { name: 'Settings' });
    expect(within(settings).getByRole('textbox', { name: 'Name' })).toHaveValue('Deploy');
    expect(within(settings).getByRole('textbox', { name: 'URI' })).toHaveValue('https://hooks.example.com/w1');
    expect(within(settings).getByRole('combobox', { name: 'HTTP Method' })).toHaveValue('PUT');
    expect(within(settings).getByRole('combobox', { name: 'Trigger' })).toHaveValue('update');
  });

  it('an unknown webhook id says there is no such webhook', async () => {
    open('/webhooks/nope', fakeServer({ webhooks: [webhook('w1')] }));
    expect(await screen.findByText('There is no such webhook in this project.')).toBeInTheDocument();
  });
});

describe('Create Webhook dialog', () => {
  it('offers POST/PUT and create/update/delete; Create is enabled only with a name, a URI and a method', async () => {
    open('/webhooks', fakeServer());
    const dialog = await openCreateDialog();
    const create = within(dialog).getByRole('button', { name: 'Create' });
    const method = within(dialog).getByRole('combobox', { name: 'HTTP Method' });
    expect(within(method).getAllByRole('option').map((o) => o.textContent)).toEqual(['POST', 'PUT']);
    expect(within(within(dialog).getByRole('combobox', { name: 'Trigger' })).getAllByRole('option').map((o) => o.textContent)).toEqual(['create', 'update', 'delete']);
    expect(create).toBeDisabled();
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    const uri = within(dialog).getByRole('textbox', { name: 'URI' });
    await userEvent.type(name, 'Deploy');
    expect(create).toBeDisabled();
    await userEvent.type(uri, 'https://hooks.example.com/x');
    expect(create).toBeEnabled();
    await userEvent.clear(name);
    await userEvent.type(name, '   ');
    expect(create).toBeDisabled();
    await userEvent.type(name, 'D');
    expect(create).toBeEnabled();
    await userEvent.clear(uri);
    expect(create).toBeDisabled();
  });

  it('the collection tree lists nested collections; the filter narrows it and a tick selects that row only', async () => {
    open('/webhooks', fakeServer());
    const dialog = await openCreateDialog();
    await waitFor(() => expect(treeLabels(dialog)).toEqual(['Posts', 'Comments', 'Replies', 'Authors']));
    // Nested rows show their slug path, which describes the checkbox without being part of its name.
    expect(treeBox(dialog, 'Replies').closest('label')).toHaveTextContent('posts.comments.replies');
    expect(treeBox(dialog, 'Replies')).toHaveAccessibleName('Replies');
    expect(treeBox(dialog, 'Replies')).toHaveAccessibleDescription('posts.comments.replies');
    expect(treeBox(dialog, 'Posts')).toHaveAccessibleDescription('');
    const filter = within(dialog).getByRole('searchbox', { name: 'Filter collections' });
    await userEvent.type(filter, 'repl');
    expect(treeLabels(dialog)).toEqual(['Replies']);
    await userEvent.click(treeBox(dialog, 'Replies'));
    await userEvent.clear(filter);
    await userEvent.type(filter, 'zzz');
    expect(treeLabels(dialog)).toEqual([]);
    expect(within(dialog).getByText('No collection matches')).toBeInTheDocument();
    await userEvent.clear(filter);
    expect(treeBox(dialog, 'Replies')).toBeChecked();
    expect(treeBox(dialog, 'Comments')).not.toBeChecked();
    expect(treeBox(dialog, 'Posts')).not.toBeChecked();
    // Ticking a parent does not tick the lists under it.
    await userEvent.click(treeBox(dialog, 'Posts'));
    expect(treeBox(dialog, 'Posts')).toBeChecked();
    expect(treeBox(dialog, 'Comments')).not.toBeChecked();
    await userEvent.click(treeBox(dialog, 'Replies'));
    expect(treeBox(dialog, 'Replies')).not.toBeChecked();
    expect(treeBox(dialog, 'Posts')).toBeChecked();
  });

  it('creates: sends the fields with ids and nested slugs, says "Webhook created successfully", closes and shows the secret once', async () => {
    const server = fakeServer({ webhooks: [webhook('w1', { name: 'Deploy' })] });
    const { router } = open('/webhooks', server);
    const dialog = await openCreateDialog();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Search index');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'URI' }), 'https://search.example.com/hook');
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'HTTP Method' }), 'PUT');
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'Trigger' }), 'update');
    await userEvent.type(within(dialog).getByRole('searchbox', { name: 'Filter collections' }), 'comm');
    await userEvent.click(treeBox(dialog, 'Comments'));
    await userEvent.clear(within(dialog).getByRole('searchbox', { name: 'Filter collections' }));
    await userEvent.click(treeBox(dialog, 'Authors'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

    await waitFor(() => expect(server.callsTo('post', 'api/webhook')).toHaveLength(1));
    expect(server.callsTo('post', 'api/webhook')[0]!.body).toEqual({
      name: 'Search index',
      webhookURI: 'https://search.example.com/hook',
      method: 'PUT',
      trigger: 'update',
      collections: ['posts.comments', 'authors'],
      organizationID: ORG,
      projectID: PROJECT,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(toasts()).toContainEqual({ kind: 'success', title: 'Webhook created successfully' });
    await waitFor(() => expect(router.state.location.pathname).toBe(`${base}/webhooks/new1`));
    expect(await screen.findByRole('heading', { level: 2, name: 'Search index' })).toBeInTheDocument();
    const secret = screen.getAllByRole('status').find((status) => status.textContent!.includes('This webhook signs every delivery'))!;
    expect(secret).toHaveTextContent('Copy it now: it is not shown again.');
    expect(within(secret).getByRole('textbox', { name: 'Signing secret' })).toHaveValue('whsec_1_s3cret');
    // The history entry no longer carries the secret (a reload would not show it); the screen still does.
    await waitFor(() => expect(router.state.location.state).toBeNull());
    expect(router.state.location.pathname).toBe(`${base}/webhooks/new1`);
    expect(screen.getByRole('textbox', { name: 'Signing secret' })).toHaveValue('whsec_1_s3cret');
    // The menu lists the new webhook (the project was refreshed).
    expect(await within(sideMenu()).findByRole('link', { name: 'Search index' })).toBeInTheDocument();
    // Back to the list and into the webhook again: the secret is gone.
    await act(() => router.navigate(`${base}/webhooks`));
    const main = (await screen.findByRole('heading', { level: 2, name: 'Webhooks' })).closest('section')!;
    await userEvent.click(await within(main).findByRole('link', { name: 'Search index' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Search index' })).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Signing secret' })).not.toBeInTheDocument();
  });

  it('the secret of a new webhook is not shown on another webhook opened from the menu', async () => {
    const server = fakeServer({ webhooks: [webhook('w1', { name: 'Deploy' })] });
    open('/webhooks', server);
    const dialog = await openCreateDialog();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Search index');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'URI' }), 'https://search.example.com/hook');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByRole('textbox', { name: 'Signing secret' })).toHaveValue('whsec_1_s3cret');
    await userEvent.click(within(sideMenu()).getByRole('link', { name: 'Deploy' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Deploy' })).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Signing secret' })).not.toBeInTheDocument();
    // Nor on the new webhook once the person has left it.
    await userEvent.click(await within(sideMenu()).findByRole('link', { name: 'Search index' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Search index' })).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Signing secret' })).not.toBeInTheDocument();
  });

  it('stepping back and forth through history does not bring the secret back', async () => {
    const server = fakeServer();
    const { router } = open('/webhooks', server);
    const dialog = await openCreateDialog();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Search index');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'URI' }), 'https://search.example.com/hook');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByRole('textbox', { name: 'Signing secret' })).toHaveValue('whsec_1_s3cret');
    await act(() => router.navigate(-1));
    expect(await screen.findByRole('heading', { level: 2, name: 'Webhooks' })).toBeInTheDocument();
    await act(() => router.navigate(1));
    expect(await screen.findByRole('heading', { level: 2, name: 'Search index' })).toBeInTheDocument();
    expect(screen.queryByRole('textbox', { name: 'Signing secret' })).not.toBeInTheDocument();
  });

  it('after success the form is cleared for the next webhook', async () => {
    const server = fakeServer();
    const onCreated = vi.fn();
    function Harness() {
      const { organizationID, projectID } = useProjectIds();
      const [opened, setOpened] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setOpened(true)}>
            open dialog
          </button>
          <CreateWebhookDialog open={opened} onOpenChange={setOpened} organizationID={organizationID} projectID={projectID} collections={collections} onCreated={onCreated} />
        </>
      );
    }
    renderPlatform({ routes: [{ id: 'viewWebhooks', path: '/organization/:organizationID/project/:projectID/webhooks', element: <Harness /> }], path: `${base}/webhooks`, api: platformFor(server) });
    await userEvent.click(await screen.findByRole('button', { name: 'open dialog' }));
    let dialog = await screen.findByRole('dialog', { name: 'Create Webhook' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Deploy');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'URI' }), 'https://hooks.example.com/a');
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'HTTP Method' }), 'PUT');
    await userEvent.click(treeBox(dialog, 'Posts'));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(onCreated).toHaveBeenCalledWith(expect.objectContaining({ id: 'new1', secret: 'whsec_1_s3cret' }));
    await userEvent.click(screen.getByRole('button', { name: 'open dialog' }));
    dialog = await screen.findByRole('dialog', { name: 'Create Webhook' });
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveValue('');
    expect(within(dialog).getByRole('textbox', { name: 'URI' })).toHaveValue('');
    expect(within(dialog).getByRole('combobox', { name: 'HTTP Method' })).toHaveValue('POST');
    expect(treeBox(dialog, 'Posts')).not.toBeChecked();
    expect(within(dialog).getByRole('button', { name: 'Create' })).toBeDisabled();
  });

  it('a failure says "Unknown error creating webhook" and keeps the dialog open; a 400 shows the server\'s reason', async () => {
    const server = fakeServer();
    open('/webhooks', server);
    const dialog = await openCreateDialog();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Deploy');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'URI' }), 'https://hooks.example.com/a');
    server.fail.create = new ApiError({ status: 500, code: 'internal', detail: 'boom' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    await waitFor(() => expect(toasts()).toContainEqual({ kind: 'error', title: 'Unknown error creating webhook' }));
    expect(toasts()).not.toContainEqual(expect.objectContaining({ kind: 'success' }));
    expect(screen.getByRole('dialog', { name: 'Create Webhook' })).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveValue('Deploy');
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();

    vi.mocked(notify).mockClear();
    server.fail.create = new ApiError({ status: 400, code: 'invalid_webhook', detail: 'webhookURI: the address is inside the network' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('webhookURI: the address is inside the network');
    expect(toasts()).toEqual([]);
    expect(screen.getByRole('dialog', { name: 'Create Webhook' })).toBeInTheDocument();
  });

  it('keyboard: the dialog is reached and submitted without a pointer', async () => {
    const server = fakeServer();
    open('/webhooks', server);
    const button = (await screen.findAllByRole('button', { name: 'Create Webhook' })).at(-1)!;
    await waitFor(() => expect(button).toBeEnabled());
    button.focus();
    await userEvent.keyboard('{Enter}');
    const dialog = await screen.findByRole('dialog', { name: 'Create Webhook' });
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    await waitFor(() => expect(dialog).toContainElement(document.activeElement as HTMLElement));
    if (document.activeElement !== name) name.focus();
    await userEvent.keyboard('Deploy');
    await userEvent.tab();
    expect(within(dialog).getByRole('textbox', { name: 'URI' })).toHaveFocus();
    await userEvent.keyboard('https://hooks.example.com/k{Enter}');
    await waitFor(() => expect(server.callsTo('post', 'api/webhook')).toHaveLength(1));
    expect(server.callsTo('post', 'api/webhook')[0]!.body).toMatchObject({ name: 'Deploy', webhookURI: 'https://hooks.example.com/k', method: 'POST', trigger: 'create', collections: [] });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });
});

describe('one webhook', () => {
  it('saves edited settings with PUT and says "Webhook has been updated"', async () => {
    const server = fakeServer({ webhooks: [webhook('w1', { name: 'Deploy', collections: ['authors'] })] });
    open('/webhooks/w1', server);
    const settings = await screen.findByRole('form', { name: 'Settings' });
    await waitFor(() => expect(treeLabels(settings)).toEqual(['Posts', 'Comments', 'Replies', 'Authors']));
    expect(treeBox(settings, 'Authors')).toBeChecked();
    const name = within(settings).getByRole('textbox', { name: 'Name' });
    await userEvent.clear(name);
    await userEvent.type(name, 'Deploy site');
    await userEvent.selectOptions(within(settings).getByRole('combobox', { name: 'HTTP Method' }), 'PUT');
    await userEvent.selectOptions(within(settings).getByRole('combobox', { name: 'Trigger' }), 'delete');
    await userEvent.click(treeBox(settings, 'Replies'));
    await userEvent.click(within(settings).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(server.callsTo('put', 'api/webhook/w1')).toHaveLength(1));
    expect(server.callsTo('put', 'api/webhook/w1')[0]!.body).toEqual({
      name: 'Deploy site',
      webhookURI: 'https://hooks.example.com/w1',
      method: 'PUT',
      trigger: 'delete',
      collections: ['authors', 'posts.comments.replies'],
    });
    expect(toasts()).toContainEqual({ kind: 'success', title: 'Webhook has been updated' });
    expect(await screen.findByRole('heading', { level: 2, name: 'Deploy site' })).toBeInTheDocument();
    expect(await within(sideMenu()).findByRole('link', { name: 'Deploy site' })).toBeInTheDocument();
  });

  it('Save is disabled without a name; a failed save says "Unknown error updating webhook" and keeps the edit', async () => {
    const server = fakeServer({ webhooks: [webhook('w1', { name: 'Deploy' })] });
    open('/webhooks/w1', server);
    const settings = await screen.findByRole('form', { name: 'Settings' });
    const name = within(settings).getByRole('textbox', { name: 'Name' });
    const save = within(settings).getByRole('button', { name: 'Save' });
    await waitFor(() => expect(save).toBeEnabled());
    await userEvent.clear(name);
    expect(save).toBeDisabled();
    await userEvent.type(name, 'Renamed');
    server.fail.update = new ApiError({ status: 0, code: 'network_error', detail: 'offline' });
    await userEvent.click(save);
    await waitFor(() => expect(toasts()).toContainEqual({ kind: 'error', title: 'Unknown error updating webhook' }));
    expect(toasts()).not.toContainEqual(expect.objectContaining({ kind: 'success' }));
    expect(name).toHaveValue('Renamed');
    expect(screen.getByRole('heading', { level: 2, name: 'Deploy' })).toBeInTheDocument();
  });

  it('shows the delivery log (time, attempt, status code, truncated answer, error, state) and redelivers', async () => {
    const long = 'x'.repeat(200) + 'TAIL-NOT-SHOWN';
    const server = fakeServer({
      webhooks: [webhook('w1', { name: 'Deploy' })],
      logs: {
        w1: [
          logEntry(2, { deliveryID: 'd-fail', attempt: 3, statusCode: null, responseBody: null, error: 'connect ECONNREFUSED', state: 'failed', timeStamp: '2025-05-06T09:30:00.000Z' }),
          logEntry(1, { deliveryID: 'd-ok', attempt: 2, manual: true, statusCode: 500, responseBody: long, state: 'delivered' }),
        ],
      },
    });
    open('/webhooks/w1', server);
    const table = await screen.findByRole('table', { name: 'Delivery log' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Time', 'Attempt', 'Status code', 'Response body', 'Error', 'Delivery', 'Actions']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    const cells = (row: HTMLElement) => within(row).getAllByRole('cell').map((cell) => cell.textContent);
    expect(cells(rows[0]!)).toEqual([formatDateTime('2025-05-06T09:30:00.000Z'), '3', '—', '—', 'connect ECONNREFUSED', 'failed', 'Redeliver']);
    expect(cells(rows[1]!)).toEqual([formatDateTime('2025-05-06T07:08:00.000Z'), '2 (redelivery)', '500', 'x'.repeat(200), '—', 'delivered', 'Redeliver']);
    expect(formatDateTime('2025-05-06T09:30:00.000Z')).not.toBe('');

    const logReads = server.callsTo('get', 'api/webhook/w1/logs').length;
    await userEvent.click(within(rows[0]!).getByRole('button', { name: 'Redeliver' }));
    await waitFor(() => expect(server.callsTo('post', /redeliver$/)).toHaveLength(1));
    expect(server.callsTo('post', /redeliver$/)[0]!.path).toBe('api/webhook/w1/logs/d-fail/redeliver');
    expect(toasts()).toContainEqual({ kind: 'success', title: 'Delivery queued' });
    // The log is read again and shows the new attempt.
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Delivery log' })).getAllByRole('row')).toHaveLength(4));
    expect(server.callsTo('get', 'api/webhook/w1/logs').length).toBeGreaterThan(logReads);
    expect(within(screen.getByRole('table', { name: 'Delivery log' })).getByText('retrying')).toBeInTheDocument();
  });

  it('a failed Redeliver says "Could not redeliver. Try again."', async () => {
    const server = fakeServer({ webhooks: [webhook('w1', { name: 'Deploy' })], logs: { w1: [logEntry(1, { deliveryID: 'd-fail', state: 'failed' })] } });
    open('/webhooks/w1', server);
    const table = await screen.findByRole('table', { name: 'Delivery log' });
    const redeliver = within(table).getByRole('button', { name: 'Redeliver' });
    await waitFor(() => expect(redeliver).toBeEnabled());
    server.fail.redeliver = new ApiError({ status: 500, code: 'internal', detail: 'boom' });
    await userEvent.click(redeliver);
    await waitFor(() => expect(toasts()).toContainEqual({ kind: 'error', title: 'Could not redeliver. Try again.' }));
    expect(server.callsTo('post', /redeliver$/)).toHaveLength(1);
    expect(toasts()).not.toContainEqual(expect.objectContaining({ kind: 'success' }));
    expect(redeliver).toBeEnabled();
  });

  it('an empty log says so', async () => {
    open('/webhooks/w1', fakeServer({ webhooks: [webhook('w1')] }));
    expect(await screen.findByText('No deliveries yet.')).toBeInTheDocument();
    expect(screen.queryByRole('table', { name: 'Delivery log' })).not.toBeInTheDocument();
  });

  it('a disabled webhook shows its notice and reason; Re-enable sends enabled: true and the notice goes', async () => {
    const server = fakeServer({ webhooks: [webhook('w1', { name: 'Deploy', enabled: false, disabledAt: '2025-05-06T10:00:00.000Z', disabledReason: '5 deliveries in a row failed', consecutiveFailures: 5 })] });
    open('/webhooks/w1', server);
    await screen.findByRole('heading', { level: 2, name: 'Deploy' });
    const notice = screen.getByText('This webhook is disabled.').closest('.webhook-disabled') as HTMLElement;
    expect(notice).toHaveTextContent('This webhook is disabled. 5 deliveries in a row failed');
    const reenable = within(notice).getByRole('button', { name: 'Re-enable' });
    await waitFor(() => expect(reenable).toBeEnabled());
    await userEvent.click(reenable);
    await waitFor(() => expect(server.callsTo('put', 'api/webhook/w1')).toHaveLength(1));
    expect(server.callsTo('put', 'api/webhook/w1')[0]!.body).toEqual({ name: 'Deploy', webhookURI: 'https://hooks.example.com/w1', method: 'POST', trigger: 'create', collections: [], enabled: true });
    expect(toasts()).toContainEqual({ kind: 'success', title: 'Webhook is enabled again' });
    await waitFor(() => expect(screen.queryByText('This webhook is disabled.')).not.toBeInTheDocument());
  });

  it('Re-enable sends the saved settings, not unsaved edits, and leaves those edits in the form', async () => {
    const server = fakeServer({ webhooks: [webhook('w1', { name: 'Deploy', enabled: false, disabledReason: '5 deliveries in a row failed' })] });
    open('/webhooks/w1', server);
    const settings = await screen.findByRole('form', { name: 'Settings' });
    const name = within(settings).getByRole('textbox', { name: 'Name' });
    await userEvent.clear(name);
    await userEvent.type(name, 'Unsaved name');
    await userEvent.selectOptions(within(settings).getByRole('combobox', { name: 'Trigger' }), 'delete');
    const reenable = screen.getByRole('button', { name: 'Re-enable' });
    await waitFor(() => expect(reenable).toBeEnabled());
    await userEvent.click(reenable);
    await waitFor(() => expect(server.callsTo('put', 'api/webhook/w1')).toHaveLength(1));
    expect(server.callsTo('put', 'api/webhook/w1')[0]!.body).toEqual({ name: 'Deploy', webhookURI: 'https://hooks.example.com/w1', method: 'POST', trigger: 'create', collections: [], enabled: true });
    await waitFor(() => expect(screen.queryByText('This webhook is disabled.')).not.toBeInTheDocument());
    // The list was read again after the change; the edits are still there, unsaved.
    expect(name).toHaveValue('Unsaved name');
    expect(within(settings).getByRole('combobox', { name: 'Trigger' })).toHaveValue('delete');
    expect(screen.getByRole('heading', { level: 2, name: 'Deploy' })).toBeInTheDocument();
    expect(server.state.webhooks[0]).toMatchObject({ name: 'Deploy', trigger: 'create', enabled: true });
  });

  it('an enabled webhook has no disabled notice', async () => {
    open('/webhooks/w1', fakeServer({ webhooks: [webhook('w1', { name: 'Deploy' })] }));
    await screen.findByRole('heading', { level: 2, name: 'Deploy' });
    expect(screen.queryByText('This webhook is disabled.')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Re-enable' })).not.toBeInTheDocument();
  });

  it('a read-only member cannot save, redeliver or re-enable', async () => {
    const reader = { ...me, email: 'bob@example.com' };
    const server = fakeServer({ webhooks: [webhook('w1', { name: 'Deploy', enabled: false })], logs: { w1: [logEntry(1)] } });
    const { queryClient } = open('/webhooks/w1', server, { organization: vi.fn(async () => organization({ users: [member('bob', { read: true })] })) }, reader);
    await screen.findByRole('table', { name: 'Delivery log' });
    // The flags are the member's, not the (all-off) default shown while the organization loads.
    await waitFor(() => expect(queryClient.getQueryState(platformKeys.organization(ORG))?.status).toBe('success'));
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Redeliver' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Re-enable' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Delete' })).not.toBeInTheDocument();
  });
});
