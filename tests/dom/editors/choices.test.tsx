/** Bool, Option and Date editors. */
import '@testing-library/jest-dom/vitest';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ui } from '../../../definitions/constants.ts';
import { fromLocalInput, toLocalInput } from '../../../renderers/fields/date/local-input.ts';
import { field, renderEditor } from './support.tsx';

afterEach(() => {
  vi.useRealTimers();
  cleanup();
});

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

  it("starts a new item at the field's default, which the server stores when the switch is left alone", async () => {
    const user = userEvent.setup();
    const { onChange, lastValue } = renderEditor(field(8, { name: 'Published', defaultValue: true }));
    const control = screen.getByRole('checkbox', { name: 'Published' });
    expect(control).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByText('Yes')).toBeInTheDocument();
    expect(onChange).not.toHaveBeenCalled();
    await user.click(control);
    expect(lastValue()).toBe(false);
    cleanup();
    // A saved item without a value was stored before the default: it is not set.
    const item = { _id: 'abc123abc123abc123abc123', _createdDate: '', _lastUpdatedDate: '', _order: 1, _rank: 'a0' };
    renderEditor(field(8, { name: 'Published', defaultValue: true }), { value: null, environment: { item } });
    expect(screen.getByRole('checkbox', { name: 'Published' })).toHaveAttribute('aria-checked', 'mixed');
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
    // The dropdown opens about 100 ms later, not at once.
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

  it('opens and closes exactly the product delay (about 100 ms) after being asked', () => {
    expect(ui.dropdownDelayMs).toBe(100);
    vi.useFakeTimers();
    renderEditor(colour);
    const trigger = screen.getByRole('combobox', { name: 'Colour' });
    trigger.focus();
    fireEvent.keyDown(trigger, { key: 'Enter' });
    act(() => vi.advanceTimersByTime(ui.dropdownDelayMs - 1));
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.getByRole('listbox')).toBeInTheDocument();
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' });
    act(() => vi.advanceTimersByTime(ui.dropdownDelayMs - 1));
    expect(screen.getByRole('listbox')).toBeInTheDocument();
    act(() => vi.advanceTimersByTime(1));
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
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
  // A zone far from UTC (and from the machine's), so a label or an instant in the wrong zone shows.
  const machineZone = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = 'Asia/Tokyo';
  });
  afterAll(() => {
    if (machineZone === undefined) delete process.env.TZ;
    else process.env.TZ = machineZone;
  });

  it('shows the guessed time zone and emits the instant as ISO text', () => {
    const { lastValue } = renderEditor(field(10, { name: 'Launch' }));
    expect(screen.getByText('Time zone: Asia/Tokyo')).toBeInTheDocument();
    const input = screen.getByLabelText('Launch');
    expect(input).toHaveAccessibleDescription(expect.stringContaining('Asia/Tokyo'));
    fireEvent.change(input, { target: { value: '2024-05-01T09:30' } });
    // 09:30 in Tokyo (UTC+9).
    expect(lastValue()).toBe('2024-05-01T00:30:00.000Z');
    fireEvent.change(input, { target: { value: '' } });
    expect(lastValue()).toBeNull();
  });

  it('holds a half-filled date as a problem instead of clearing the stored one', () => {
    const stored = '2024-05-01T00:30:00.000Z';
    const { onChange, lastProblem } = renderEditor(field(10, { name: 'Launch' }), { value: stored });
    const input = screen.getByLabelText('Launch') as HTMLInputElement;
    expect(input.value).toBe('2024-05-01T09:30');
    // A browser reports a date with a blank part as '' with validity.badInput (jsdom has no date parts).
    const validity = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(input), 'validity')!;
    Object.defineProperty(input, 'validity', { configurable: true, get: () => ({ ...validity.get!.call(input), badInput: true }) });
    fireEvent.change(input, { target: { value: '' } });
    expect(onChange).not.toHaveBeenCalled();
    expect(lastProblem()).toBe('Fill in every part of the date and time, or clear them all.');
    expect(screen.getByText('Fill in every part of the date and time, or clear them all.')).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    // Every part blank again: the date is cleared on purpose.
    delete (input as { validity?: unknown }).validity;
    fireEvent.change(input, { target: { value: '2024-05-02T09:30' } });
    fireEvent.change(input, { target: { value: '' } });
    expect(onChange).toHaveBeenLastCalledWith(null);
    expect(lastProblem()).toBeUndefined();
    expect(input).not.toHaveAttribute('aria-invalid');
  });

  it('shows a stored instant in local time', () => {
    const stored = '2023-12-31T14:05:07.000Z';
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
