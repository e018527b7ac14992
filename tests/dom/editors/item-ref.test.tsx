/** The item-reference picker: debounced search, chips, the linked-item dialog, nested selections. */
import '@testing-library/jest-dom/vitest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { StaleItemError, type Collection, type Item, type ItemPage } from '../../../src/api/content.ts';
import { ApiError } from '../../../src/api/errors.ts';
import { strictContentApi } from '../support/fake-content-api.ts';
import { field, renderEditor, scope } from './support.tsx';

afterEach(() => {
  vi.useRealTimers();
  cleanup();
});

const id = (n: number) => n.toString(16).padStart(24, '0');
const item = (n: number, name: string): Item => ({ _id: id(n), _createdDate: '', _lastUpdatedDate: '', _order: n, _rank: `a${n}`, name });

const authors: Collection = {
  id: 'authors',
  name: 'Authors',
  singleItem: false,
  rtlDirection: false,
  itemCount: 3,
  createdDate: '',
  schema: [
    { id: 'm', name: 'Metadata', slug: '_metadata', type: 100 },
    { id: 'n', name: 'Name', slug: 'name', type: 1, primaryField: true },
    { id: 'c', name: 'Chapters', slug: 'chapters', type: 12, nestedCollectionSchema: [{ id: 't', name: 'Heading', slug: 'heading', type: 1, primaryField: true }] },
  ],
};

const authorField = field(6, { name: 'Author', referenceCollectionID: 'authors' });

function fakeApi(pages: (params: Record<string, unknown>) => ItemPage) {
  return strictContentApi({
    collection: vi.fn(async () => authors),
    listItems: vi.fn(async (_scope: unknown, _collection: string, params: Record<string, unknown>) => pages(params)),
  });
}

describe('ItemRef picker', () => {
  it('searches the referenced collection once, 300 ms after the last keystroke', async () => {
    // Keystrokes as change events: user-event waits on timers that fake ones would hold.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    const api = fakeApi(() => ({ items: [item(1, 'Ada Lovelace'), item(2, 'Alan Turing')], total: 2 }));
    renderEditor(authorField, { api });
    const box = screen.getByRole('combobox', { name: 'Author' });
    act(() => box.focus());
    for (const typed of ['A', 'Ad', 'Ada']) {
      fireEvent.change(box, { target: { value: typed } });
      await act(() => vi.advanceTimersByTimeAsync(200));
    }
    expect(api.listItems).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(99));
    expect(api.listItems).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(api.listItems).toHaveBeenCalledTimes(1);
    expect(api.listItems).toHaveBeenCalledWith(scope, 'authors', expect.objectContaining({ search: 'Ada' }));
    await act(() => vi.advanceTimersByTimeAsync(50));
    vi.useRealTimers();
    const list = await screen.findByRole('listbox', { name: 'Items found' });
    expect(within(list).getAllByRole('option').map((option) => option.textContent)).toEqual(['Ada Lovelace', 'Alan Turing']);
    expect(box).toHaveAttribute('aria-expanded', 'true');
    expect(api.listItems).toHaveBeenCalledTimes(1);
  });

  it('picks by keyboard into a chip, emitting the link with its display text', async () => {
    const user = userEvent.setup();
    const api = fakeApi(() => ({ items: [item(1, 'Ada Lovelace'), item(2, 'Alan Turing')], total: 2 }));
    const { lastValue } = renderEditor(authorField, { api });
    const box = screen.getByRole('combobox', { name: 'Author' });
    await user.type(box, 'a');
    await screen.findByRole('option', { name: 'Alan Turing' });
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(box).toHaveAttribute('aria-activedescendant', screen.getByRole('option', { name: 'Alan Turing' }).id);
    await user.keyboard('{Enter}');
    expect(lastValue()).toEqual([{ itemRefID: id(2), value: 'Alan Turing' }]);
    const chips = screen.getByRole('list', { name: 'Linked items' });
    expect(chips).toHaveTextContent('Alan Turing');
    expect(box).toHaveValue('');
  });

  it('does not offer items already linked', async () => {
    const user = userEvent.setup();
    const api = fakeApi(() => ({ items: [item(1, 'Ada Lovelace'), item(2, 'Alan Turing')], total: 2 }));
    renderEditor(authorField, { api, value: [{ itemRefID: id(1), value: 'Ada Lovelace' }] });
    await user.type(screen.getByRole('combobox', { name: 'Author' }), 'a');
    await screen.findByRole('option', { name: 'Alan Turing' });
    expect(screen.queryByRole('option', { name: 'Ada Lovelace' })).not.toBeInTheDocument();
  });

  it('removes a chip, and emits null when the last one goes', async () => {
    const user = userEvent.setup();
    const api = fakeApi(() => ({ items: [], total: 0 }));
    const { lastValue } = renderEditor(authorField, {
      api,
      value: [
        { itemRefID: id(1), value: 'Ada Lovelace' },
        { itemRefID: id(2), value: 'Alan Turing' },
      ],
    });
    await user.click(screen.getByRole('button', { name: 'Remove Ada Lovelace' }));
    expect(lastValue()).toEqual([{ itemRefID: id(2), value: 'Alan Turing' }]);
    expect(screen.queryByText('Ada Lovelace')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Remove Alan Turing' }));
    expect(lastValue()).toBeNull();
    expect(screen.queryByRole('list', { name: 'Linked items' })).not.toBeInTheDocument();
  });

  it('says when nothing matches', async () => {
    const user = userEvent.setup();
    const api = fakeApi(() => ({ items: [], total: 0 }));
    renderEditor(authorField, { api });
    await user.type(screen.getByRole('combobox', { name: 'Author' }), 'zz');
    expect(await screen.findByText('No items found')).toBeInTheDocument();
  });

});

// A whole form in a dialog, typed into key by key: slow on a busy machine, so these get room (no timing is asserted).
describe('linked-item dialog', { timeout: 30_000 }, () => {
  const etag = (n: number) => `"2026-01-0${n}T00:00:00.000Z"`;
  const saved = (n: number, name: string, version = 1): Item => ({ ...item(n, name), _lastUpdatedDate: `2026-01-0${version}T00:00:00.000Z` });

  function dialogApi(given: Parameters<typeof strictContentApi>[0] = {}) {
    return strictContentApi({
      collection: vi.fn(async () => authors),
      listItems: vi.fn(async () => ({ items: [], total: 0 })),
      ...given,
    });
  }

  it('creates an item of the referenced collection in a dialog, then picks it', async () => {
    const user = userEvent.setup();
    const api = dialogApi({ createItem: vi.fn(async (_scope, _collection, values: Record<string, unknown>) => ({ item: { ...saved(9, ''), ...values }, etag: etag(1) })) });
    const { lastValue } = renderEditor(authorField, { api, value: [{ itemRefID: id(1), value: 'Ada Lovelace' }] });
    await user.click(await screen.findByRole('button', { name: 'New Authors item' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Authors item' });
    // Focus moves into the dialog, on its first field.
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveFocus();
    await user.keyboard('Grace Hopper');
    await user.click(within(dialog).getByRole('button', { name: 'Create Item' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // Only the schema's own column fields are sent (no metadata, no nested collection).
    expect(api.createItem).toHaveBeenCalledWith(scope, 'authors', { name: 'Grace Hopper' });
    expect(lastValue()).toEqual([
      { itemRefID: id(1), value: 'Ada Lovelace' },
      { itemRefID: id(9), value: 'Grace Hopper' },
    ]);
    expect(screen.getByRole('list', { name: 'Linked items' })).toHaveTextContent('Grace Hopper');
    // Focus goes back where it came from.
    expect(screen.getByRole('button', { name: 'New Authors item' })).toHaveFocus();
  });

  it('keeps a server refusal at its field, with everything typed, and picks nothing', async () => {
    const user = userEvent.setup();
    const refusal = new ApiError({
      status: 400,
      code: 'validation_failed',
      detail: 'invalid',
      problem: { type: 'about:blank', title: 'Bad', status: 400, code: 'validation_failed', detail: 'invalid', errors: [{ path: 'name', message: 'must be unique' }] },
    });
    const api = dialogApi({ createItem: vi.fn(async () => Promise.reject(refusal)) });
    const { onChange } = renderEditor(authorField, { api });
    await user.click(await screen.findByRole('button', { name: 'New Authors item' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Authors item' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Ada Lovelace');
    await user.click(within(dialog).getByRole('button', { name: 'Create Item' }));
    expect(await within(dialog).findByText('Name must be unique')).toBeInTheDocument();
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveValue('Ada Lovelace');
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveAttribute('aria-invalid', 'true');
    expect(onChange).not.toHaveBeenCalled();
  });

  it('says in the dialog why a save no field carries was refused, and stays open', async () => {
    const user = userEvent.setup();
    const full = new ApiError({ status: 409, code: 'single_item_exists', detail: 'This is a single item collection and it already has its item.' });
    const api = dialogApi({ createItem: vi.fn(async () => Promise.reject(full)) });
    const { onChange } = renderEditor(authorField, { api });
    await user.click(await screen.findByRole('button', { name: 'New Authors item' }));
    const dialog = await screen.findByRole('dialog', { name: 'New Authors item' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Ada Lovelace');
    await user.click(within(dialog).getByRole('button', { name: 'Create Item' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Error with creating item This is a single item collection and it already has its item.');
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveValue('Ada Lovelace');
    expect(onChange).not.toHaveBeenCalled();
  });

  it('asks before closing with unsaved changes; closes at once without', async () => {
    const user = userEvent.setup();
    const api = dialogApi();
    renderEditor(authorField, { api });
    await user.click(await screen.findByRole('button', { name: 'New Authors item' }));
    let dialog = await screen.findByRole('dialog', { name: 'New Authors item' });
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user.click(screen.getByRole('button', { name: 'New Authors item' }));
    dialog = await screen.findByRole('dialog', { name: 'New Authors item' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Half typed');
    await user.keyboard('{Escape}');
    const ask = await screen.findByRole('alertdialog', { name: 'Unsaved changes' });
    await user.click(within(ask).getByRole('button', { name: 'Stay' }));
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveValue('Half typed');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await user.click(within(await screen.findByRole('alertdialog', { name: 'Unsaved changes' })).getByRole('button', { name: 'Leave' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.createItem).not.toHaveBeenCalled();
  });

  it('edits a linked item with the version it loaded, and the chip takes its new name', async () => {
    const user = userEvent.setup();
    const api = dialogApi({
      item: vi.fn(async () => ({ item: saved(1, 'Ada Lovelace'), etag: etag(1) })),
      updateItem: vi.fn(async (_scope, _collection, _id, values: Record<string, unknown>) => ({ item: { ...saved(1, 'Ada Lovelace', 2), ...values }, etag: etag(2) })),
    });
    const { lastValue } = renderEditor({ ...authorField, nestedReferenceCollectionID: ['chapters'] }, {
      api,
      value: [{ itemRefID: id(1), value: 'Ada Lovelace', chapters: [{ itemRefID: id(11), value: 'Engines' }] }],
    });
    await user.click(await screen.findByRole('button', { name: 'Edit Ada Lovelace' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Ada Lovelace' });
    const name = await within(dialog).findByRole('textbox', { name: 'Name' });
    expect(api.item).toHaveBeenCalledWith(scope, 'authors', { itemID: id(1) });
    expect(name).toHaveValue('Ada Lovelace');
    expect(within(dialog).getByRole('button', { name: 'Update' })).toBeDisabled();
    await user.clear(name);
    await user.type(name, 'Ada King');
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.updateItem).toHaveBeenCalledWith(scope, 'authors', { itemID: id(1) }, { name: 'Ada King' }, { ifMatch: etag(1) });
    // The nested picks stay on the link.
    expect(lastValue()).toEqual([{ itemRefID: id(1), value: 'Ada King', chapters: [{ itemRefID: id(11), value: 'Engines' }] }]);
    expect(screen.getByRole('list', { name: 'Linked items' })).toHaveTextContent('Ada King');
  });

  it('a stale edit (409) shows both versions and saves the chosen ones against the current version', async () => {
    const user = userEvent.setup();
    const current = { ...saved(1, 'Augusta Ada', 3) };
    const stale = new StaleItemError(new ApiError({ status: 409, code: 'stale_item', detail: 'changed' }), current, etag(3));
    const api = dialogApi({
      item: vi.fn(async () => ({ item: saved(1, 'Ada Lovelace'), etag: etag(1) })),
      updateItem: vi
        .fn()
        .mockRejectedValueOnce(stale)
        .mockImplementation(async (_scope, _collection, _id, values: Record<string, unknown>) => ({ item: { ...saved(1, '', 4), ...values }, etag: etag(4) })),
    });
    const { lastValue } = renderEditor(authorField, { api, value: [{ itemRefID: id(1), value: 'Ada Lovelace' }] });
    await user.click(await screen.findByRole('button', { name: 'Edit Ada Lovelace' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Ada Lovelace' });
    const name = await within(dialog).findByRole('textbox', { name: 'Name' });
    await user.clear(name);
    await user.type(name, 'Ada King');
    await user.click(within(dialog).getByRole('button', { name: 'Update' }));
    const choice = await within(dialog).findByRole('group', { name: /^Name/ });
    expect(within(choice).getByText('Ada King')).toBeInTheDocument();
    expect(within(choice).getByText('Augusta Ada')).toBeInTheDocument();
    await user.click(within(choice).getByRole('radio', { name: 'Current version' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save the chosen versions' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.updateItem).toHaveBeenLastCalledWith(scope, 'authors', { itemID: id(1) }, { name: 'Augusta Ada' }, { ifMatch: etag(3) });
    expect(lastValue()).toEqual([{ itemRefID: id(1), value: 'Augusta Ada' }]);
  });
});

describe('nested-reference picker', () => {
  const withNested = { ...authorField, nestedReferenceCollectionID: ['chapters'] };
  const nestedPage = (params: Record<string, unknown>): ItemPage =>
    params.nestedID === 'chapters'
      ? { items: [{ ...item(11, ''), heading: 'Early years' }, { ...item(12, ''), heading: 'Engines' }], total: 2 }
      : { items: [], total: 0 };

  it('asks for at least one nested item under each link and keeps the choice on the link', async () => {
    const user = userEvent.setup();
    const api = fakeApi(nestedPage);
    const { lastValue, lastProblem } = renderEditor(withNested, { api, value: [{ itemRefID: id(1), value: 'Ada Lovelace' }] });
    const group = await screen.findByRole('group', { name: 'Chapters of Ada Lovelace' });
    expect(within(group).getByText('you must select at least one item')).toBeInTheDocument();
    expect(lastProblem()).toBe('you must select at least one item');
    expect(api.listItems).toHaveBeenCalledWith(scope, 'authors', expect.objectContaining({ parentItemID: id(1), nestedID: 'chapters' }));
    await user.click(await within(group).findByRole('checkbox', { name: 'Engines' }));
    expect(lastValue()).toEqual([{ itemRefID: id(1), value: 'Ada Lovelace', chapters: [{ itemRefID: id(12), value: 'Engines' }] }]);
    expect(within(group).queryByText('you must select at least one item')).not.toBeInTheDocument();
    expect(lastProblem()).toBeUndefined();
  });
});
