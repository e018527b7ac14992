/** The item-reference picker: debounced search, chips, the page's dialogs, nested selections. */
import '@testing-library/jest-dom/vitest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Collection, Item, ItemPage } from '../../../src/api/content.ts';
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

  it('leaves creating and editing linked items to the page', async () => {
    const user = userEvent.setup();
    const api = fakeApi(() => ({ items: [], total: 0 }));
    const onCreateLinkedItem = vi.fn(async () => ({ itemRefID: id(9), value: 'Grace Hopper' }));
    const onEditLinkedItem = vi.fn();
    const { lastValue } = renderEditor(authorField, { api, environment: { scope, onCreateLinkedItem, onEditLinkedItem }, value: [{ itemRefID: id(1), value: 'Ada Lovelace' }] });
    await user.click(screen.getByRole('button', { name: 'Edit Ada Lovelace' }));
    expect(onEditLinkedItem).toHaveBeenCalledWith(authorField, { itemRefID: id(1), value: 'Ada Lovelace' });
    await user.click(screen.getByRole('button', { name: 'Create a linked item' }));
    expect(lastValue()).toEqual([
      { itemRefID: id(1), value: 'Ada Lovelace' },
      { itemRefID: id(9), value: 'Grace Hopper' },
    ]);
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
