/**
 * What a form holds before it is validated and sent: values of hidden fields dropped, fields
 * marked `trim` trimmed, and empty inputs (an empty text, a number input left blank) left out, so
 * an empty required field says "required" rather than "too short".
 */
import type { FieldValues } from 'react-hook-form';
import type { FormDefinition } from '../../definitions/forms/types.ts';

export type FormValue = string | number | boolean;
export type FormValues = Record<string, FormValue>;

/** Whether a field is shown with the form's current values. */
export function isFieldVisible(definition: FormDefinition, name: string, values: FieldValues): boolean {
  const field = definition.fields.find((entry) => entry.name === name);
  if (!field?.visibleWhen) return true;
  return values[field.visibleWhen.field] === field.visibleWhen.equals;
}

const isEmpty = (value: unknown) => value === '' || value === undefined || value === null || (typeof value === 'number' && Number.isNaN(value));

export function prepareValues(definition: FormDefinition, values: FieldValues): FormValues {
  const out: FormValues = {};
  for (const [name, raw] of Object.entries(values)) {
    if (!isFieldVisible(definition, name, values)) continue;
    const field = definition.fields.find((entry) => entry.name === name);
    const value = field?.trim && typeof raw === 'string' ? raw.trim() : raw;
    if (isEmpty(value)) continue;
    out[name] = value as FormValue;
  }
  return out;
}

/** A blocking field is blank: the submit button waits for it (definition `submitRequires`). */
export function isSubmitBlocked(definition: FormDefinition, values: FieldValues): boolean {
  return (definition.submitRequires ?? []).some((name) => {
    const value = values[name];
    return typeof value !== 'string' ? isEmpty(value) : value.trim() === '';
  });
}
