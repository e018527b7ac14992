/**
 * A react-hook-form resolver over a standalone validator. Errors carry catalogue keys (ajv-errors);
 * the failed keyword's parameters (`limit`, …) fill the message. Values are prepared first
 * (prepare-values.ts): hidden fields dropped, trimmed, empty inputs absent.
 */
import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import type { Formatter } from '../../definitions/messages/create-formatter.ts';
import { fallbackErrorMessage } from '../../definitions/forms/error-messages.ts';
import type { FormDefinition } from '../../definitions/forms/types.ts';
import type { MessageKey } from '../../definitions/messages/format.ts';
import { prepareValues, type FormValues } from './prepare-values.ts';
import type { StandaloneValidate, ValidationError } from './standalone-validator.ts';

export type { FormValue, FormValues } from './prepare-values.ts';

function fieldOf(error: ValidationError): string {
  const cause = error.params.errors?.[0];
  const missing = cause?.params.missingProperty ?? error.params.missingProperty;
  if (typeof missing === 'string') return missing;
  return error.instancePath.split('/')[1] ?? '';
}

/** Validates prepared values; returns the payload, or an error message per field. */
export function validateValues(
  validate: StandaloneValidate,
  format: Formatter<MessageKey>,
  data: FormValues,
): { values: FormValues; errors: Record<string, { type: string; message: string }> } {
  if (validate(data)) return { values: data, errors: {} };
  const errors: Record<string, { type: string; message: string }> = {};
  for (const error of validate.errors ?? []) {
    const field = fieldOf(error);
    if (errors[field]) continue;
    const cause = error.params.errors?.[0] ?? error;
    const key = (error.keyword === 'errorMessage' && error.message ? error.message : fallbackErrorMessage) as MessageKey;
    errors[field] = { type: cause.keyword, message: format(key, cause.params as Record<string, string | number>) };
  }
  return { values: {}, errors };
}

export function standaloneResolver(
  validate: StandaloneValidate,
  format: Formatter<MessageKey>,
  definition: FormDefinition,
): Resolver<FieldValues> {
  return async (values) => {
    const result = validateValues(validate, format, prepareValues(definition, values));
    if (Object.keys(result.errors).length === 0) return { values: result.values, errors: {} };
    return { values: {}, errors: result.errors as FieldErrors<FieldValues> };
  };
}
