/**
 * The Phone editor (a phone number is kept as its digits): the usual characters are
 * taken as typed (digits, spaces, + ( ) - .) and stay as typed, also after leaving the field,
 * while the value is the digits; what it has to say (the digits saved, a refused letter) goes in
 * one line that is always there, so nothing moves under the pointer.
 */
import '@testing-library/jest-dom/vitest';
import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { FieldEditor } from '../../../renderers/fields/FieldEditor.tsx';
import { field, renderEditor } from './support.tsx';

afterEach(cleanup);

const phone = field(4, { name: 'Phone' });
const noteOf = (container: HTMLElement) => container.querySelector('.editor-phone-note');

describe('Phone editor', () => {
  it('takes "+1 (555) 010-2000" as typed, saves its digits, and keeps it as typed after leaving the field', async () => {
    const user = userEvent.setup();
    const { container, lastValue } = renderEditor(phone);
    const input = screen.getByLabelText('Phone');
    expect(input).toHaveAttribute('inputmode', 'tel');
    await user.type(input, '+1 (555) 010-2000');
    expect(input).toHaveValue('+1 (555) 010-2000');
    expect(lastValue()).toBe('15550102000');
    expect(input).not.toHaveAttribute('aria-invalid');
    expect(screen.queryByText(/digits only/)).toBeNull();
    expect(noteOf(container)).toHaveTextContent('Saved as 15550102000');
    await user.tab();
    expect(input).toHaveValue('+1 (555) 010-2000');
    expect(lastValue()).toBe('15550102000');
    await user.clear(input);
    await user.type(input, '555.010.2000');
    expect(lastValue()).toBe('5550102000');
  });

  it('a letter typed changes nothing and is explained in the line kept for notes, which is there (empty) before and after', async () => {
    const user = userEvent.setup();
    const { container, lastValue } = renderEditor(phone);
    const input = screen.getByLabelText('Phone');
    const note = noteOf(container);
    expect(note).not.toBeNull();
    expect(note!.textContent).toBe('');
    await user.type(input, '555-12ab34');
    expect(input).toHaveValue('555-1234');
    expect(lastValue()).toBe('5551234');
    // The same element, so the field below it never moves.
    expect(noteOf(container)).toBe(note);
    expect(note).toHaveTextContent('A phone number holds digits, spaces and + ( ) - . only.');
    expect(container.querySelector('.field-error')).toBeNull();
    await user.tab();
    expect(noteOf(container)).toBe(note);
    expect(note).toHaveTextContent('Saved as 5551234');
  });

  it('stops at the most digits a number may have', async () => {
    const user = userEvent.setup();
    const { lastValue } = renderEditor(phone);
    const input = screen.getByLabelText('Phone');
    await user.type(input, '1'.repeat(40));
    expect(lastValue()).toBe('1'.repeat(32));
    expect(input).toHaveValue('1'.repeat(32));
  });

  it('shows a value set from outside (loaded, reset, duplicated) as it is', async () => {
    const user = userEvent.setup();
    let set: (value: unknown) => void = () => {};
    function Form() {
      const [value, setValue] = useState<unknown>('15550102000');
      set = setValue;
      return <FieldEditor field={phone} value={value} onChange={setValue} />;
    }
    render(<Form />);
    const input = screen.getByLabelText('Phone');
    expect(input).toHaveValue('15550102000');
    await user.clear(input);
    await user.type(input, '+44 20 7946 0000');
    expect(input).toHaveValue('+44 20 7946 0000');
    act(() => set('123'));
    expect(input).toHaveValue('123');
    act(() => set(null));
    expect(input).toHaveValue('');
  });
});
