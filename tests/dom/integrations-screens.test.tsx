/**
 * The Integrations section (docs/integrations.md "The console") over an in-memory Integrations
 * API: the list with last runs and the catalogue; adding the chat integration (collections with
 * nested lists, events, the settings form with its compiled validator) and a scheduled export (one
 * collection, a cron schedule); the server's problems at their fields; an instance's form with a
 * stored secret left empty and kept; on/off; a test that shows in the run log; delete with a
 * confirmation; the run log's pages; members who are not admins asked nothing.
 */
import '@testing-library/jest-dom/vitest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Outlet } from 'react-router';
import { integrations } from '../../definitions/integrations/index.ts';
import IntegrationsScreen from '../../src/screens/integrations/IntegrationsScreen.tsx';
import IntegrationScreen from '../../src/screens/integrations/IntegrationScreen.tsx';
import { settingsValidators } from '../../src/screens/integrations/settings-validators.ts';
import { ApiError } from '../../src/api/errors.ts';
import type { IntegrationInstance, IntegrationRun, IntegrationsApi } from '../../src/api/integrations.ts';
import { IntegrationsApiProvider } from '../../src/api/integrations-queries.ts';
import { notify } from '../../renderers/toasts/notify.ts';
import { fakePlatformApi, member, ORG, organization, PROJECT, project, renderPlatform } from './support/platform.tsx';

vi.mock('../../renderers/toasts/notify.ts', () => ({ notify: vi.fn(async () => undefined) }));
const { compiled } = vi.hoisted(() => ({
  // The `?validator` modules the build makes, made the same way (the test runner has no build plugin).
  compiled: async (folder: string) => {
    const { compileForm } = await import('../renderers/support/compile-form.ts');
    const module = (await import(`../../definitions/integrations/${folder}/settings-form.ts`)) as { default: Parameters<typeof compileForm>[0] };
    return { default: await compileForm(module.default) };
  },
}));
vi.mock('../../definitions/integrations/slack/settings-form.ts?validator', () => compiled('slack'));
vi.mock('../../definitions/integrations/s3-export/settings-form.ts?validator', () => compiled('s3-export'));
vi.mock('../../definitions/integrations/meilisearch/settings-form.ts?validator', () => compiled('meilisearch'));

const base = `/organization/${ORG}/project/${PROJECT}`;
const HOOK = 'https://hooks.slack.test/services/T0/B0/SECRET';

function instance(overrides: Partial<IntegrationInstance> = {}): IntegrationInstance {
  return {
    id: 'i1',
    integration: 'slack',
    name: 'Team chat',
    enabled: true,
    collections: ['posts'],
    events: ['create'],
    schedule: null,
    nextRunDate: null,
    settings: { heading: 'New post' },
    secretsSet: { webhookUrl: true },
    lastRunDate: '2026-11-28T10:00:00.000Z',
    lastStatus: 'failed',
    lastError: 'The channel answered 404',
    createdDate: '2026-11-27T10:00:00.000Z',
    updatedDate: '2026-11-27T10:00:00.000Z',
    ...overrides,
  };
}

function run(n: number, overrides: Partial<IntegrationRun> = {}): IntegrationRun {
  return { id: `r${n}`, trigger: 'create', status: 'succeeded', attempts: 1, detail: {}, error: null, durationMs: 120, createdDate: '2026-11-28T10:00:00.000Z', finishedDate: '2026-11-28T10:00:01.000Z', ...overrides };
}

const invalid = (errors: { path: string; message: string }[]) =>
  new ApiError({ status: 400, code: 'integration_invalid', detail: 'Not valid', problem: { type: 'about:blank', title: 'Bad', status: 400, code: 'integration_invalid', detail: 'Not valid', errors } });

function fakeApi(initial: IntegrationInstance[] = [], runs: IntegrationRun[] = []) {
  const state = { instances: initial.map((i) => structuredClone(i)), runs: [...runs], secrets: {} as Record<string, Record<string, string>> };
  const api = {
    list: vi.fn(async () => structuredClone(state.instances)),
    get: vi.fn(async (_scope, id: string) => {
      const found = state.instances.find((i) => i.id === id);
      if (!found) throw new ApiError({ status: 404, code: 'integration_not_found', detail: 'No such integration' });
      return structuredClone(found);
    }),
    create: vi.fn(async (_scope, input) => {
      if (input.integration === 's3-export' && input.schedule === '* * * * *') throw invalid([{ path: 'schedule', message: 'runs more often than every 5 minutes' }, { path: 'settings/bucket', message: 'must match pattern' }]);
      const { webhookUrl, secretAccessKey, ...settings } = (input.settings ?? {}) as Record<string, string>;
      const made = instance({ id: `i${state.instances.length + 1}`, integration: input.integration, name: input.name, collections: input.collections ?? [], events: input.events ?? [], schedule: input.schedule ?? null, settings, secretsSet: input.integration === 'slack' ? { webhookUrl: Boolean(webhookUrl) } : { secretAccessKey: Boolean(secretAccessKey) }, lastRunDate: null, lastStatus: null, lastError: null });
      state.instances.push(made);
      return structuredClone(made);
    }),
    update: vi.fn(async (_scope, id: string, input) => {
      const found = state.instances.find((i) => i.id === id)!;
      if (input.name === 'taken') throw invalid([{ path: 'name', message: 'is already used' }]);
      const { webhookUrl, ...settings } = (input.settings ?? {}) as Record<string, string>;
      Object.assign(found, { ...input, settings: input.settings ? { ...found.settings, ...settings } : found.settings });
      if (webhookUrl) state.secrets[id] = { webhookUrl };
      return structuredClone(found);
    }),
    remove: vi.fn(async (_scope, id: string) => {
      state.instances = state.instances.filter((i) => i.id !== id);
    }),
    runs: vi.fn(async (_scope, _id: string, page: number) => ({ runs: state.runs.slice((page - 1) * 50, page * 50), total: state.runs.length, page, perPage: 50 })),
    test: vi.fn(async () => {
      state.runs.unshift(run(state.runs.length + 1, { trigger: 'test', status: 'pending', attempts: 0, durationMs: null, finishedDate: null }));
      return { runID: state.runs[0]!.id };
    }),
  } satisfies IntegrationsApi;
  return { api, state };
}

const collections = [
  { id: 'posts', name: 'Posts', singleItem: false, rtlDirection: false, schema: [{ id: 'f1', name: 'Title', slug: 'title', type: 1 }, { id: 'f2', name: 'Comments', slug: 'comments', type: 12, nestedCollectionSchema: [{ id: 'f3', name: 'Text', slug: 'text', type: 1 }] }] },
  { id: 'authors', name: 'Authors', singleItem: false, rtlDirection: false, schema: [] },
];

function open(path: string, api: IntegrationsApi, admin = true) {
  const platform = fakePlatformApi({
    organization: vi.fn(async () => organization({ users: [member('ana', { admin, create: true, update: true, delete: true })] })),
    project: vi.fn(async () => project({ collections: collections as never })),
  });
  return renderPlatform({
    routes: [
      {
        id: 'viewProject',
        path: '/organization/:organizationID/project/:projectID',
        element: (
          <IntegrationsApiProvider value={api}>
            <Outlet />
          </IntegrationsApiProvider>
        ),
        children: [
          { id: 'viewIntegrations', path: 'integrations', element: <IntegrationsScreen /> },
          { id: 'viewIntegration', path: 'integration/:integrationID', element: <IntegrationScreen /> },
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

describe('Integrations', () => {
  it('has a compiled settings validator for every catalogue entry', () => {
    for (const entry of integrations) expect(typeof settingsValidators[entry.id], entry.id).toBe('function');
  });

  it('lists the instances with their last run, and the catalogue as cards', async () => {
    const { api } = fakeApi([instance(), instance({ id: 'i2', name: 'Nightly', integration: 's3-export', enabled: false, lastRunDate: null, lastStatus: null, lastError: null })]);
    open(`${base}/integrations`, api);
    const table = await screen.findByRole('table', { name: "This project's integrations" });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual([
      expect.stringMatching(/^Team chatChat notificationOnFailed.*The channel answered 404$/),
      'NightlyScheduled export to S3OffNot run yet',
    ]);
    expect(within(rows[0]!).getByRole('link', { name: 'Team chat' })).toHaveAttribute('href', `${base}/integration/i1`);
    const catalogue = screen.getByRole('list', { name: 'Catalogue' });
    expect(within(catalogue).getAllByRole('listitem')).toHaveLength(integrations.length);
    expect(within(catalogue).getByRole('link', { name: 'Add Meilisearch sync' })).toBeInTheDocument();
  });

  it('adds the chat integration: nested lists offered, events, the secret sent once, then its screen', async () => {
    const { api, state } = fakeApi();
    open(`${base}/integrations`, api);
    await userEvent.click(await screen.findByRole('link', { name: 'Add Chat notification' }));
    expect(where()).toBe(`${base}/integrations?add=slack`);
    const form = await screen.findByRole('form', { name: 'Add Chat notification' });
    expect(within(form).getByLabelText('Name')).toHaveValue('Chat notification');
    const lists = within(form).getByRole('group', { name: 'Collections' });
    expect(within(lists).getAllByRole('checkbox').map((box) => box.parentElement?.textContent)).toEqual(['Posts', 'Posts › Comments', 'Authors']);
    await userEvent.click(within(lists).getByRole('checkbox', { name: 'Posts › Comments' }));
    const events = within(form).getByRole('group', { name: 'Send when an item is' });
    expect(within(events).getAllByRole('checkbox', { checked: true })).toHaveLength(3);
    await userEvent.click(within(events).getByRole('checkbox', { name: 'Changed' }));
    expect(within(form).queryByLabelText(/Schedule/)).toBeNull();

    // The settings form's own validator: not a URL is refused before anything is sent.
    const url = within(form).getByLabelText('Incoming webhook URL');
    expect(url).toHaveAttribute('type', 'password');
    await userEvent.type(url, 'hooks.slack.test');
    await userEvent.click(within(form).getByRole('button', { name: 'Add integration' }));
    await waitFor(() => expect(url).toHaveAccessibleDescription(expect.stringContaining('Enter an address that starts with http:// or https://.')));
    expect(api.create).not.toHaveBeenCalled();

    await userEvent.clear(url);
    await userEvent.type(url, HOOK);
    await userEvent.click(within(form).getByRole('button', { name: 'Add integration' }));
    await waitFor(() => expect(where()).toBe(`${base}/integration/i1`));
    expect(api.create).toHaveBeenCalledWith(expect.anything(), {
      integration: 'slack',
      name: 'Chat notification',
      collections: ['posts.comments'],
      events: ['create', 'delete'],
      settings: { webhookUrl: HOOK, heading: '' },
    });
    expect(state.instances).toHaveLength(1);
    expect(toasts()).toContainEqual({ kind: 'success', title: 'Integration added' });
    expect(await screen.findByRole('heading', { level: 2, name: 'Chat notification' })).toBeInTheDocument();
  });

  it('adds a scheduled export: one collection, a cron schedule, the server’s problems at their fields', async () => {
    const { api } = fakeApi();
    open(`${base}/integrations?add=s3-export`, api);
    const form = await screen.findByRole('form', { name: 'Add Scheduled export to S3' });
    const collection = within(form).getByLabelText('Collection');
    expect(within(collection).getAllByRole('option').map((o) => o.textContent)).toEqual(['Choose a collection', 'Posts', 'Authors']);
    await userEvent.selectOptions(collection, 'authors');
    expect(within(form).queryByRole('group', { name: 'Send when an item is' })).toBeNull();
    const schedule = within(form).getByLabelText('Schedule (cron, UTC)');
    expect(schedule).toHaveAccessibleDescription(expect.stringContaining('e.g. 0 3 * * * = every day at 03:00 UTC'));
    await userEvent.type(schedule, '* * * * *');
    await userEvent.type(within(form).getByLabelText('Region'), 'us-east-1');
    await userEvent.type(within(form).getByLabelText('Bucket'), 'exports');
    await userEvent.type(within(form).getByLabelText('Access key ID'), 'AKIA');
    await userEvent.type(within(form).getByLabelText('Secret access key'), 'shh');
    await userEvent.click(within(form).getByRole('button', { name: 'Add integration' }));
    await waitFor(() => expect(schedule).toHaveAttribute('aria-invalid', 'true'));
    expect(schedule).toHaveAccessibleDescription(expect.stringContaining('runs more often than every 5 minutes'));
    await waitFor(() => expect(within(form).getByLabelText('Bucket')).toHaveAttribute('aria-invalid', 'true'));
    expect(within(form).getByLabelText('Bucket')).toHaveAccessibleDescription(expect.stringContaining('must match pattern'));
    expect(within(form).getByRole('alert')).toHaveTextContent('Some values are not valid');
    expect(api.create).toHaveBeenLastCalledWith(expect.anything(), expect.objectContaining({ integration: 's3-export', collections: ['authors'], events: [], schedule: '* * * * *', settings: expect.objectContaining({ format: 'csv', secretAccessKey: 'shh' }) }));
    expect(where()).toBe(`${base}/integrations?add=s3-export`);

    await userEvent.click(within(form).getByRole('button', { name: 'Cancel' }));
    expect(where()).toBe(`${base}/integrations`);
  });

  it('edits an instance: the stored secret stays empty and is kept, a refusal at its field', async () => {
    const { api } = fakeApi([instance()]);
    open(`${base}/integration/i1`, api);
    const form = await screen.findByRole('form', { name: 'Settings' });
    const url = within(form).getByLabelText('Incoming webhook URL');
    expect(url).toHaveValue('');
    expect(url).toHaveAccessibleDescription('Stored — leave empty to keep');
    expect(within(form).getByLabelText('Message heading')).toHaveValue('New post');
    expect(await within(form).findByRole('checkbox', { name: 'Posts' })).toBeChecked();

    const name = within(form).getByLabelText('Name');
    await userEvent.clear(name);
    await userEvent.type(name, 'taken');
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(name).toHaveAttribute('aria-invalid', 'true'));
    expect(name).toHaveAccessibleDescription('is already used');

    await userEvent.clear(name);
    await userEvent.type(name, 'Chat');
    await userEvent.clear(within(form).getByLabelText('Message heading'));
    await userEvent.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(toasts()).toContainEqual({ kind: 'success', title: 'Integration saved' }));
    // The secret is left out (kept); a cleared setting is sent empty.
    expect(api.update).toHaveBeenLastCalledWith(expect.anything(), 'i1', { name: 'Chat', collections: ['posts'], events: ['create'], settings: { heading: '' } });
    expect(await screen.findByRole('heading', { level: 2, name: 'Chat' })).toBeInTheDocument();
  });

  it('switches off, sends a test that shows in the run log, pages the log, and deletes with a confirmation', async () => {
    const { api, state } = fakeApi([instance()], Array.from({ length: 60 }, (_, i) => run(i + 1, i === 0 ? { status: 'failed', error: 'The channel answered 404', attempts: 7 } : {})));
    open(`${base}/integration/i1`, api);
    const log = await screen.findByRole('table', { name: 'Run log' });
    expect(within(log).getAllByRole('row')).toHaveLength(51);
    expect(within(log).getAllByRole('row')[1]).toHaveTextContent(/Item created\s*Failed\s*Attempts:\s*7\s*Duration:\s*120 ms\s*The channel answered 404/);
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(where()).toBe(`${base}/integration/i1?page=2`));
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Run log' })).getAllByRole('row')).toHaveLength(11));
    await userEvent.click(screen.getByRole('button', { name: 'Previous page' }));

    const toggle = screen.getByRole('switch', { name: 'On' });
    expect(toggle).toBeChecked();
    await userEvent.click(toggle);
    await waitFor(() => expect(api.update).toHaveBeenCalledWith(expect.anything(), 'i1', { enabled: false }));
    await waitFor(() => expect(screen.getByRole('switch', { name: 'On' })).not.toBeChecked());

    await userEvent.click(screen.getByRole('button', { name: 'Send a test' }));
    expect(screen.getByRole('button', { name: 'Send a test' })).toHaveAccessibleDescription('Sends a sample message to the channel.');
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Run log' })).getAllByRole('row')[1]).toHaveTextContent(/Test\s*Pending\s*Attempts:\s*0/));
    expect(api.test).toHaveBeenCalledTimes(1);

    await userEvent.click(screen.getByRole('button', { name: 'Delete' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete the integration?' });
    expect(dialog).toHaveTextContent('“Team chat” and its run log will be deleted.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(where()).toBe(`${base}/integrations`));
    expect(state.instances).toEqual([]);
  });

  it('asks nothing for members who are not admins', async () => {
    const { api } = fakeApi([instance()]);
    open(`${base}/integrations`, api, false);
    expect(await screen.findByRole('note')).toHaveTextContent("Only the organization's admins can see and change integrations");
    cleanup();
    open(`${base}/integration/i1`, api, false);
    expect(await screen.findByRole('note')).toHaveTextContent("Only the organization's admins");
    expect(api.list).not.toHaveBeenCalled();
    expect(api.get).not.toHaveBeenCalled();
  });
});
