/**
 * Studio's workbench (docs/studio.md "The workbench"): a list built with the item list's filter,
 * a sort and paging runs with the Studio token minted from the chosen rights, the code follows the
 * request, Copy says "Copied!" for 750 ms, writes wait for the confirmation, the history reopens a
 * request, and leaving revokes the tokens minted. The console's client and `fetch` are replaced.
 */
import '@testing-library/jest-dom/vitest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import StudioScreen from '../../src/screens/studio/StudioScreen.tsx';
import { ContentApiProvider } from '../../src/api/content-queries.ts';
import { fakePlatformApi, ORG, PROJECT, renderPlatform } from './support/platform.tsx';
import { strictContentApi } from './support/fake-content-api.ts';
import type { SchemaField } from '../../definitions/field-types/index.ts';

const { json, httpDelete } = vi.hoisted(() => ({ json: vi.fn(), httpDelete: vi.fn() }));
vi.mock('../../src/api/client.ts', async (importOriginal) => ({
  ...(await importOriginal<typeof import('../../src/api/client.ts')>()),
  getApiClient: () => ({ json, http: { delete: httpDelete } }),
}));

const schema: SchemaField[] = [
  { id: 'f1', name: 'Title', slug: 'title', type: 1, primaryField: true },
  { id: 'f2', name: 'Price', slug: 'price', type: 3 },
  { id: 'f5', name: 'Photo', slug: 'photo', type: 5 },
  { id: 'f3', name: 'Chapters', slug: 'chapters', type: 12, nestedCollectionSchema: [{ id: 'f4', name: 'Heading', slug: 'heading', type: 1 }] },
];
const collection = { id: 'things', name: 'Things', schema, singleItem: false, rtlDirection: false, itemCount: 2, createdDate: '2026-01-01T00:00:00.000Z' };
const apiToken = {
  id: 'aaaaaaaaaaaaaaaaaaaaaaaa',
  name: 'Writer',
  projectID: PROJECT,
  organizationID: ORG,
  userAdmin: false,
  userGroupID: null,
  powerCreate: true,
  powerRead: true,
  powerUpdate: true,
  powerDelete: true,
  powerWrite: true,
  roles: [],
  createdDate: '2026-01-01T00:00:00.000Z',
  updatedDate: '2026-01-01T00:00:00.000Z',
};

let minted = 0;
const fetchCalls: { url: string; init: RequestInit }[] = [];

beforeEach(() => {
  minted = 0;
  fetchCalls.length = 0;
  localStorage.clear();
  json.mockReset();
  httpDelete.mockReset();
  json.mockImplementation(async (path: string, options: { method?: string; json?: unknown } = {}) => {
    if (path.endsWith('/studio/tokens') && options.method === 'post') {
      minted += 1;
      return { ...apiToken, id: `studio${minted}`.padEnd(24, '0'), name: 'Studio', jwtToken: `jwt-${minted}`, expiresDate: new Date(Date.now() + 30 * 60_000).toISOString() };
    }
    if (/\/studio\/tokens\/[^/]+$/.test(path) && options.method === 'delete') return undefined;
    throw new Error(`unexpected ${options.method ?? 'get'} ${path}`);
  });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit) => {
      fetchCalls.push({ url, init });
      const body = init.method === 'GET' ? [{ _id: 'i1', title: 'Pear', price: 12 }] : { id: 'new1' };
      return new Response(JSON.stringify(body), { status: init.method === 'POST' ? 201 : 200, headers: { 'content-type': 'application/json', 'item-count': '1' } });
    }),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderStudio() {
  const content = strictContentApi({ collections: vi.fn(async () => [collection]), collection: vi.fn(async () => collection) });
  const api = fakePlatformApi({ apiTokens: vi.fn(async () => [apiToken]) });
  return renderPlatform({
    api,
    path: `/organization/${ORG}/project/${PROJECT}/bagelstudio`,
    routes: [
      {
        id: 'viewBagelStudio',
        path: '/organization/:organizationID/project/:projectID/bagelstudio',
        element: (
          <ContentApiProvider value={content}>
            <StudioScreen />
          </ContentApiProvider>
        ),
      },
      { id: 'elsewhere', path: '/elsewhere', element: <p>Elsewhere</p> },
    ],
  });
}

const mintCalls = () => json.mock.calls.filter(([path, options]) => String(path).endsWith('/studio/tokens') && options?.method === 'post');
const revokeCalls = () => json.mock.calls.filter(([, options]) => options?.method === 'delete').map(([path]) => String(path).split('/').pop());

describe('the workbench', () => {
  it('runs a filtered, sorted page with the Studio token, shows the answer and the matching code', async () => {
    const user = userEvent.setup();
    renderStudio();
    await screen.findByRole('option', { name: 'Things' });
    // The read-only preview is minted at once.
    await waitFor(() => expect(mintCalls()).toHaveLength(1));
    expect(mintCalls()[0]![1]).toMatchObject({ json: { preview: true } });

    await user.selectOptions(screen.getByLabelText('Field'), 'price');
    await user.selectOptions(screen.getByLabelText('Operator'), '>');
    await user.type(screen.getByLabelText('Value'), '10');
    await user.selectOptions(screen.getByLabelText('Sort by'), 'price');
    await user.selectOptions(screen.getByLabelText('Order'), 'desc');
    await user.selectOptions(screen.getByLabelText('Per Page'), '50');

    const code = await screen.findByTestId('studio-code');
    expect(code).toHaveTextContent('.query("price", ">", "10")');
    expect(code).toHaveTextContent('.sort("price", "desc")');
    expect(code).toHaveTextContent('.perPage(50)');

    await user.click(screen.getByRole('button', { name: 'Run' }));
    await screen.findByTestId('studio-status');
    expect(fetchCalls).toHaveLength(1);
    expect(fetchCalls[0]!.url).toBe('/api/public/collection/things/items?pageNumber=1&sort=price&order=desc&perPage=50&query=price%3A%3E%3A10');
    expect((fetchCalls[0]!.init.headers as Record<string, string>).Authorization).toBe('Bearer jwt-1');
    expect(screen.getByTestId('studio-status')).toHaveTextContent('200');
    expect(screen.getByTestId('studio-item-count')).toHaveTextContent('item-count: 1');
    expect(screen.getByTestId('studio-body')).toHaveTextContent('1 item');

    // Copy: "Copied!" for 750 ms, then "Copy" again.
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe(code.textContent);
    expect(screen.getByRole('button', { name: 'Copied!' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Copy' })).toBeInTheDocument(), { timeout: 2_000 });

    // The request is in the history, and reopens with its filter.
    expect(JSON.parse(localStorage.getItem(`larder.studio.history.${PROJECT}`) ?? '[]')).toHaveLength(1);
    await user.selectOptions(screen.getByLabelText('Sort by'), '');
    await user.click(screen.getByRole('button', { name: /things\/items\?pageNumber=1&sort=price/ }));
    expect(screen.getByLabelText('Sort by')).toHaveValue('price');
    expect(screen.getByLabelText('Field')).toHaveValue('price');
    expect(screen.getByLabelText('Value')).toHaveValue('10');
    // The first render loads the screen's modules: seconds on a loaded two-core runner.
  }, 40_000);

  it('asks before a write, mints from the chosen token, and revokes its tokens when left', async () => {
    const user = userEvent.setup();
    const { router } = renderStudio();
    await screen.findByRole('option', { name: 'As the token Writer' });
    await user.selectOptions(screen.getByLabelText('Rights'), 'As the token Writer');
    await waitFor(() => expect(mintCalls()).toHaveLength(2));
    expect(mintCalls()[1]![1]).toMatchObject({ json: { from: apiToken.id } });
    // The preview token is no longer needed.
    await waitFor(() => expect(revokeCalls()).toEqual(['studio1'.padEnd(24, '0')]));

    await user.click(screen.getByRole('radio', { name: 'Create' }));
    const body = screen.getByLabelText('Body (JSON)');
    await user.clear(body);
    await user.type(body, '{{"title": "Plum"}');
    await user.click(screen.getByRole('button', { name: 'Run' }));
    const dialog = await screen.findByRole('dialog', { name: 'Run Create?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(fetchCalls).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: 'Run' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Run it' }));
    await waitFor(() => expect(fetchCalls).toHaveLength(1));
    expect(fetchCalls[0]!.init.method).toBe('POST');
    expect(JSON.parse(fetchCalls[0]!.init.body as string)).toEqual({ title: 'Plum' });
    expect((fetchCalls[0]!.init.headers as Record<string, string>).Authorization).toBe('Bearer jwt-2');
    expect(await screen.findByTestId('studio-status')).toHaveTextContent('201');

    await act(() => router.navigate('/elsewhere'));
    await waitFor(() => expect(revokeCalls()).toContain('studio2'.padEnd(24, '0')));
  });

  it('names what is missing instead of running', async () => {
    const user = userEvent.setup();
    renderStudio();
    await screen.findByRole('option', { name: 'Things' });
    await user.click(screen.getByRole('radio', { name: 'Update' }));
    await user.click(screen.getByRole('button', { name: 'Run' }));
    expect(await screen.findByRole('alert')).toHaveTextContent("Enter the item's ID.");
    await user.selectOptions(screen.getByLabelText('Level'), 'chapters');
    expect(screen.getByLabelText('Parent item ID (Things)')).toBeInTheDocument();
    expect(fetchCalls).toHaveLength(0);
  });

  it('uploads an image to an item as multipart, after the confirmation', async () => {
    const user = userEvent.setup();
    renderStudio();
    await screen.findByRole('option', { name: 'Things' });
    await user.click(screen.getByRole('radio', { name: 'Upload image' }));
    await user.type(screen.getByLabelText('Item ID (Things)'), 'i1');
    await user.upload(screen.getByLabelText('Image file'), new File(['png-bytes'], 'cat.png', { type: 'image/png' }));
    await user.type(screen.getByLabelText('Alt text'), 'A cat');
    expect(screen.getByTestId('studio-code')).toHaveTextContent('.uploadImage("photo", { selectedImage: file, fileName: "cat.png", altText: "A cat" })');
    await user.click(screen.getByRole('button', { name: 'Run' }));
    await user.click(within(await screen.findByRole('dialog', { name: 'Run Upload image?' })).getByRole('button', { name: 'Run it' }));
    await waitFor(() => expect(fetchCalls).toHaveLength(1));
    expect(fetchCalls[0]!.url).toBe('/api/public/collection/things/items/i1/image?imageSlug=photo&nestedID=');
    expect(fetchCalls[0]!.init.method).toBe('PUT');
    const form = fetchCalls[0]!.init.body as FormData;
    expect(form.get('altText')).toBe('A cat');
    expect((form.get('imageFile') as File).name).toBe('cat.png');
    // The browser sets the multipart type with its boundary.
    expect((fetchCalls[0]!.init.headers as Record<string, string>)['Content-Type']).toBeUndefined();
  }, 40_000);
});
