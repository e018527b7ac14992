/** Plain text, number, phone and link editors: what they let into the field and what they emit. */
import '@testing-library/jest-dom/vitest';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { field, renderEditor } from './support.tsx';

afterEach(cleanup);

describe('PlainText editor', () => {
  it('counts characters against the field maximum and cuts input past it', async () => {
    const user = userEvent.setup();
    const { lastValue } = renderEditor(field(1, { name: 'Title', max: 5 }));
    const input = screen.getByLabelText('Title');
    await user.type(input, 'abcdefg');
    expect(input).toHaveValue('abcde');
    expect(lastValue()).toBe('abcde');
    expect(screen.getByText('5 of 5 characters')).toBeInTheDocument();
    expect(screen.getByText('At most 5 characters.')).toBeInTheDocument();
  });

  it('refuses a character typed into the middle of a full field instead of dropping the last one', async () => {
    const user = userEvent.setup();
    const { onChange } = renderEditor(field(1, { name: 'Title', max: 5 }), { value: 'abcde' });
    const input = screen.getByLabelText('Title') as HTMLTextAreaElement;
    await user.click(input);
    input.setSelectionRange(2, 2);
    await user.keyboard('X');
    expect(input).toHaveValue('abcde');
    expect(onChange).toHaveBeenLastCalledWith('abcde');
    expect(screen.getByText('At most 5 characters.')).toBeInTheDocument();
  });

  it('cuts a paste where the room runs out, keeping the text around it', async () => {
    const user = userEvent.setup();
    const { lastValue } = renderEditor(field(1, { name: 'Title', max: 6 }), { value: 'abcd' });
    const input = screen.getByLabelText('Title') as HTMLTextAreaElement;
    await user.click(input);
    input.setSelectionRange(1, 1);
    await user.paste('XYZ');
    expect(lastValue()).toBe('aXYbcd');
  });

  it('counts characters as people do: an emoji is one, and never split', async () => {
    const user = userEvent.setup();
    const { lastValue } = renderEditor(field(1, { name: 'Title', max: 3 }), { value: 'ab' });
    await user.click(screen.getByLabelText('Title'));
    await user.paste('😀😀');
    expect(lastValue()).toBe('ab😀');
    expect(screen.getByText('3 of 3 characters')).toBeInTheDocument();
  });

  it('lets a text stored over a lowered maximum be shortened without cutting it', async () => {
    const user = userEvent.setup();
    const { lastValue } = renderEditor(field(1, { name: 'Title', max: 3 }), { value: 'abcdef' });
    const input = screen.getByLabelText('Title');
    await user.click(input);
    await user.keyboard('{End}{Backspace}');
    expect(lastValue()).toBe('abcde');
    expect(input).toHaveValue('abcde');
  });

  it('holds text under the minimum as a problem and says so once the field is left', async () => {
    const user = userEvent.setup();
    const { lastProblem } = renderEditor(field(1, { name: 'Title', min: 3 }));
    const input = screen.getByLabelText('Title');
    await user.type(input, 'ab');
    expect(lastProblem()).toBe('Enter at least 3 characters.');
    expect(screen.queryByText('Enter at least 3 characters.')).not.toBeInTheDocument();
    await user.tab();
    expect(screen.getByText('Enter at least 3 characters.')).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(input).toHaveAccessibleDescription(expect.stringContaining('Enter at least 3 characters.'));
    await user.type(input, 'c');
    expect(lastProblem()).toBeUndefined();
  });

  it('emits null when emptied and shows the page error, described by it', async () => {
    const user = userEvent.setup();
    const { lastValue } = renderEditor(field(1, { name: 'Title' }), { value: 'x', error: 'Title is a required field' });
    const input = screen.getByLabelText('Title');
    await user.clear(input);
    expect(lastValue()).toBeNull();
    expect(input).toHaveAccessibleDescription(expect.stringContaining('Title is a required field'));
  });
});

describe('Number editor', () => {
  it('refuses letters at the field: nothing changes and it says "Value must be a number"', async () => {
    const user = userEvent.setup();
    const { onChange } = renderEditor(field(3, { name: 'Price' }));
    const input = screen.getByLabelText('Price');
    await user.type(input, 'abc');
    expect(input).toHaveValue('');
    expect(onChange).not.toHaveBeenCalled();
    expect(screen.getByText('Value must be a number')).toBeInTheDocument();
  });

  it('takes digits and one dot and emits a number', async () => {
    const user = userEvent.setup();
    const { lastValue } = renderEditor(field(3, { name: 'Price' }));
    const input = screen.getByLabelText('Price');
    await user.type(input, '12x.5.0');
    expect(input).toHaveValue('12.50');
    expect(lastValue()).toBe(12.5);
    expect(typeof lastValue()).toBe('number');
  });

  it('holds an unfinished numeral back as a problem and emits null when emptied', async () => {
    const user = userEvent.setup();
    const { lastValue, lastProblem, onChange } = renderEditor(field(3, { name: 'Price' }), { value: 4 });
    const input = screen.getByLabelText('Price');
    expect(input).toHaveValue('4');
    await user.clear(input);
    expect(lastValue()).toBeNull();
    await user.type(input, '-');
    expect(onChange).toHaveBeenCalledTimes(1);
    expect(lastProblem()).toBe('Value must be a number');
    await user.type(input, '3');
    expect(lastValue()).toBe(-3);
    expect(lastProblem()).toBeUndefined();
  });

  it('holds a numeral too large to be a number as a problem instead of sending it as null', async () => {
    const user = userEvent.setup();
    const { onChange, lastValue, lastProblem } = renderEditor(field(3, { name: 'Price' }));
    const input = screen.getByLabelText('Price');
    await user.click(input);
    await user.paste('9'.repeat(309));
    expect(input).toHaveValue('9'.repeat(309));
    expect(onChange).not.toHaveBeenCalled();
    expect(lastProblem()).toBe('This number is too large to store.');
    expect(screen.getByText('This number is too large to store.')).toBeInTheDocument();
    expect(input).toHaveAttribute('aria-invalid', 'true');
    await user.clear(input);
    await user.paste('9'.repeat(300));
    expect(lastValue()).toBe(Number('9'.repeat(300)));
    expect(lastProblem()).toBeUndefined();
  });
});

describe('Phone editor', () => {
  // More in phone.test.tsx.
  it('emits digits only: letters typed change nothing, the usual characters stay as typed', async () => {
    const user = userEvent.setup();
    const { lastValue } = renderEditor(field(4, { name: 'Phone' }));
    const input = screen.getByLabelText('Phone');
    await user.type(input, '55a5-1');
    expect(input).toHaveValue('555-1');
    expect(lastValue()).toBe('5551');
    expect(screen.getByText('A phone number holds digits, spaces and + ( ) - . only.')).toBeInTheDocument();
  });

  it('refuses a letter into an empty field without emitting anything', async () => {
    const user = userEvent.setup();
    const { onChange } = renderEditor(field(4, { name: 'Phone' }));
    await user.type(screen.getByLabelText('Phone'), 'x');
    expect(screen.getByLabelText('Phone')).toHaveValue('');
    expect(onChange).not.toHaveBeenCalled();
  });
});

describe('Link editor', () => {
  it('keeps 256 of 300 characters and shows the limit', async () => {
    const user = userEvent.setup();
    const { lastValue } = renderEditor(field(9, { name: 'Site' }));
    const input = screen.getByLabelText('Site');
    const long = `https://example.com/${'a'.repeat(280)}`;
    expect(long).toHaveLength(300);
    await user.click(input);
    await user.paste(long);
    expect(input).toHaveValue(long.slice(0, 256));
    expect(lastValue()).toBe(long.slice(0, 256));
    expect(screen.getByText('At most 256 characters.')).toBeInTheDocument();
    expect(screen.getByText('256 of 256 characters')).toBeInTheDocument();
  });

  it('keeps 256 characters when they are typed one by one', async () => {
    const user = userEvent.setup();
    renderEditor(field(9, { name: 'Site' }));
    const input = screen.getByLabelText('Site');
    await user.click(input);
    await user.paste('b'.repeat(254));
    await user.type(input, 'cccc');
    expect(input).toHaveValue(`${'b'.repeat(254)}cc`);
    expect(screen.getByText('At most 256 characters.')).toBeInTheDocument();
  });

  it('refuses typing into a full address rather than cutting its end', async () => {
    const user = userEvent.setup();
    const full = `https://example.com/${'a'.repeat(235)}z`;
    expect(full).toHaveLength(256);
    const { lastValue } = renderEditor(field(9, { name: 'Site' }), { value: full });
    const input = screen.getByLabelText('Site') as HTMLInputElement;
    await user.click(input);
    input.setSelectionRange(8, 8);
    await user.keyboard('w');
    expect(input).toHaveValue(full);
    expect(lastValue()).toBe(full);
    expect(screen.getByText('At most 256 characters.')).toBeInTheDocument();
  });

  it('holds a script address as a problem and offers to open a web address', async () => {
    const user = userEvent.setup();
    const { lastProblem } = renderEditor(field(9, { name: 'Site' }));
    const input = screen.getByLabelText('Site');
    await user.click(input);
    await user.paste('javascript:alert(1)');
    expect(lastProblem()).toMatch(/http, https, mailto, tel or ftp/);
    expect(input).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByRole('link', { name: 'Open link' })).not.toBeInTheDocument();
    await user.clear(input);
    await user.paste('https://example.com');
    expect(lastProblem()).toBeUndefined();
    expect(screen.getByRole('link', { name: 'Open link' })).toHaveAttribute('href', 'https://example.com');
  });
});
