/** JSON editor, copy button, metadata panel, nested collections, read-only types and the registry. */
import '@testing-library/jest-dom/vitest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fieldTypes } from '../../../definitions/field-types/index.ts';
import { CopyLinkButton } from '../../../renderers/fields/CopyLinkButton.tsx';
import { hasDisplay } from '../../../renderers/fields/displays.ts';
import { editorFor, hasEditor } from '../../../renderers/fields/editors.ts';
import { ReadOnlyEditor } from '../../../renderers/fields/ReadOnlyEditor.tsx';
import type { Item } from '../../../src/api/content.ts';
import { field, renderEditor, scope } from './support.tsx';

afterEach(() => {
  vi.useRealTimers();
  cleanup();
});

describe('JSON editor', () => {
  it('shows Not Valid for broken JSON and emits nothing, then Valid and the value', async () => {
    const user = userEvent.setup();
    const { onChange, lastValue, lastProblem } = renderEditor(field(14, { name: 'Data' }));
    const input = screen.getByLabelText('Data');
    await user.click(input);
    await user.paste('{"a": 1');
    expect(screen.getByText('Not Valid')).toBeInTheDocument();
    expect(onChange).not.toHaveBeenCalled();
    expect(lastProblem()).toBe('Not Valid');
    expect(input).toHaveAttribute('aria-invalid', 'true');
    await user.paste('}');
    expect(screen.getByText('Valid')).toBeInTheDocument();
    expect(lastValue()).toEqual({ a: 1 });
    expect(lastProblem()).toBeUndefined();
  });

  it('shows a stored value as indented JSON and emits null when emptied', async () => {
    const user = userEvent.setup();
    const { lastValue } = renderEditor(field(14, { name: 'Data' }), { value: [1, { b: true }] });
    const input = screen.getByLabelText('Data');
    expect(input).toHaveValue(JSON.stringify([1, { b: true }], null, 2));
    await user.clear(input);
    expect(lastValue()).toBeNull();
    expect(screen.queryByText('Valid')).not.toBeInTheDocument();
  });
});

describe('copy-link button', () => {
  it('shows Copied! for 750 ms and announces "Copied to clipboard"', async () => {
    vi.useFakeTimers();
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<CopyLinkButton value="https://example.com/a" label="Copy link" />);
    const button = screen.getByRole('button', { name: 'Copy link' });
    expect(button).toHaveTextContent('Copy');
    await act(async () => {
      fireEvent.click(button);
    });
    expect(writeText).toHaveBeenCalledWith('https://example.com/a');
    expect(button).toHaveTextContent('Copied!');
    expect(screen.getByRole('status')).toHaveTextContent('Copied to clipboard');
    act(() => vi.advanceTimersByTime(749));
    expect(button).toHaveTextContent('Copied!');
    act(() => vi.advanceTimersByTime(1));
    expect(button).toHaveTextContent('Copy');
    expect(button).not.toHaveTextContent('Copied!');
  });

  it('shows Copied! for the full 750 ms again when copied again', async () => {
    vi.useFakeTimers();
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: vi.fn(async () => undefined) }, configurable: true });
    render(<CopyLinkButton value="https://example.com/a" label="Copy link" />);
    const button = screen.getByRole('button', { name: 'Copy link' });
    await act(async () => {
      fireEvent.click(button);
    });
    act(() => vi.advanceTimersByTime(500));
    await act(async () => {
      fireEvent.click(button);
    });
    act(() => vi.advanceTimersByTime(749));
    expect(button).toHaveTextContent('Copied!');
    act(() => vi.advanceTimersByTime(1));
    expect(button).not.toHaveTextContent('Copied!');
  });

  it('says so when the clipboard refuses', async () => {
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: vi.fn(async () => Promise.reject(new Error('denied'))) }, configurable: true });
    render(<CopyLinkButton value="x" label="Copy link" />);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy link' }));
    });
    expect(screen.getByRole('status')).toHaveTextContent('Could not copy to the clipboard');
  });
});

describe('Metadata panel', () => {
  const item: Item = { _id: 'abc123abc123abc123abc123', _createdDate: '2024-05-01T09:30:00.000Z', _lastUpdatedDate: '', _order: 1, _rank: 'a0' };

  it('shows the saved item id and dates read-only, Not Set for a missing date', () => {
    renderEditor(field(100, { name: 'Metadata' }), { environment: { scope, item } });
    const panel = screen.getByRole('group', { name: 'Metadata' });
    expect(panel).toHaveTextContent('abc123abc123abc123abc123');
    expect(panel).toHaveTextContent('Created Date');
    expect(panel).toHaveTextContent('Not Set');
    expect(screen.getByRole('button', { name: 'Copy item ID' })).toBeInTheDocument();
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
  });

  it('says Not Set for everything of a new item', () => {
    renderEditor(field(100, { name: 'Metadata' }));
    expect(screen.getAllByText('Not Set')).toHaveLength(3);
  });
});

describe('NestedCollection editor', () => {
  const chapters = field(12, { name: 'Chapters', nestedCollectionSchema: [{ id: 'm', name: 'Metadata', slug: '_metadata', type: 100 }] });

  it('asks for a schema first, then for the item to be created', () => {
    renderEditor(chapters);
    expect(screen.getByText('Schema must be added before creating nested items')).toBeInTheDocument();
    cleanup();
    renderEditor({ ...chapters, nestedCollectionSchema: [{ id: 't', name: 'Title', slug: 'title', type: 1 }] });
    expect(screen.getByText('The item must first be created before adding nested items')).toBeInTheDocument();
  });

  it('opens the nested collection through the page', async () => {
    const user = userEvent.setup();
    const onOpenNested = vi.fn();
    const withSchema = { ...chapters, nestedCollectionSchema: [{ id: 't', name: 'Title', slug: 'title', type: 1 }] };
    const item: Item = { _id: 'i1', _createdDate: '', _lastUpdatedDate: '', _order: 1, _rank: 'a0' };
    renderEditor(withSchema, { value: [{ _id: 'n1' }, { _id: 'n2' }], environment: { scope, item, onOpenNested } });
    expect(screen.getByText('2 items')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Open Chapters' }));
    expect(onOpenNested).toHaveBeenCalledWith(withSchema);
  });
});

describe('read-only editors and the registry', () => {
  it('gives every registered type an editor of its own', () => {
    for (const type of fieldTypes) expect(hasEditor(type.name), type.name).toBe(true);
  });

  it('gives every registered type a display of its own', () => {
    for (const type of fieldTypes) expect(hasDisplay(type.name), type.name).toBe(true);
  });

  it('draws images, rich text and map locations with their display, read-only', () => {
    renderEditor(field(5, { name: 'Photo' }), { value: { imageURL: 'https://cdn.example.com/a.jpg', altText: 'A pie' } });
    expect(screen.getByRole('group', { name: 'Photo' })).toContainElement(screen.getByRole('img', { name: 'A pie' }));
    cleanup();
    // GeoPoint and RichText have editors of their own now (tests/dom/editors/geo-point.test.tsx, rich-text.test.tsx).
  });

  // ImageRef and ImageRefSet have editors of their own now (tests/dom/editors/image-ref.test.tsx, image-ref-set.test.tsx).

  it('shows a type nobody registered read-only', () => {
    expect(editorFor(field(999))).toBe(ReadOnlyEditor);
  });

  it('marks required fields with * and says Required Field while empty (never for Bool)', async () => {
    const user = userEvent.setup();
    renderEditor(field(1, { name: 'Title', required: true }));
    // The '*' is for the eye; the control says required itself.
    const input = screen.getByRole('textbox', { name: 'Title' });
    expect(input).toHaveAttribute('aria-required', 'true');
    expect(screen.getByText('*')).toBeInTheDocument();
    expect(input).toHaveAccessibleDescription(expect.stringContaining('Required Field'));
    await user.type(input, 'x');
    expect(screen.queryByText('Required Field')).not.toBeInTheDocument();
    cleanup();
    renderEditor(field(8, { name: 'Published', required: true }));
    expect(screen.queryByText('Required Field')).not.toBeInTheDocument();
  });

  it('shows the field help text and ties it to the control', () => {
    renderEditor(field(1, { name: 'Title', helpText: 'Shown in lists' }));
    expect(screen.getByLabelText('Title')).toHaveAccessibleDescription(expect.stringContaining('Shown in lists'));
  });
});
