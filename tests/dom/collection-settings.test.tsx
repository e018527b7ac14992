/** New Collection and Edit Collection. */
import '@testing-library/jest-dom/vitest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Outlet, type RouteObject } from 'react-router';
import CollectionSettingsScreen from '../../src/screens/collection/CollectionSettingsScreen.tsx';
import type { Collection, CollectionChanges, CollectionDraft, ContentApi } from '../../src/api/content.ts';
import { ContentApiProvider } from '../../src/api/content-queries.ts';
import { ApiError } from '../../src/api/errors.ts';
import { notify } from '../../renderers/toasts/notify.ts';
import { fakePlatformApi, me, member, ORG, organization, PROJECT, renderPlatform } from './support/platform.tsx';
import { strictContentApi } from './support/fake-content-api.ts';

vi.mock('../../renderers/toasts/notify.ts', () => ({ notify: vi.fn(async () => undefined) }));
// The schema builder is another screen's work: here it only has to receive the collection.
vi.mock('../../src/screens/collection/schema/SchemaBuilder.tsx', () => ({
  SchemaBuilder: ({ collection }: { collection: Collection }) => <p>schema builder of {collection.id}</p>,
}));

const base = `/organization/${ORG}/project/${PROJECT}`;

const posts: Collection = { id: 'posts', name: 'Posts', schema: [], singleItem: false, rtlDirection: false, itemCount: 0, createdDate: '2026-01-01T00:00:00.000Z' };

/** Every content call as a mock; a test overrides the ones it answers. */
function fakeContentApi(overrides: Partial<ContentApi> = {}) {
  const api = strictContentApi({
    collection: vi.fn(async (_scope: unknown, id: string) => ({ ...posts, id })),
    createCollection: vi.fn(async (_scope: unknown, draft: CollectionDraft) => ({ ...posts, id: draft.id!, name: draft.name })),
    updateCollection: vi.fn(async (_scope: unknown, id: string, changes: CollectionChanges) => ({ ...posts, id, ...changes })),
    deleteCollection: vi.fn(async () => undefined),
  });
  return Object.assign(api, overrides) as unknown as ContentApi;
}

function open(path: string, content: ContentApi, platform: Parameters<typeof fakePlatformApi>[0] = {}, user = me) {
  const screenElement = (
    <ContentApiProvider value={content}>
      <CollectionSettingsScreen />
    </ContentApiProvider>
  );
  const routes: RouteObject[] = [
    {
      id: 'viewProject',
      path: '/organization/:organizationID/project/:projectID',
      element: <Outlet />,
      children: [
        { id: 'noCollectionSelected', index: true, element: <p>project page</p> },
        {
          id: 'collection',
          path: 'collection',
          element: <Outlet />,
          children: [
            { id: 'createCollection', path: 'new', element: screenElement },
            { id: 'viewCollection', path: ':collectionID', element: <p>collection page</p> },
            { id: 'editCollection', path: ':collectionID/edit', element: screenElement },
          ],
        },
      ],
    },
  ];
  return renderPlatform({ routes, path: `${base}${path}`, api: fakePlatformApi(platform), user });
}

const idInput = () => screen.getByLabelText('Collection ID (only alphanumeric values)');

beforeEach(() => vi.mocked(notify).mockClear());
afterEach(cleanup);

describe('New Collection', () => {
  it('derives the collection ID from the name, camelCased, and enables Create Collection with both', async () => {
    open('/collection/new', fakeContentApi());
    expect(await screen.findByRole('heading', { name: 'New Collection' })).toBeInTheDocument();
    const create = await screen.findByRole('button', { name: 'Create Collection' });
    expect(create).toBeDisabled();
    await userEvent.type(screen.getByLabelText('Collection Name'), 'My blog posts!');
    expect(idInput()).toHaveValue('myBlogPosts');
    expect(create).toBeEnabled();
    await userEvent.clear(screen.getByLabelText('Collection Name'));
    expect(idInput()).toHaveValue('');
    expect(create).toBeDisabled();
  });

  it('stops deriving once the ID is edited by hand', async () => {
    open('/collection/new', fakeContentApi());
    const name = await screen.findByLabelText('Collection Name');
    await userEvent.type(name, 'Recipes');
    expect(idInput()).toHaveValue('recipes');
    await userEvent.clear(idInput());
    await userEvent.type(idInput(), 'dishes');
    await userEvent.type(name, ' of the house');
    expect(name).toHaveValue('Recipes of the house');
    expect(idInput()).toHaveValue('dishes');
  });

  it.each([
    ['new', '"new" is reserved. Choose another collection ID.'],
    ['my posts', 'Use only letters, digits and hyphens.'],
    ['post_s', 'Use only letters, digits and hyphens.'],
    ['Posts', 'Start with a lowercase letter or a digit, for example posts.'],
  ])('checks the ID as it is typed: %s', async (typed, message) => {
    open('/collection/new', fakeContentApi());
    await userEvent.type(await screen.findByLabelText('Collection Name'), 'Posts');
    expect(screen.queryByText(message)).not.toBeInTheDocument();
    await userEvent.clear(idInput());
    await userEvent.type(idInput(), typed);
    expect(screen.getByText(message)).toBeInTheDocument();
    expect(idInput()).toHaveAttribute('aria-invalid', 'true');
    expect(idInput()).toHaveAccessibleDescription(expect.stringContaining(message));
    expect(screen.getByRole('button', { name: 'Create Collection' })).toBeDisabled();
  });

  it('asks for an ID when the name gives none and for a name when it is emptied', async () => {
    open('/collection/new', fakeContentApi());
    const name = await screen.findByLabelText('Collection Name');
    await userEvent.type(name, '!!!');
    expect(idInput()).toHaveValue('');
    expect(screen.getByText('Enter a collection ID.')).toBeInTheDocument();
    await userEvent.clear(name);
    await userEvent.tab();
    expect(screen.getByText('Enter a collection name.')).toBeInTheDocument();
  });

  it('creates with the type and direction chosen (Multi and LTR by default), then opens the new collection’s settings', async () => {
    const content = fakeContentApi();
    const { router } = open('/collection/new', content);
    await userEvent.type(await screen.findByLabelText('Collection Name'), ' Home page ');
    const multi = screen.getByRole('radio', { name: 'Multi' });
    const single = screen.getByRole('radio', { name: 'Single' });
    expect(multi).toHaveAttribute('aria-checked', 'true');
    expect(single).toHaveAttribute('aria-checked', 'false');
    expect(screen.getByRole('switch', { name: 'Right to left (RTL)' })).not.toBeChecked();
    await userEvent.click(single);
    await userEvent.click(screen.getByRole('switch', { name: 'Right to left (RTL)' }));
    await userEvent.click(screen.getByRole('button', { name: 'Create Collection' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(`${base}/collection/homePage/edit`));
    expect(content.createCollection).toHaveBeenCalledWith(
      { organizationID: ORG, projectID: PROJECT },
      { id: 'homePage', name: 'Home page', singleItem: true, rtlDirection: true },
    );
    expect(notify).toHaveBeenCalledWith({ kind: 'success', title: 'Collection created' });
    expect(await screen.findByRole('heading', { name: 'Edit Collection' })).toBeInTheDocument();
  });

  it('shows "CollectionID already exists" beside the ID on a 409 and says the collection was not created', async () => {
    const createCollection = vi.fn(async () => {
      throw new ApiError({ status: 409, code: 'collection_exists', detail: 'CollectionID already exists' });
    });
    const { router } = open('/collection/new', fakeContentApi({ createCollection }));
    await userEvent.type(await screen.findByLabelText('Collection Name'), 'Posts');
    await userEvent.click(screen.getByRole('button', { name: 'Create Collection' }));
    expect(await screen.findByText('CollectionID already exists')).toBeInTheDocument();
    expect(idInput()).toHaveAccessibleDescription(expect.stringContaining('CollectionID already exists'));
    expect(notify).toHaveBeenCalledWith({ kind: 'error', title: 'Could not create new collection' });
    expect(router.state.location.pathname).toBe(`${base}/collection/new`);
    // Another ID clears it.
    await userEvent.type(idInput(), '2');
    expect(screen.queryByText('CollectionID already exists')).not.toBeInTheDocument();
  });

  it('tells a member without the create permission instead of showing the form', async () => {
    const reader = { ...me, email: 'bob@example.com' };
    open('/collection/new', fakeContentApi(), { organization: vi.fn(async () => organization({ users: [member('bob', { read: true })] })) }, reader);
    expect(await screen.findByText('Your permissions do not allow creating collections.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create Collection' })).not.toBeInTheDocument();
  });
});

describe('Edit Collection', () => {
  it('shows the name, the ID read-only, the type, the direction and the schema builder', async () => {
    open('/collection/posts/edit', fakeContentApi());
    expect(await screen.findByRole('heading', { name: 'Edit Collection' })).toBeInTheDocument();
    expect(screen.getByText('Posts')).toBeInTheDocument();
    expect(idInput()).toHaveValue('posts');
    expect(idInput()).toHaveAttribute('readonly');
    expect(screen.getByRole('radio', { name: 'Multi' })).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByText('schema builder of posts')).toBeInTheDocument();
  });

  it('renames with the pencil and the tick; Escape cancels', async () => {
    const content = fakeContentApi();
    open('/collection/posts/edit', content);
    await userEvent.click(await screen.findByRole('button', { name: 'Edit collection name' }));
    const input = screen.getByLabelText('Collection Name');
    expect(input).toHaveFocus();
    await userEvent.clear(input);
    await userEvent.type(input, 'Drafts{Escape}');
    expect(screen.queryByLabelText('Collection Name')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit collection name' })).toHaveFocus();
    expect(content.updateCollection).not.toHaveBeenCalled();

    await userEvent.click(screen.getByRole('button', { name: 'Edit collection name' }));
    await userEvent.clear(screen.getByLabelText('Collection Name'));
    expect(screen.getByRole('button', { name: 'Save collection name' })).toBeDisabled();
    await userEvent.type(screen.getByLabelText('Collection Name'), 'Articles');
    await userEvent.click(screen.getByRole('button', { name: 'Save collection name' }));
    await waitFor(() => expect(content.updateCollection).toHaveBeenCalledWith({ organizationID: ORG, projectID: PROJECT }, 'posts', { name: 'Articles' }));
    expect(await screen.findByText('Articles')).toBeInTheDocument();
    expect(notify).toHaveBeenCalledWith({ kind: 'success', title: 'Collection updated' });
  });

  it('stays in edit mode and says so when the rename fails', async () => {
    const updateCollection = vi.fn(async () => {
      throw new ApiError({ status: 500, code: 'internal', detail: 'boom' });
    });
    open('/collection/posts/edit', fakeContentApi({ updateCollection }));
    await userEvent.click(await screen.findByRole('button', { name: 'Edit collection name' }));
    await userEvent.type(screen.getByLabelText('Collection Name'), ' 2{Enter}');
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ kind: 'error', title: 'Could not update collection' }));
    expect(screen.getByLabelText('Collection Name')).toHaveValue('Posts 2');
  });

  it('disables Single with the warning while the collection holds more than one item', async () => {
    const content = fakeContentApi({ collection: vi.fn(async () => ({ ...posts, itemCount: 2 })) });
    open('/collection/posts/edit', content);
    const single = await screen.findByRole('radio', { name: 'Single' });
    expect(single).toBeDisabled();
    const warning = 'This collection must have no more than one item to become a single item collection.';
    expect(screen.getByText(warning)).toBeInTheDocument();
    expect(screen.getByRole('radiogroup', { name: 'Collection type' })).toHaveAccessibleDescription(expect.stringContaining(warning));
    await userEvent.click(single);
    expect(content.updateCollection).not.toHaveBeenCalled();
  });

  it('turns a collection of one item into a single item collection, and back', async () => {
    const content = fakeContentApi({ collection: vi.fn(async () => ({ ...posts, itemCount: 1 })) });
    open('/collection/posts/edit', content);
    const single = await screen.findByRole('radio', { name: 'Single' });
    expect(single).toBeEnabled();
    expect(screen.queryByText(/no more than one item/)).not.toBeInTheDocument();
    await userEvent.click(single);
    await waitFor(() => expect(content.updateCollection).toHaveBeenCalledWith(expect.anything(), 'posts', { singleItem: true }));
    await waitFor(() => expect(screen.getByRole('radio', { name: 'Single' })).toHaveAttribute('aria-checked', 'true'));
    await userEvent.click(screen.getByRole('radio', { name: 'Multi' }));
    await waitFor(() => expect(content.updateCollection).toHaveBeenLastCalledWith(expect.anything(), 'posts', { singleItem: false }));
  });

  it('shows the server’s refusal of the single item conversion', async () => {
    const updateCollection = vi.fn(async () => {
      throw new ApiError({ status: 409, code: 'single_item_too_many', detail: 'This collection must have no more than one item to become a single item collection.' });
    });
    open('/collection/posts/edit', fakeContentApi({ updateCollection }));
    await userEvent.click(await screen.findByRole('radio', { name: 'Single' }));
    expect(await screen.findByText('This collection must have no more than one item to become a single item collection.')).toBeInTheDocument();
    expect(notify).toHaveBeenCalledWith({ kind: 'error', title: 'Could not update collection' });
    expect(screen.getByRole('radio', { name: 'Multi' })).toHaveAttribute('aria-checked', 'true');
  });

  it('saves the direction with the RTL/LTR switch', async () => {
    const content = fakeContentApi();
    open('/collection/posts/edit', content);
    await userEvent.click(await screen.findByRole('switch', { name: 'Right to left (RTL)' }));
    await waitFor(() => expect(content.updateCollection).toHaveBeenCalledWith(expect.anything(), 'posts', { rtlDirection: true }));
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Right to left (RTL)' })).toBeChecked());
  });

  it('Done opens the collection', async () => {
    const { router } = open('/collection/posts/edit', fakeContentApi());
    await userEvent.click(await screen.findByRole('button', { name: 'Done' }));
    expect(router.state.location.pathname).toBe(`${base}/collection/posts`);
  });

  it('deletes only when the exact collection ID is typed, then opens the project', async () => {
    const content = fakeContentApi();
    const { router } = open('/collection/posts/edit', content);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Collection' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Collection' });
    expect(dialog).toHaveTextContent('Deleting a collection will remove all data in collection.');
    const input = within(dialog).getByLabelText('Collection ID');
    await userEvent.type(input, 'Posts');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete Collection' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Collection ID does not match');
    expect(content.deleteCollection).not.toHaveBeenCalled();
    await userEvent.clear(input);
    await userEvent.type(input, 'posts');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete Collection' }));
    await waitFor(() => expect(router.state.location.pathname).toBe(base));
    expect(content.deleteCollection).toHaveBeenCalledWith({ organizationID: ORG, projectID: PROJECT }, 'posts');
    expect(notify).toHaveBeenCalledWith({ kind: 'success', title: 'Collection deleted' });
  });

  it('says why a delete failed', async () => {
    const deleteCollection = vi.fn(async () => {
      throw new ApiError({ status: 409, code: 'collection_referenced', detail: 'Field "Author" of collection "books" refers to this collection; change or delete it first.' });
    });
    open('/collection/posts/edit', fakeContentApi({ deleteCollection }));
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Collection' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Collection' });
    await userEvent.type(within(dialog).getByLabelText('Collection ID'), 'posts{Enter}');
    await waitFor(() =>
      expect(notify).toHaveBeenCalledWith({
        kind: 'error',
        title: 'Could not delete collection - Field "Author" of collection "books" refers to this collection; change or delete it first.',
      }),
    );
    expect(screen.getByRole('dialog', { name: 'Delete Collection' })).toBeInTheDocument();
  });

  it('says "Could not find collection" for an unknown one', async () => {
    const collection = vi.fn(async () => {
      throw new ApiError({ status: 404, code: 'collection_not_found', detail: 'There is no collection "gone" in this project.' });
    });
    open('/collection/gone/edit', fakeContentApi({ collection }));
    expect(await screen.findByRole('heading', { name: 'Could not find collection' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the project' })).toHaveAttribute('href', base);
  });

  it('shows a reader the settings without ways to change them', async () => {
    const reader = { ...me, email: 'bob@example.com' };
    open('/collection/posts/edit', fakeContentApi(), { organization: vi.fn(async () => organization({ users: [member('bob', { read: true })] })) }, reader);
    expect(await screen.findByText('Your permissions do not allow changing this collection.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit collection name' })).not.toBeInTheDocument();
    expect(screen.getByRole('radio', { name: 'Single' })).toBeDisabled();
    expect(screen.getByRole('switch', { name: 'Right to left (RTL)' })).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Delete Collection' })).not.toBeInTheDocument();
  });
});
