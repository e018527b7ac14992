/** Bool, Option and Date editors. */
import '@testing-library/jest-dom/vitest';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fromLocalInput, toLocalInput } from '../../../renderers/fields/date/local-input.ts';
import { field, renderEditor } from './support.tsx';

afterEach(cleanup);

describe('Bool editor', () => {
  it('starts indeterminate when unset: neither on nor off', () => {
    renderEditor(field(8, { name: 'Published' }));
    const control = screen.getByRole('checkbox', { name: 'Published' });
    expect(control).toHaveAttribute('aria-checked', 'mixed');
    expect(control).toHaveAttribute('data-state', 'indeterminate');
    expect(screen.getByText('Not set')).toBeInTheDocument();
  });

  it('turns on, then off, emitting booleans (Space works too)', async () => {
    const user = userEvent.setup();
    const { lastValue } = renderEditor(field(8, { name: 'Published' }));
    const control = screen.getByRole('checkbox', { name: 'Published' });
    await user.click(control);
    expect(lastValue()).toBe(true);
    expect(control).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByText('Yes')).toBeInTheDocument();
    control.focus();
    await user.keyboard(' ');
    expect(lastValue()).toBe(false);
    expect(control).toHaveAttribute('aria-checked', 'false');
    expect(screen.getByText('No')).toBeInTheDocument();
  });

  it('shows a stored false as off', () => {
    renderEditor(field(8, { name: 'Published' }), { value: false });
    expect(screen.getByRole('checkbox', { name: 'Published' })).toHaveAttribute('aria-checked', 'false');
  });
});

describe('Option editor', () => {
  const colour = field(7, {
    name: 'Colour',
    options: [
      { _id: 'r', value: 'Red' },
      { _id: 'g', value: 'Green' },
    ],
  });

  it('opens after its short delay, chooses by keyboard and emits the option object', async () => {
    const user = userEvent.setup();
    const { lastValue } = renderEditor(colour);
    const trigger = screen.getByRole('combobox', { name: 'Colour' });
    expect(trigger).toHaveTextContent('Choose an option');
    trigger.focus();
    await user.keyboard('{Enter}');
    // The dropdown opens about 100 ms later (content §4), not at once.
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(await screen.findByRole('listbox')).toBeInTheDocument();
    await user.keyboard('{ArrowDown}{ArrowDown}');
    await user.keyboard('{Enter}');
    expect(lastValue()).toEqual({ _id: 'g', value: 'Green' });
    await waitForClosed();
    expect(trigger).toHaveTextContent('Green');
  });

  it('closes with Escape without choosing, and "No option" clears the value', async () => {
    const user = userEvent.setup();
    const { lastValue, onChange } = renderEditor(colour, { value: { _id: 'r', value: 'Red' } });
    const trigger = screen.getByRole('combobox', { name: 'Colour' });
    expect(trigger).toHaveTextContent('Red');
    trigger.focus();
    await user.keyboard('{Enter}');
    await screen.findByRole('listbox');
    await user.keyboard('{Escape}');
    // Closing waits the same short delay.
    expect(screen.getByRole('listbox')).toBeInTheDocument();
    await waitForClosed();
    expect(onChange).not.toHaveBeenCalled();
    await user.keyboard('{Enter}');
    await user.click(await screen.findByRole('option', { name: 'No option' }));
    expect(lastValue()).toBeNull();
  });

  it('still shows a stored option the field no longer offers', () => {
    renderEditor(colour, { value: { _id: 'b', value: 'Blue' } });
    expect(screen.getByRole('combobox', { name: 'Colour' })).toHaveTextContent('Blue');
  });

  async function waitForClosed() {
    const { waitFor } = await import('@testing-library/react');
    await waitFor(() => expect(screen.queryByRole('listbox')).not.toBeInTheDocument());
  }
});

describe('Date editor', () => {
  it('shows the guessed time zone and emits ISO text', () => {
    const { lastValue } = renderEditor(field(10, { name: 'Launch' }));
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    expect(screen.getByText(`Time zone: ${zone}`)).toBeInTheDocument();
    const input = screen.getByLabelText('Launch');
    expect(input).toHaveAccessibleDescription(expect.stringContaining(zone));
    fireEvent.change(input, { target: { value: '2024-05-01T09:30' } });
    expect(lastValue()).toBe(new Date(2024, 4, 1, 9, 30).toISOString());
    expect(lastValue()).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    fireEvent.change(input, { target: { value: '' } });
    expect(lastValue()).toBeNull();
  });

  it('shows a stored instant in local time', () => {
    const stored = new Date(2023, 11, 31, 23, 5, 7).toISOString();
    renderEditor(field(10, { name: 'Launch' }), { value: stored });
    // jsdom writes the seconds' fraction too; browsers show the same instant.
    expect((screen.getByLabelText('Launch') as HTMLInputElement).value).toMatch(/^2023-12-31T23:05:07/);
  });

  it('converts between local input text and instants both ways', () => {
    const iso = fromLocalInput('2020-02-29T12:00');
    expect(iso).toBe(new Date(2020, 1, 29, 12, 0).toISOString());
    expect(toLocalInput(iso)).toBe('2020-02-29T12:00');
    expect(toLocalInput('not a date')).toBe('');
  });
});
