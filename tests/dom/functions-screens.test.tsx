/**
 * The Functions section (docs/functions.md "The console") over an in-memory Functions API: the list
 * with versions and triggers, New function (a bad name refused before sending), the secrets (names
 * only; set, replace, delete after a confirmation); one function: a save refused by the compiler
 * shows each error at its line and column and saves nothing, a fixed save makes version 1, Deploy,
 * a roll back confirmed; the test run's sample event and its outcome; the triggers with a refusal at
 * its field; the invocation log (details, search, pages); members who are not admins read only.
 * The CodeMirror editor is stood in for by a textarea here (its own test: code-editor.test.tsx).
 */
import '@testing-library/jest-dom/vitest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Outlet } from 'react-router';
import FunctionsScreen from '../../src/screens/functions/FunctionsScreen.tsx';
import FunctionScreen from '../../src/screens/functions/FunctionScreen.tsx';
import { compileErrors, sampleEvent, triggerListChoices } from '../../src/screens/functions/function-helpers.ts';
import { ApiError } from '../../src/api/errors.ts';
import type { FunctionInvocationView, FunctionsApi, FunctionVersionView, FunctionView } from '../../src/api/functions.ts';
import { FunctionsApiProvider } from '../../src/api/functions-queries.ts';
import { notify } from '../../renderers/toasts/notify.ts';
import { fakePlatformApi, member, ORG, organization, PROJECT, project, renderPlatform } from './support/platform.tsx';

vi.mock('../../renderers/toasts/notify.ts', () => ({ notify: vi.fn(async () => undefined) }));
vi.mock('../../src/screens/functions/CodeEditor.tsx', () => ({
  default: (props: { value: string; onChange: (value: string) => void; labelledBy: string; describedBy?: string; readOnly?: boolean; errors?: { line: number; column: number; message: string }[] }) => (
    <textarea
      aria-labelledby={props.labelledBy}
      aria-describedby={props.describedBy}
      readOnly={props.readOnly}
      data-errors={JSON.stringify(props.errors ?? [])}
      value={props.value}
      onChange={(event) => props.onChange(event.target.value)}
    />
  ),
}));

const base = `/organization/${ORG}/project/${PROJECT}`;
const when = '2026-11-28T10:00:00.000Z';

function fn(overrides: Partial<FunctionView> = {}): FunctionView {
  return {
    id: 'f1',
    name: 'stamp',
    language: 'ts',
    public: false,
    apiTokenID: null,
    deployedVersionID: null,
    deployedVersion: null,
    latestVersion: null,
    events: [],
    collections: [],
    schedule: null,
    nextRunDate: null,
    createdDate: when,
    updatedDate: when,
    ...overrides,
  };
}

function invocation(n: number, overrides: Partial<FunctionInvocationView> = {}): FunctionInvocationView {
  return { id: `inv${n}`, versionID: 'v1', trigger: 'http', runID: null, attempt: null, status: 'ok', durationMs: 12, memoryBytes: 2 * 1024 * 1024, error: null, logs: [], resultPreview: '{"ok":true}', createdDate: when, ...overrides };
}

const compileFailed = () =>
  new ApiError({
    status: 400,
    code: 'function_compile_failed',
    detail: 'line 2, column 9: Expected ";" but found "oops"',
    problem: { type: 'about:blank', title: 'Bad', status: 400, code: 'function_compile_failed', detail: 'x', errors: [{ path: 'source', message: '2:9: Expected ";" but found "oops"', params: { line: 2, column: 9 } }] },
  });

function fakeApi(initial: FunctionView[] = [], options: { versions?: FunctionVersionView[]; invocations?: FunctionInvocationView[] } = {}) {
  const state = {
    functions: initial.map((f) => structuredClone(f)),
    versions: [...(options.versions ?? [])],
    invocations: [...(options.invocations ?? [])],
    secrets: [{ name: 'SLACK_TOKEN', updatedDate: when }] as { name: string; updatedDate: string }[],
  };
  const find = (name: string) => {
    const found = state.functions.find((f) => f.name === name);
    if (!found) throw new ApiError({ status: 404, code: 'function_not_found', detail: 'No such function' });
    return found;
  };
  const api = {
    list: vi.fn(async () => structuredClone(state.functions)),
    get: vi.fn(async (_scope, name: string) => structuredClone(find(name))),
    create: vi.fn(async (_scope, input) => {
      const made = fn({ id: `f${state.functions.length + 1}`, name: input.name, language: input.language ?? 'ts' });
      state.functions.push(made);
      return structuredClone(made);
    }),
    update: vi.fn(async (_scope, name: string, input) => {
      if (input.schedule === '* * * * *')
        throw new ApiError({ status: 400, code: 'function_invalid', detail: 'schedule: runs more often than every 5 minutes', problem: { type: 'about:blank', title: 'Bad', status: 400, code: 'function_invalid', detail: 'x', errors: [{ path: 'schedule', message: 'runs more often than every 5 minutes' }] } });
      Object.assign(find(name), input, input.schedule ? { nextRunDate: '2026-11-28T11:00:00.000Z' } : {});
      return structuredClone(find(name));
    }),
    remove: vi.fn(async (_scope, name: string) => {
      state.functions = state.functions.filter((f) => f.name !== name);
    }),
    saveSource: vi.fn(async (_scope, name: string, source: string) => {
      if (source.includes('oops')) throw compileFailed();
      const number = state.versions.length + 1;
      const version = { id: `v${number}`, number, deployed: false, source, createdDate: when };
      state.versions.unshift(version);
      find(name).latestVersion = number;
      return structuredClone(version);
    }),
    versions: vi.fn(async () => structuredClone(state.versions)),
    deploy: vi.fn(async (_scope, name: string, versionID: string) => {
      for (const version of state.versions) version.deployed = version.id === versionID;
      const target = find(name);
      target.deployedVersionID = versionID;
      target.deployedVersion = state.versions.find((v) => v.id === versionID)!.number;
      return structuredClone(target);
    }),
    test: vi.fn(async (_scope, _name: string, event: unknown) => {
      const failed = (event as { fail?: boolean }).fail === true;
      const made = invocation(state.invocations.length + 1, {
        trigger: 'test',
        status: failed ? 'error' : 'ok',
        error: failed ? { name: 'TypeError', message: 'nope is not a function', stack: 'at default (function:3:5)' } : null,
        logs: [{ level: 'log', text: 'event {"kind":"item"}' }],
      });
      state.invocations.unshift(made);
      return { invocation: made, result: failed ? null : { stamped: true } };
    }),
    invocations: vi.fn(async (_scope, _name: string, page: number, search: string) => {
      const matching = state.invocations.filter((i) => !search || JSON.stringify(i).includes(search));
      return { invocations: matching.slice((page - 1) * 50, page * 50), page, hasMore: matching.length > page * 50 };
    }),
    secrets: vi.fn(async () => structuredClone(state.secrets)),
    putSecret: vi.fn(async (_scope, name: string) => {
      state.secrets = [...state.secrets.filter((s) => s.name !== name), { name, updatedDate: when }];
    }),
    deleteSecret: vi.fn(async (_scope, name: string) => {
      state.secrets = state.secrets.filter((s) => s.name !== name);
    }),
  } satisfies FunctionsApi;
  return { api, state };
}

const collections = [
  { id: 'posts', name: 'Posts', singleItem: false, rtlDirection: false, schema: [{ id: 'a', name: 'Title', slug: 'title', type: 1 }, { id: 'b', name: 'Stamp', slug: 'stamp', type: 1 }, { id: 'c', name: 'Comments', slug: 'comments', type: 12, nestedCollectionSchema: [{ id: 'd', name: 'Text', slug: 'text', type: 1 }] }] },
  { id: 'authors', name: 'Authors', singleItem: false, rtlDirection: false, schema: [] },
];

function open(path: string, api: FunctionsApi, admin = true) {
  const platform = fakePlatformApi({
    organization: vi.fn(async () => organization({ users: [member('ana', { admin, read: true, create: true, update: true, delete: true })] })),
    project: vi.fn(async () => project({ collections: collections as never })),
    apiTokens: vi.fn(async () => [{ id: 'a'.repeat(24), name: 'Writer', projectID: PROJECT, organizationID: ORG } as never]),
  });
  const view = renderPlatform({
    routes: [
      {
        id: 'viewProject',
        path: '/organization/:organizationID/project/:projectID',
        element: (
          <FunctionsApiProvider value={api}>
            <Outlet />
          </FunctionsApiProvider>
        ),
        children: [
          { id: 'viewFunctions', path: 'functions', element: <FunctionsScreen /> },
          { id: 'viewFunction', path: 'function/:functionName', element: <FunctionScreen /> },
        ],
      },
    ],
    path,
    api: platform,
  });
  return { ...view, platform };
}

const where = () => screen.getByTestId('where').textContent ?? '';
const toasts = () => vi.mocked(notify).mock.calls.map(([request]) => request);

beforeEach(() => vi.mocked(notify).mockClear());
afterEach(cleanup);

describe('Functions helpers', () => {
  it('offers the top-level collections and their nested lists', () => {
    expect(triggerListChoices(collections as never).map((choice) => [choice.value, choice.label, choice.depth])).toEqual([
      ['posts', 'Posts', 0],
      ['posts.comments', 'Posts › Comments', 1],
      ['authors', 'Authors', 0],
    ]);
  });

  it('starts a test from an item event of a listened-to collection, else from an HTTP request', () => {
    const event = sampleEvent({ events: ['update', 'create'], collections: ['posts'] }, collections as never, when) as Record<string, unknown>;
    expect(event).toMatchObject({ kind: 'item', trigger: 'create', collectionID: 'posts', collectionSlug: 'posts', rootItemID: null, nestedPath: '' });
    expect(event.item).toMatchObject({ title: 'Sample Title', stamp: 'Sample Stamp', _createdDate: when });
    expect(event.item).not.toHaveProperty('comments');
    expect(sampleEvent({ events: [], collections: [] }, collections as never)).toMatchObject({ method: 'POST', path: '/', caller: { kind: 'apiToken' } });
  });

  it('reads the compile errors of a refused save, and nothing else as one', () => {
    expect(compileErrors(compileFailed())).toEqual([{ line: 2, column: 9, message: 'Expected ";" but found "oops"' }]);
    expect(compileErrors(new ApiError({ status: 404, code: 'function_not_found', detail: 'x' }))).toEqual([]);
  });
});

describe('Functions list', () => {
  it('lists the functions with their versions and triggers, and the secrets by name', async () => {
    const { api } = fakeApi([
      fn({ latestVersion: 3, deployedVersion: 2, deployedVersionID: 'v2', events: ['create', 'update'], collections: ['posts'], public: true }),
      fn({ id: 'f2', name: 'nightly', language: 'js', schedule: '0 3 * * *', nextRunDate: '2026-11-29T03:00:00.000Z' }),
    ]);
    open(`${base}/functions`, api);
    const table = await screen.findByRole('table', { name: "This project's functions" });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows[0]).toHaveTextContent(/^stampTypeScriptVersion 2 deployedlatest: version 3HTTP .*\/functions\/v1\/f6e5d4c3b2a1f6e5d4c3b2a1\/stamp \(public\)Item events create, update in posts$/);
    expect(rows[1]).toHaveTextContent(/nightlyJavaScriptNo version saved yetHTTP .*\(with a token\)Schedule 0 3 \* \* \* Next run: /);
    expect(within(rows[0]!).getByRole('link', { name: 'stamp' })).toHaveAttribute('href', `${base}/function/stamp`);
    const secrets = await screen.findByRole('table', { name: 'Secrets' });
    expect(within(secrets).getAllByRole('row')[1]).toHaveTextContent('SLACK_TOKEN');
  });

  it('makes a function: a bad name is refused before sending, a good one opens its screen', async () => {
    const { api } = fakeApi();
    open(`${base}/functions`, api);
    expect(await screen.findByText('No functions yet.')).toBeInTheDocument();
    const form = screen.getByRole('form', { name: 'New function' });
    const name = within(form).getByLabelText('Name');
    await userEvent.type(name, 'Bad Name');
    await userEvent.click(within(form).getByRole('button', { name: 'Create function' }));
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveAccessibleDescription(expect.stringContaining('Use lower-case letters, digits and hyphens'));
    expect(api.create).not.toHaveBeenCalled();
    await userEvent.clear(name);
    await userEvent.type(name, 'stamp');
    await userEvent.selectOptions(within(form).getByLabelText('Language'), 'js');
    await userEvent.click(within(form).getByRole('button', { name: 'Create function' }));
    await waitFor(() => expect(where()).toBe(`${base}/function/stamp`));
    expect(api.create).toHaveBeenCalledWith(expect.anything(), { name: 'stamp', language: 'js' });
    expect(await screen.findByRole('heading', { level: 2, name: 'stamp' })).toBeInTheDocument();
  });

  it('sets, replaces and (after a confirmation) deletes a secret', async () => {
    const { api } = fakeApi();
    open(`${base}/functions`, api);
    const form = await screen.findByRole('form', { name: 'Add a secret' });
    await userEvent.type(within(form).getByLabelText('Name'), '1BAD');
    await userEvent.click(within(form).getByRole('button', { name: 'Save secret' }));
    expect(within(form).getByLabelText('Name')).toHaveAccessibleDescription(expect.stringContaining('Use letters, digits and _'));
    expect(within(form).getByLabelText('Value')).toHaveAccessibleDescription('Enter the value.');
    await userEvent.clear(within(form).getByLabelText('Name'));
    await userEvent.type(within(form).getByLabelText('Name'), 'MEILI_KEY');
    await userEvent.type(within(form).getByLabelText('Value'), 'k-123');
    await userEvent.click(within(form).getByRole('button', { name: 'Save secret' }));
    await waitFor(() => expect(api.putSecret).toHaveBeenCalledWith(expect.anything(), 'MEILI_KEY', 'k-123'));
    const table = screen.getByRole('table', { name: 'Secrets' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));
    // No value is ever on the page.
    expect(document.body.textContent).not.toContain('k-123');

    await userEvent.click(within(table).getByRole('button', { name: 'Replace the value of SLACK_TOKEN' }));
    const replace = await screen.findByRole('dialog', { name: 'New value of SLACK_TOKEN' });
    await userEvent.type(within(replace).getByLabelText('Value'), 'xoxb-2');
    await userEvent.click(within(replace).getByRole('button', { name: 'Replace value' }));
    await waitFor(() => expect(api.putSecret).toHaveBeenLastCalledWith(expect.anything(), 'SLACK_TOKEN', 'xoxb-2'));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());

    await userEvent.click(within(table).getByRole('button', { name: 'Delete SLACK_TOKEN' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete the secret?' });
    expect(api.deleteSecret).not.toHaveBeenCalled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.deleteSecret).toHaveBeenCalledWith(expect.anything(), 'SLACK_TOKEN'));
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Secrets' })).getAllByRole('row')).toHaveLength(2));
  });

  it('lets members who are not admins read the functions, and asks them no secrets', async () => {
    const { api } = fakeApi([fn()]);
    open(`${base}/functions`, api, false);
    expect(await screen.findByRole('link', { name: 'stamp' })).toBeInTheDocument();
    expect(await screen.findByRole('note')).toHaveTextContent("Only organization admins see and change the project's secrets.");
    expect(screen.queryByRole('form', { name: 'New function' })).toBeNull();
    expect(api.secrets).not.toHaveBeenCalled();
  });
});

describe('One function', () => {
  it('shows compile errors at their line and saves nothing; a fixed save is version 1, then deployed', async () => {
    const { api, state } = fakeApi([fn()]);
    open(`${base}/function/stamp`, api);
    const editor = await screen.findByRole('textbox', { name: 'Source (TypeScript)' });
    expect(editor).toHaveAccessibleDescription(expect.stringContaining('press Escape and then Tab'));
    expect((editor as HTMLTextAreaElement).value).toContain('export default async function');
    expect(screen.getByText('No versions yet: save the source to make version 1.')).toBeInTheDocument();

    await userEvent.clear(editor);
    await userEvent.type(editor, 'export default async function () {{\n  let oops oops;\n}');
    await userEvent.click(screen.getByRole('button', { name: 'Save as new version' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Line 2, column 9: Expected ";" but found "oops"');
    expect(JSON.parse(editor.getAttribute('data-errors')!)).toEqual([{ line: 2, column: 9, message: 'Expected ";" but found "oops"' }]);
    expect(editor).toHaveAccessibleDescription(expect.stringContaining('Line 2, column 9'));
    expect(state.versions).toEqual([]);
    expect(api.deploy).not.toHaveBeenCalled();

    await userEvent.clear(editor);
    await userEvent.type(editor, 'export default async () => 1;');
    await userEvent.click(screen.getByRole('button', { name: 'Save as new version' }));
    await waitFor(() => expect(toasts()).toContainEqual({ kind: 'success', title: 'Saved as version 1.' }));
    expect(screen.queryByRole('alert')).toBeNull();
    expect(JSON.parse(editor.getAttribute('data-errors')!)).toEqual([]);
    const versions = await screen.findByRole('table', { name: 'Versions' });
    await waitFor(() => expect(within(versions).getAllByRole('row')).toHaveLength(2));

    // The code's own Deploy (the versions list has one per version too).
    await userEvent.click((await screen.findAllByRole('button', { name: 'Deploy version 1' }))[0]!);
    await waitFor(() => expect(api.deploy).toHaveBeenCalledWith(expect.anything(), 'stamp', 'v1'));
    expect(await screen.findByRole('button', { name: 'Version 1 is deployed' })).toBeDisabled();
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Versions' })).getAllByRole('row')[1]).toHaveTextContent('Deployed'));
  });

  it('rolls back to an older version after a confirmation, and shows a version’s source', async () => {
    const versions = [
      { id: 'v2', number: 2, deployed: true, source: 'export default async () => 2;', createdDate: when },
      { id: 'v1', number: 1, deployed: false, source: 'export default async () => 1;', createdDate: when },
    ];
    const { api } = fakeApi([fn({ latestVersion: 2, deployedVersion: 2, deployedVersionID: 'v2' })], { versions });
    open(`${base}/function/stamp`, api);
    const table = await screen.findByRole('table', { name: 'Versions' });
    await userEvent.click(within(table).getByRole('button', { name: 'View the source of version 1' }));
    const source = await screen.findByRole('dialog', { name: 'Source of version 1' });
    expect(source).toHaveTextContent('export default async () => 1;');
    await userEvent.click(within(source).getByRole('button', { name: 'Close' }));

    expect(within(table).queryByRole('button', { name: 'Deploy version 2' })).toBeNull();
    await userEvent.click(within(table).getByRole('button', { name: 'Deploy version 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Roll back to version 1?' });
    expect(dialog).toHaveTextContent('Version 1 will run from now on in place of version 2.');
    expect(api.deploy).not.toHaveBeenCalled();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Roll back' }));
    await waitFor(() => expect(api.deploy).toHaveBeenCalledWith(expect.anything(), 'stamp', 'v1'));
    await waitFor(() => expect(screen.getByText('Version 1 deployed')).toBeInTheDocument());
  });

  it('test-runs a sample item event and shows the result, the log lines and an error with its stack', async () => {
    const { api } = fakeApi([fn({ latestVersion: 1, events: ['create'], collections: ['posts'] })], { versions: [{ id: 'v1', number: 1, deployed: false, source: 'x', createdDate: when }] });
    open(`${base}/function/stamp`, api);
    const event = await screen.findByLabelText('Event (JSON)');
    await waitFor(() => expect(JSON.parse((event as HTMLTextAreaElement).value)).toMatchObject({ kind: 'item', trigger: 'create', collectionSlug: 'posts', item: { title: 'Sample Title' } }));
    await userEvent.click(screen.getByRole('button', { name: 'Run test' }));
    await waitFor(() => expect(api.test).toHaveBeenCalledWith(expect.anything(), 'stamp', expect.objectContaining({ kind: 'item', collectionID: 'posts' })));
    const outcome = await screen.findByRole('heading', { name: 'Outcome' });
    const panel = outcome.parentElement!;
    expect(panel).toHaveTextContent('Succeeded');
    expect(panel).toHaveTextContent('"stamped": true');
    expect(panel).toHaveTextContent('[log] event {"kind":"item"}');

    await userEvent.clear(event);
    await userEvent.type(event, '{{ "fail": true');
    await userEvent.click(screen.getByRole('button', { name: 'Run test' }));
    expect(event).toHaveAccessibleDescription(expect.stringContaining('The event is not valid JSON'));
    await userEvent.type(event, '}');
    await userEvent.click(screen.getByRole('button', { name: 'Run test' }));
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Outcome' }).parentElement).toHaveTextContent('TypeError: nope is not a function at default (function:3:5)'));
    expect(screen.getByRole('heading', { name: 'Outcome' }).parentElement).toHaveTextContent('Failed');
  });

  it('saves the triggers, with a refusal at its field', async () => {
    const { api } = fakeApi([fn()]);
    open(`${base}/function/stamp`, api);
    const form = await screen.findByRole('form', { name: 'Triggers' });
    expect(within(form).getByText(/\/functions\/v1\/f6e5d4c3b2a1f6e5d4c3b2a1\/stamp$/)).toBeInTheDocument();
    const lists = within(form).getByRole('group', { name: 'In these collections' });
    await within(lists).findByRole('checkbox', { name: 'Posts' });
    expect(within(lists).getAllByRole('checkbox').map((box) => box.parentElement?.textContent)).toEqual(['Posts', 'Posts › Comments', 'Authors']);
    await userEvent.click(within(lists).getByRole('checkbox', { name: 'Posts' }));
    await userEvent.click(within(form).getByRole('checkbox', { name: 'Item created' }));
    await userEvent.click(within(form).getByRole('switch', { name: 'Public: callable without a token' }));
    await userEvent.selectOptions(await within(form).findByLabelText('API token for ctx.data'), 'Writer');
    const schedule = within(form).getByLabelText('Schedule (cron)');
    await userEvent.type(schedule, '* * * * *');
    await userEvent.click(within(form).getByRole('button', { name: 'Save triggers' }));
    await waitFor(() => expect(schedule).toHaveAttribute('aria-invalid', 'true'));
    expect(schedule).toHaveAccessibleDescription(expect.stringContaining('runs more often than every 5 minutes'));
    expect(within(form).getByRole('alert')).toHaveTextContent('Correct the fields marked above.');

    await userEvent.clear(schedule);
    await userEvent.type(schedule, '0 * * * *');
    await userEvent.click(within(form).getByRole('button', { name: 'Save triggers' }));
    await waitFor(() => expect(toasts()).toContainEqual({ kind: 'success', title: 'Triggers saved.' }));
    expect(api.update).toHaveBeenLastCalledWith(expect.anything(), 'stamp', { public: true, apiTokenID: 'a'.repeat(24), events: ['create'], collections: ['posts'], schedule: '0 * * * *' });
    await waitFor(() => expect(screen.getByLabelText('Schedule (cron)')).toHaveAccessibleDescription(expect.stringContaining('Next run:')));
  });

  it('shows the invocation log: details on demand, search, older pages', async () => {
    const invocations = Array.from({ length: 55 }, (_, i) =>
      invocation(i + 1, i === 0 ? { trigger: 'event', attempt: 2, runID: 'run1', status: 'error', error: { name: 'Error', message: '403 not_permitted', stack: 'at default (function:2:3)' }, logs: [{ level: 'warn', text: 'stamping' }], resultPreview: null } : {}),
    );
    const { api } = fakeApi([fn({ latestVersion: 1, deployedVersion: 1, deployedVersionID: 'v1' })], { versions: [{ id: 'v1', number: 1, deployed: true, source: 'x', createdDate: when }], invocations });
    open(`${base}/function/stamp`, api);
    const log = await screen.findByRole('table', { name: 'Invocation log' });
    expect(within(log).getAllByRole('row')).toHaveLength(51);
    const first = within(log).getAllByRole('row')[1]!;
    await waitFor(() => expect(first).toHaveTextContent(/Event\s*Failed\s*Version:\s*Version 1\s*Duration:\s*12 ms\s*Memory:\s*2.0 MB\s*Attempt:\s*2/));
    const details = within(first).getByRole('button', { name: /^Details of the run at / });
    expect(details).toHaveAttribute('aria-expanded', 'false');
    await userEvent.click(details);
    expect(details).toHaveAttribute('aria-expanded', 'true');
    expect(within(log).getByText(/Error: 403 not_permitted\s*at default \(function:2:3\)/)).toBeInTheDocument();
    expect(within(log).getByText('[warn] stamping')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: /Older/ }));
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Invocation log' })).getAllByRole('row')).toHaveLength(6));
    expect(api.invocations).toHaveBeenLastCalledWith(expect.anything(), 'stamp', 2, '');
    expect(screen.getByRole('button', { name: /Older/ })).toBeDisabled();

    await userEvent.type(screen.getByRole('searchbox', { name: 'Search the log' }), 'not_permitted{Enter}');
    await waitFor(() => expect(api.invocations).toHaveBeenLastCalledWith(expect.anything(), 'stamp', 1, 'not_permitted'));
    // The one match, its details still open.
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Invocation log' })).getAllByRole('row')).toHaveLength(3));
  });

  it('deletes the function after a confirmation', async () => {
    const { api, state } = fakeApi([fn()]);
    open(`${base}/function/stamp`, api);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete function' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete the function?' });
    expect(dialog).toHaveTextContent('Delete stamp with every version and its invocation log?');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete function' }));
    await waitFor(() => expect(where()).toBe(`${base}/functions`));
    expect(state.functions).toEqual([]);
  });

  it('is read-only for members who are not admins', async () => {
    const { api } = fakeApi([fn({ latestVersion: 1 })], { versions: [{ id: 'v1', number: 1, deployed: false, source: 'export default async () => 1;', createdDate: when }] });
    open(`${base}/function/stamp`, api, false);
    const editor = await screen.findByRole('textbox', { name: 'Source (TypeScript)' });
    await waitFor(() => expect(editor).toHaveAttribute('readonly'));
    expect(await screen.findByRole('note')).toHaveTextContent('only organization admins change, test or deploy it');
    expect(screen.queryByRole('button', { name: 'Save as new version' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Run test' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete function' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Save triggers' })).toBeNull();
    expect(within(screen.getByRole('table', { name: 'Versions' })).queryByRole('button', { name: 'Deploy version 1' })).toBeNull();
    expect(screen.getByRole('checkbox', { name: 'Item created' })).toBeDisabled();
  });
});
