/**
 * The schema builder: the picker, a field's attributes and the rules
 * that keep the tick disabled, saving at the top and inside a nested collection, updating, the
 * two-click delete, and reordering with the keyboard (saved, or put back when refused).
 */
import '@testing-library/jest-dom/vitest';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { RouteObject } from 'react-router';
import { creatableFieldTypes, fieldTypes } from '../../definitions/field-types/index.ts';
import type { SchemaField } from '../../definitions/field-types/types.ts';
import { formatMessage, type MessageKey } from '../../definitions/messages/format.ts';
import { hasFieldTypeIcon } from '../../renderers/fields/FieldTypeIcon.tsx';
import { notify } from '../../renderers/toasts/notify.ts';
import type { Collection, ContentApi } from '../../src/api/content.ts';
import { ContentApiProvider } from '../../src/api/content-queries.ts';
import { ApiError } from '../../src/api/errors.ts';
import { SchemaBuilder } from '../../src/screens/collection/schema/SchemaBuilder.tsx';
import { fakePlatformApi, member, ORG, organization, PROJECT, renderPlatform } from './support/platform.tsx';
import { strictContentApi } from './support/fake-content-api.ts';

vi.mock('../../renderers/toasts/notify.ts', () => ({ notify: vi.fn(async () => undefined) }));

const code = (name: string) => fieldTypes.find((type) => type.name === name)!.code;
const label = (name: string) => formatMessage(fieldTypes.find((type) => type.name === name)!.labelKey as MessageKey);
const scope = { organizationID: ORG, projectID: PROJECT };
const id = (n: number) => n.toString(16).padStart(24, '0');
const metadata: SchemaField = { id: '_metadata', name: 'Metadata', slug: '_metadata', type: 100 };

const title: SchemaField = { id: id(1), name: 'Title', slug: 'title', type: code('PlainText'), required: true, primaryField: true, visible: true };
const body: SchemaField = { id: id(2), name: 'Body', slug: 'body', type: code('RichText'), visible: true };
const chapters: SchemaField = { id: id(3), name: 'Chapters', slug: 'chapters', type: code('NestedCollection'), nestedCollectionSchema: [metadata] };

function collection(schema: SchemaField[], overrides: Partial<Collection> = {}): Collection {
  return { id: 'posts', name: 'Posts', schema, singleItem: false, rtlDirection: false, itemCount: 0, createdDate: '2025-01-01T00:00:00.000Z', ...overrides };
}

type FakeContentApi = { [K in keyof ContentApi]: ReturnType<typeof vi.fn> };

/** Every content call as a mock; the schema calls answer from `levels` (keyed by nestedID). */
function fakeContentApi(posts: Collection, others: Collection[] = [], overrides: Partial<FakeContentApi> = {}): FakeContentApi {
  const levelOf = (nestedID?: string): SchemaField[] => {
    let fields = posts.schema;
    for (const slug of nestedID ? nestedID.split('.') : []) fields = fields.find((f) => f.slug === slug)?.nestedCollectionSchema ?? [];
    return fields;
  };
  const api: Record<string, ReturnType<typeof vi.fn>> = strictContentApi();
  api.collections = vi.fn(async () => [posts, ...others]);
  api.schema = vi.fn(async (_scope: unknown, _id: string, options: { nestedID?: string } = {}) => levelOf(options.nestedID));
  return { ...api, ...overrides } as FakeContentApi;
}

function open(posts: Collection, api: FakeContentApi) {
  const routes: RouteObject[] = [
    {
      id: 'editCollection',
      path: '/organization/:organizationID/project/:projectID/collection/:collectionID/edit',
      element: (
        <ContentApiProvider value={api as unknown as ContentApi}>
          <SchemaBuilder scope={scope} collection={posts} />
        </ContentApiProvider>
      ),
    },
  ];
  return renderPlatform({ routes, path: `/organization/${ORG}/project/${PROJECT}/collection/posts/edit`, api: fakePlatformApi() });
}

const fieldList = () => screen.getByRole('list', { name: 'Fields of Posts' });
const namesInList = (list: HTMLElement) =>
  within(list)
    .getAllByRole('listitem')
    .filter((item) => item.parentElement === list)
    .map((item) => item.querySelector('.field-card-name')?.textContent);

async function pick(typeName: string, within_: HTMLElement = document.body) {
  const buttons = await within(within_).findAllByRole('button', { name: 'Create new field' });
  await userEvent.click(buttons[buttons.length - 1]!);
  await userEvent.click(await screen.findByRole('menuitem', { name: label(typeName) }));
  return screen.findByRole('region', { name: `New ${label(typeName)} field` });
}

beforeEach(() => vi.mocked(notify).mockClear());
afterEach(cleanup);

describe('the create-new-field picker', () => {
  it('lists every field type but Metadata, with the registry labels', async () => {
    open(collection([title, metadata]), fakeContentApi(collection([title, metadata])));
    await userEvent.click(await screen.findByRole('button', { name: 'Create new field' }));
    const items = await screen.findAllByRole('menuitem');
    expect(items.map((item) => item.textContent)).toEqual(creatableFieldTypes.map((type) => formatMessage(type.labelKey as MessageKey)));
    expect(items).toHaveLength(fieldTypes.length - 1);
    expect(screen.queryByRole('menuitem', { name: 'Metadata' })).not.toBeInTheDocument();
  });

  it('draws the icon every type declares in its definition folder', () => {
    expect(fieldTypes.filter((type) => !hasFieldTypeIcon(type.icon)).map((type) => type.name)).toEqual([]);
  });

  it('shows the Metadata entry in the schema without a way to open it', async () => {
    open(collection([title, metadata]), fakeContentApi(collection([title, metadata])));
    const list = await screen.findByRole('list', { name: 'Fields of Posts' });
    expect(namesInList(list)).toEqual(['Title', 'Metadata']);
    expect(within(list).getByText('Set by the system')).toBeInTheDocument();
    expect(within(list).queryByRole('button', { name: 'Edit Metadata' })).not.toBeInTheDocument();
    expect(await within(list).findByRole('button', { name: 'Edit Title' })).toBeInTheDocument();
  });
});

describe('a field draft', () => {
  it('derives the slug from the name until the slug is edited, and refuses reserved slugs', async () => {
    open(collection([metadata]), fakeContentApi(collection([metadata])));
    const draft = await pick('PlainText');
    const name = within(draft).getByLabelText('Name');
    expect(name).toHaveFocus();
    await userEvent.type(name, 'Blog post title');
    const slug = within(draft).getByLabelText('Slug');
    expect(slug).toHaveValue('blogPostTitle');
    await userEvent.clear(slug);
    await userEvent.type(slug, '_id');
    expect(within(draft).getAllByText('This slug is reserved for the system.').length).toBeGreaterThan(0);
    expect(within(draft).getByRole('button', { name: 'Save field' })).toBeDisabled();
    await userEvent.clear(slug);
    await userEvent.type(slug, 'headline');
    await userEvent.type(name, '!');
    // Edited by hand: the name no longer changes it.
    expect(slug).toHaveValue('headline');
    expect(within(draft).getByRole('button', { name: 'Save field' })).toBeEnabled();
  });

  it('keeps the tick disabled until the rules pass, naming what is missing', async () => {
    open(collection([metadata]), fakeContentApi(collection([metadata])));
    const draft = await pick('Option');
    const save = within(draft).getByRole('button', { name: 'Save field' });
    expect(save).toBeDisabled();
    expect(save).toHaveAccessibleDescription(/The field needs a name\./);
    await userEvent.type(within(draft).getByLabelText('Name'), 'Colour');
    expect(save).toBeDisabled();
    expect(save).toHaveAccessibleDescription('To save this field: Add at least one option.');
    // An empty option is not added.
    const newOption = within(draft).getByRole('textbox', { name: 'New option' });
    await userEvent.type(newOption, '   ');
    expect(within(draft).getByRole('button', { name: 'Add option' })).toBeDisabled();
    await userEvent.clear(newOption);
    await userEvent.type(newOption, 'Red{Enter}');
    expect(within(draft).getByRole('textbox', { name: 'Option 1' })).toHaveValue('Red');
    expect(save).toBeEnabled();
    await userEvent.click(within(draft).getByRole('button', { name: 'Remove option 1' }));
    expect(save).toBeDisabled();
  });

  it('forces required on a primary field and offers primary only where the type allows it', async () => {
    const authors = collection([metadata], { id: 'authors', name: 'Authors' });
    open(collection([metadata]), fakeContentApi(collection([metadata]), [authors]));
    const text = await pick('PlainText');
    await userEvent.click(within(text).getByRole('switch', { name: 'Primary field' }));
    expect(within(text).getByRole('switch', { name: 'Required' })).toBeChecked();
    expect(within(text).getByRole('switch', { name: 'Required' })).toBeDisabled();
    await userEvent.click(within(text).getByRole('button', { name: 'Discard' }));
    expect(screen.queryByRole('region', { name: 'New Plain text field' })).not.toBeInTheDocument();

    const reference = await pick('ItemRef');
    expect(within(reference).queryByRole('switch', { name: 'Primary field' })).not.toBeInTheDocument();
    // Only the project's other collections can be referenced.
    const select = within(reference).getByLabelText('Referenced collection');
    expect(within(select).getAllByRole('option').map((o) => o.textContent)).toEqual(['Choose a collection', 'Authors (authors)']);
    const nested = await pick('NestedCollection');
    expect(within(nested).queryByRole('switch', { name: 'Required' })).not.toBeInTheDocument();
    expect(within(nested).getByText('Save the field to add fields to its nested schema.')).toBeInTheDocument();
  });

  it('draws the settings each type declares', async () => {
    open(collection([metadata]), fakeContentApi(collection([metadata])));
    const text = await pick('PlainText');
    expect(within(text).getByLabelText('Minimum characters')).toBeInTheDocument();
    expect(within(text).getByLabelText('Maximum characters')).toBeInTheDocument();
    expect(within(text).queryByLabelText('Accepted file types')).not.toBeInTheDocument();
    const image = await pick('ImageRef');
    expect(within(image).getByLabelText('Accepted file types')).toHaveAttribute('placeholder', 'image/*,application/pdf');
    const bool = await pick('Bool');
    expect(within(bool).getByLabelText('Default value')).toHaveValue('');
    const rich = await pick('RichText');
    expect(within(rich).getByLabelText('Custom CSS')).toBeInTheDocument();
    // The development-only schema option stays hidden (definitions flag off).
    expect(screen.queryByRole('switch', { name: 'Sorted by default' })).not.toBeInTheDocument();
  });
});

describe('saving', () => {
  it('adds a top-level field with addField and shows it in the schema', async () => {
    const posts = collection([title, metadata]);
    const added: SchemaField = { id: id(9), name: 'Summary', slug: 'summary', type: code('PlainText'), visible: true };
    const api = fakeContentApi(posts, [], { addField: vi.fn(async () => added) });
    open(posts, api);
    const draft = await pick('PlainText');
    await userEvent.type(within(draft).getByLabelText('Name'), 'Summary');
    await userEvent.type(within(draft).getByLabelText('Maximum characters'), '140');
    await userEvent.click(within(draft).getByRole('button', { name: 'Save field' }));
    await waitFor(() => expect(api.addField).toHaveBeenCalledTimes(1));
    expect(api.addField).toHaveBeenCalledWith(scope, 'posts', expect.objectContaining({ name: 'Summary', slug: 'summary', type: code('PlainText'), max: 140 }), {});
    expect(api.addNestedField).not.toHaveBeenCalled();
    await waitFor(() => expect(namesInList(fieldList())).toEqual(['Title', 'Summary', 'Metadata']));
    expect(screen.queryByRole('region', { name: 'New Plain text field' })).not.toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Edit Summary' })).toHaveFocus());
  });

  it('shows the server refusal and keeps the draft', async () => {
    const posts = collection([metadata]);
    const refusal = new ApiError({
      status: 400,
      code: 'validation_failed',
      detail: 'Some values are not valid.',
      problem: { type: 'about:blank', title: 'Bad Request', status: 400, detail: 'Some values are not valid.', code: 'validation_failed', errors: [{ path: 'slug', message: '"summary" is already a field of this schema' }] },
    });
    const api = fakeContentApi(posts, [], {
      addField: vi.fn(async () => {
        throw refusal;
      }),
    });
    open(posts, api);
    const draft = await pick('PlainText');
    await userEvent.type(within(draft).getByLabelText('Name'), 'Summary');
    await userEvent.click(within(draft).getByRole('button', { name: 'Save field' }));
    expect(await within(draft).findByRole('alert')).toHaveTextContent('"summary" is already a field of this schema');
    expect(within(draft).getByLabelText('Name')).toHaveValue('Summary');
  });

  it('adds a field inside a nested collection with addNestedField and nestedSlug', async () => {
    const posts = collection([title, chapters, metadata]);
    const added: SchemaField = { id: id(10), name: 'Heading', slug: 'heading', type: code('PlainText') };
    const api = fakeContentApi(posts, [], { addNestedField: vi.fn(async () => added) });
    open(posts, api);
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Chapters' }));
    const nested = await screen.findByRole('list', { name: 'Fields of Chapters' });
    expect(namesInList(nested)).toEqual(['Metadata']);
    const level = nested.closest('.schema-level') as HTMLElement;
    const draft = await pick('PlainText', level);
    await userEvent.type(within(draft).getByLabelText('Name'), 'Heading');
    await userEvent.click(within(draft).getByRole('button', { name: 'Save field' }));
    await waitFor(() => expect(api.addNestedField).toHaveBeenCalledTimes(1));
    expect(api.addNestedField).toHaveBeenCalledWith(scope, 'posts', chapters.id, expect.objectContaining({ name: 'Heading', slug: 'heading' }), { nestedSlug: 'chapters' });
    expect(api.addField).not.toHaveBeenCalled();
    await waitFor(() => expect(namesInList(screen.getByRole('list', { name: 'Fields of Chapters' }))).toEqual(['Heading', 'Metadata']));
  });
});

describe('a saved field', () => {
  it('opens, saves a change with updateField and says "Field Updated"', async () => {
    const posts = collection([title, body, metadata]);
    const api = fakeContentApi(posts, [], { updateField: vi.fn(async (_s, _c, _id, changes: Partial<SchemaField>) => ({ ...body, ...changes })) });
    open(posts, api);
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Body' }));
    const panel = screen.getByRole('group', { name: 'Body' });
    const name = within(panel).getByLabelText('Name');
    expect(name).toHaveFocus();
    // Nothing changed yet: the tick waits for a change; the slug is fixed.
    expect(within(panel).getByRole('button', { name: 'Save field' })).toBeDisabled();
    expect(within(panel).getByLabelText('Slug')).toHaveAttribute('readonly');
    await userEvent.type(name, ' text');
    expect(within(panel).getByLabelText('Slug')).toHaveValue('body');
    await userEvent.click(within(panel).getByRole('button', { name: 'Save field' }));
    await waitFor(() => expect(api.updateField).toHaveBeenCalledWith(scope, 'posts', body.id, expect.objectContaining({ name: 'Body text' }), {}));
    const changes = api.updateField.mock.calls[0]![3] as Record<string, unknown>;
    expect(changes).not.toHaveProperty('slug');
    expect(changes).not.toHaveProperty('type');
    await waitFor(() => expect(notify).toHaveBeenCalledWith({ kind: 'success', title: 'Field Updated' }));
    expect(screen.queryByRole('group', { name: 'Body text' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit Body text' })).toHaveFocus();
  });

  it('saves a nested collection field only with a name and a change', async () => {
    const posts = collection([title, chapters, metadata]);
    open(posts, fakeContentApi(posts));
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Chapters' }));
    const panel = screen.getByRole('group', { name: 'Chapters' });
    const save = within(panel).getAllByRole('button', { name: 'Save field' })[0]!;
    expect(save).toBeDisabled();
    expect(save).toHaveAccessibleDescription('Save needs a name and a change.');
    const name = within(panel).getAllByLabelText('Name')[0]!;
    await userEvent.clear(name);
    expect(save).toBeDisabled();
    expect(save).toHaveAccessibleDescription('To save this field: The field needs a name.');
    await userEvent.type(name, 'Sections');
    expect(save).toBeEnabled();
    // The nested schema is edited in place, one level down.
    expect(within(panel).getByRole('heading', { name: 'Nested schema of Chapters' })).toBeInTheDocument();
    expect(within(panel).getByRole('list', { name: 'Fields of Chapters' })).toBeInTheDocument();
    // Escape closes the field and forgets the edit.
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('group', { name: 'Chapters' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit Chapters' })).toHaveFocus();
  });

  it('deletes only after Delete then Confirm Delete', async () => {
    const posts = collection([title, body, metadata]);
    const api = fakeContentApi(posts, [], { deleteField: vi.fn(async () => undefined) });
    open(posts, api);
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Body' }));
    const panel = screen.getByRole('group', { name: 'Body' });
    await userEvent.click(within(panel).getByRole('button', { name: 'Delete' }));
    expect(api.deleteField).not.toHaveBeenCalled();
    expect(within(panel).getByText('Deleting the field will permanently delete all associated data in the collection')).toBeInTheDocument();
    const confirm = within(panel).getByRole('button', { name: 'Confirm Delete' });
    expect(confirm).toHaveFocus();
    // Cancel goes back; a second round confirms.
    await userEvent.click(within(panel).getByRole('button', { name: 'Cancel' }));
    expect(within(panel).getByRole('button', { name: 'Delete' })).toHaveFocus();
    await userEvent.click(within(panel).getByRole('button', { name: 'Delete' }));
    await userEvent.click(within(panel).getByRole('button', { name: 'Confirm Delete' }));
    await waitFor(() => expect(api.deleteField).toHaveBeenCalledWith(scope, 'posts', body.id, {}));
    await waitFor(() => expect(namesInList(fieldList())).toEqual(['Title', 'Metadata']));
  });

  it('deletes a nested field with nestedID and updates one with nestedSlug', async () => {
    const verse: SchemaField = { id: id(20), name: 'Verse', slug: 'verse', type: code('PlainText') };
    const deep: SchemaField = { ...chapters, nestedCollectionSchema: [verse, metadata] };
    const posts = collection([deep, metadata]);
    const api = fakeContentApi(posts, [], {
      deleteField: vi.fn(async () => undefined),
      updateField: vi.fn(async (_s, _c, _id, changes: Partial<SchemaField>) => ({ ...verse, ...changes })),
    });
    open(posts, api);
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Chapters' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Verse' }));
    const panel = screen.getByRole('group', { name: 'Verse' });
    await userEvent.click(within(panel).getByRole('switch', { name: 'Required' }));
    await userEvent.click(within(panel).getByRole('button', { name: 'Save field' }));
    await waitFor(() => expect(api.updateField).toHaveBeenCalledWith(scope, 'posts', verse.id, expect.objectContaining({ required: true }), { nestedSlug: 'chapters' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Verse' }));
    const again = screen.getByRole('group', { name: 'Verse' });
    await userEvent.click(within(again).getByRole('button', { name: 'Delete' }));
    await userEvent.click(within(again).getByRole('button', { name: 'Confirm Delete' }));
    await waitFor(() => expect(api.deleteField).toHaveBeenCalledWith(scope, 'posts', verse.id, { nestedID: 'chapters' }));
  });
});

describe('reordering with the keyboard', () => {
  // jsdom lays nothing out: each row of a list is 60 px below the one before it.
  const rect = (top: number, height: number) => ({ x: 0, y: top, top, left: 0, width: 600, height, right: 600, bottom: top + height, toJSON: () => ({}) }) as DOMRect;
  const original = Element.prototype.getBoundingClientRect;
  beforeEach(() => {
    Element.prototype.getBoundingClientRect = function (this: Element) {
      const row = this.closest('li.schema-field');
      if (!row?.parentElement) return rect(0, 0);
      return rect([...row.parentElement.children].indexOf(row) * 60, 50);
    };
    Element.prototype.scrollIntoView = vi.fn();
  });
  afterEach(() => {
    Element.prototype.getBoundingClientRect = original;
  });

  async function moveFirstDown() {
    const handle = await screen.findByRole('button', { name: 'Move Title' });
    handle.focus();
    await userEvent.keyboard('[Space]');
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    await userEvent.keyboard('[ArrowDown]');
    await act(() => new Promise((resolve) => setTimeout(resolve, 20)));
    await userEvent.keyboard('[Space]');
  }

  it('saves the new order with the schema-order call and announces the moves', async () => {
    const posts = collection([title, body, metadata]);
    // The fake server keeps the order it is given, as the real one does.
    const reorderSchema = vi.fn(async (_s: unknown, _c: string, order: string[]) => {
      posts.schema = order.map((fieldId) => posts.schema.find((field) => field.id === fieldId)!);
      return posts.schema;
    });
    const api = fakeContentApi(posts, [], { reorderSchema });
    open(posts, api);
    await screen.findByRole('button', { name: 'Move Title' });
    expect(screen.getByRole('button', { name: 'Move Title' })).toHaveAccessibleDescription(/focus its handle and press Space/);
    await moveFirstDown();
    await waitFor(() => expect(api.reorderSchema).toHaveBeenCalledWith(scope, 'posts', [body.id, title.id, metadata.id], {}));
    await waitFor(() => expect(namesInList(fieldList())).toEqual(['Body', 'Title', 'Metadata']));
    expect(document.body).toHaveTextContent('Title dropped at position 2 of 3.');
    expect(notify).not.toHaveBeenCalled();
  });

  it('puts the fields back and says so when the server refuses the order', async () => {
    const posts = collection([title, body, metadata]);
    let refuse!: (error: unknown) => void;
    const api = fakeContentApi(posts, [], { reorderSchema: vi.fn(() => new Promise((_resolve, reject) => (refuse = reject))) });
    open(posts, api);
    await moveFirstDown();
    await waitFor(() => expect(api.reorderSchema).toHaveBeenCalledWith(scope, 'posts', [body.id, title.id, metadata.id], {}));
    // Shown in the new order while the call is out…
    expect(namesInList(fieldList())).toEqual(['Body', 'Title', 'Metadata']);
    await act(async () => refuse(new ApiError({ status: 500, code: 'internal', detail: 'boom' })));
    // …and back in the old one when it fails.
    await waitFor(() => expect(namesInList(fieldList())).toEqual(['Title', 'Body', 'Metadata']));
    expect(notify).toHaveBeenCalledWith({ kind: 'error', title: 'Could not update schema order' });
  });
});

describe('permissions', () => {
  it('offers no picker, handles or edits to a reader', async () => {
    const posts = collection([title, metadata]);
    const reader = fakePlatformApi({ organization: vi.fn(async () => organization({ users: [member('ana', { read: true })] })) });
    const routes: RouteObject[] = [
      {
        id: 'editCollection',
        path: '/organization/:organizationID/project/:projectID/collection/:collectionID/edit',
        element: (
          <ContentApiProvider value={fakeContentApi(posts) as unknown as ContentApi}>
            <SchemaBuilder scope={scope} collection={posts} />
          </ContentApiProvider>
        ),
      },
    ];
    renderPlatform({ routes, path: `/organization/${ORG}/project/${PROJECT}/collection/posts/edit`, api: reader });
    expect(await screen.findByText('Your permissions do not allow changing this schema.')).toBeInTheDocument();
    expect(namesInList(fieldList())).toEqual(['Title', 'Metadata']);
    expect(screen.queryByRole('button', { name: 'Create new field' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Move Title' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit Title' })).not.toBeInTheDocument();
  });
});
