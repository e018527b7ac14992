/**
 * The collection's RTL switch (docs/console.md "Text direction"): in a right-to-left collection the
 * editors of written text (PlainText, RichText, Option labels) run right to left, with their menus;
 * editors of numbers, dates, links and JSON keep left to right; a left-to-right collection leaves
 * every editor in the page's direction. The list's cells of those fields follow too.
 */
import '@testing-library/jest-dom/vitest';
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ui } from '../../../definitions/constants.ts';
import { textDirectionOf } from '../../../renderers/fields/FieldEditor.tsx';
import { displayFor } from '../../../renderers/fields/displays.ts';
import { DirectedDisplay } from '../../../renderers/fields/DirectedDisplay.tsx';
import { field, renderEditor, scope } from './support.tsx';

afterEach(cleanup);

const rtl = { scope, direction: 'rtl' as const };

describe('editors in a right-to-left collection', () => {
  it('a PlainText editor runs right to left: its textarea sits in a dir="rtl" box', () => {
    renderEditor(field(1, { name: 'Title' }), { value: 'שלום, עולם!', environment: rtl });
    const box = screen.getByRole('textbox', { name: 'Title' });
    expect(box.closest('[dir]')).toHaveAttribute('dir', 'rtl');
    // The label stays in the page's direction (it names the field in the console's language).
    expect(screen.getByText('Title').closest('[dir]')).toBeNull();
  });

  it('a RichText editor runs right to left', async () => {
    renderEditor(field(2, { name: 'Body' }), { value: '<p>שלום</p>', environment: rtl });
    const editor = await screen.findByRole('textbox', { name: 'Body' });
    expect(editor.closest('[dir="rtl"]')).not.toBeNull();
  });

  it('an Option editor runs right to left, and so does its open list of labels', async () => {
    const user = userEvent.setup();
    renderEditor(field(7, { name: 'Colour', options: [{ _id: 'a', value: 'אדום' }, { _id: 'b', value: 'כחול' }] }), { environment: rtl });
    const trigger = screen.getByRole('combobox', { name: 'Colour' });
    expect(trigger).toHaveAttribute('dir', 'rtl');
    await user.click(trigger);
    await act(async () => new Promise((resolve) => setTimeout(resolve, ui.dropdownDelayMs + 50)));
    const list = await screen.findByRole('listbox');
    expect(list.closest('[dir="rtl"]')).not.toBeNull();
  });

  it('Number and JSON editors keep left to right', () => {
    renderEditor(field(3, { name: 'Count', slug: 'count' }), { value: 5, environment: rtl });
    expect(screen.getByRole('textbox', { name: 'Count' }).closest('[dir="rtl"]')).toBeNull();
    cleanup();
    renderEditor(field(14, { name: 'Data', slug: 'data' }), { value: { a: 1 }, environment: rtl });
    expect(screen.getByRole('textbox', { name: 'Data' }).closest('[dir="rtl"]')).toBeNull();
  });

  it('a left-to-right collection sets no direction on any editor', () => {
    renderEditor(field(1, { name: 'Title' }), { value: 'Hello', environment: { scope, direction: 'ltr' } });
    expect(screen.getByRole('textbox', { name: 'Title' }).closest('[dir]')).toBeNull();
  });

  it('textDirectionOf answers rtl only for written-text types of an rtl collection', () => {
    expect(textDirectionOf(field(1), 'rtl')).toBe('rtl');
    expect(textDirectionOf(field(7), 'rtl')).toBe('rtl');
    expect(textDirectionOf(field(3), 'rtl')).toBeUndefined();
    expect(textDirectionOf(field(1), 'ltr')).toBeUndefined();
    expect(textDirectionOf(field(1), undefined)).toBeUndefined();
  });
});

describe('list cells in a right-to-left collection', () => {
  it('a PlainText cell runs right to left; a Number cell does not', () => {
    const text = field(1, { name: 'Title', slug: 'title' });
    const number = field(3, { name: 'Count', slug: 'count' });
    render(
      <>
        <DirectedDisplay Display={displayFor(text)} field={text} value="שלום!" direction="rtl" />
        <DirectedDisplay Display={displayFor(number)} field={number} value={42} direction="rtl" />
      </>,
    );
    expect(screen.getByText('שלום!').closest('[dir]')).toHaveAttribute('dir', 'rtl');
    expect(screen.getByText('42').closest('[dir]')).toBeNull();
  });
});
