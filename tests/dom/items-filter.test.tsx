/** The item list's filter control: fields, operators, defaults, encoding, warning. */
import '@testing-library/jest-dom/vitest';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SchemaField } from '../../definitions/field-types/index.ts';
import { FilterControl } from '../../src/screens/items/FilterControl.tsx';
import { chooseField, emptyFilter, escapeRegex, filterableFields, operatorsFor, toFilterParam } from '../../src/screens/items/filter-state.ts';

afterEach(cleanup);

const schema: SchemaField[] = [
  { id: 'm', name: 'Metadata', slug: 'metadata', type: 100 },
  { id: 't', name: 'Title', slug: 'title', type: 1 },
  { id: 'n', name: 'Price', slug: 'price', type: 3 },
  { id: 'b', name: 'Published', slug: 'published', type: 8 },
  { id: 'd', name: 'Launch', slug: 'launch', type: 10 },
  { id: 'o', name: 'Colour', slug: 'colour', type: 7, options: [{ _id: 'r', value: 'Red' }, { _id: 'g', value: 'Green' }] },
  { id: 'r', name: 'Author', slug: 'author', type: 6, referenceCollectionID: 'authors' },
  { id: 'p', name: 'Phone', slug: 'phone', type: 4 },
  { id: 'j', name: 'Data', slug: 'data', type: 14 },
  { id: 'g', name: 'Place', slug: 'place', type: 13 },
  { id: 'l', name: 'Site', slug: 'site', type: 9 },
  { id: 'h', name: 'Body', slug: 'body', type: 2 },
];

describe('filter state', () => {
  it('offers the filterable types only (Option, PlainText, Number, Bool, RichText, Date, ItemRef, Link)', () => {
    expect(filterableFields(schema).map((field) => field.slug)).toEqual(['title', 'price', 'published', 'launch', 'colour', 'author', 'site', 'body']);
  });

  it('takes operators from the registry: ranges for Number and Date, Contains for text', () => {
    expect(operatorsFor(schema[2])).toEqual(['=', '!=', '>', '<']);
    expect(operatorsFor(schema[1])).toContain('regex');
    expect(operatorsFor(schema[3])).not.toContain('>');
    expect(operatorsFor(schema[9])).toEqual([]);
  });

  it('defaults Bool to = true and PlainText to regex', () => {
    expect(chooseField(schema, 'published')).toMatchObject({ operator: '=', value: 'true' });
    expect(chooseField(schema, 'title')).toMatchObject({ operator: 'regex', value: '' });
    expect(toFilterParam(schema, chooseField(schema, 'published')).filter).toBe(JSON.stringify({ fieldName: 'Published', key: 'published', operator: '=', filterValue: true }));
  });

  it('sends date values as epoch seconds', () => {
    const state = { ...chooseField(schema, 'launch'), operator: '>' as const, value: '2026-03-01T10:30' };
    const sent = JSON.parse(toFilterParam(schema, state).filter ?? '{}') as { filterValue: number };
    expect(sent.filterValue).toBe(Math.floor(new Date('2026-03-01T10:30').getTime() / 1000));
  });

  it('matches Contains literally and ItemRef by the picked items', () => {
    expect(escapeRegex('a.b(c)')).toBe('a\\.b\\(c\\)');
    expect(JSON.parse(toFilterParam(schema, { ...chooseField(schema, 'title'), value: 'a+b' }).filter ?? '{}')).toMatchObject({ operator: 'regex', filterValue: 'a\\+b' });
    const refs = toFilterParam(schema, { ...chooseField(schema, 'author'), refs: [{ itemRefID: 'abc', value: 'Ann' }] });
    expect(JSON.parse(refs.filter ?? '{}')).toEqual({ fieldName: 'Author', key: 'author', operator: '=', refFilterVal: [{ itemRefID: 'abc', value: 'Ann' }] });
  });

  it('asks for a field and operator when a value comes without them, and sends nothing', () => {
    expect(toFilterParam(schema, { ...emptyFilter, value: 'x' })).toEqual({ filter: undefined, missingFieldOrOperator: true });
    expect(toFilterParam(schema, { ...chooseField(schema, 'title'), operator: '', value: 'x' })).toEqual({ filter: undefined, missingFieldOrOperator: true });
    expect(toFilterParam(schema, emptyFilter)).toEqual({ filter: undefined, missingFieldOrOperator: false });
  });
});

describe('FilterControl', () => {
  const scope = { organizationID: 'o', projectID: 'p' };

  it('lists the filterable fields and the chosen field’s operators, and reports the filter', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<FilterControl scope={scope} schema={schema} onChange={onChange} />);
    const field = screen.getByRole('combobox', { name: 'Field' });
    expect(screen.queryByRole('option', { name: 'Phone' })).toBeNull();
    expect(screen.queryByRole('option', { name: 'Place' })).toBeNull();
    await user.selectOptions(field, 'Price');
    const operator = screen.getByRole('combobox', { name: 'Operator' });
    expect([...(operator as HTMLSelectElement).options].map((o) => o.text)).toEqual(['Select an operator', 'Equals', 'Not equal', 'Greater Than', 'Less Than']);
    await user.selectOptions(operator, 'Greater Than');
    await user.type(screen.getByRole('textbox', { name: 'Value' }), '5');
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith(JSON.stringify({ fieldName: 'Price', key: 'price', operator: '>', filterValue: '5' })), { timeout: 2000 });
  });

  it('Bool starts at = true and applies at once', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<FilterControl scope={scope} schema={schema} onChange={onChange} />);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Field' }), 'Published');
    expect(screen.getByRole('combobox', { name: 'Operator' })).toHaveValue('=');
    expect(screen.getByRole('combobox', { name: 'Value' })).toHaveValue('true');
    await waitFor(() => expect(onChange).toHaveBeenLastCalledWith(JSON.stringify({ fieldName: 'Published', key: 'published', operator: '=', filterValue: true })));
  });

  it('warns "Please select a field and operator" for a value without them', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    render(<FilterControl scope={scope} schema={schema} onChange={onChange} />);
    await user.type(screen.getByRole('textbox', { name: 'Value' }), 'hello');
    expect(screen.getByRole('alert')).toHaveTextContent('Please select a field and operator');
    expect(screen.getByRole('textbox', { name: 'Value' })).toHaveAttribute('aria-invalid', 'true');
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(onChange).not.toHaveBeenCalledWith(expect.stringContaining('hello'));
  });
});
