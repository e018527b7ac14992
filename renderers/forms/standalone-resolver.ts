/**
 * A react-hook-form resolver over a standalone validator. Errors carry catalogue keys (ajv-errors);
 * the failed keyword's parameters (`limit`, …) fill the message. Empty inputs count as absent, so
 * an empty required field says "required" rather than "too short".
 */
import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import type { Formatter } from '../../definitions/messages/create-formatter.ts';
import { fallbackErrorMessage } from '../../definitions/forms/error-messages.ts';
import type { MessageKey } from '../../definitions/messages/format.ts';
import type { StandaloneValidate, ValidationError } from './standalone-validator.ts';

export type FormValues = Record<string, string>;

function withoutEmpty(values: FieldValues): FormValues {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== '' && value !== undefined && value !== null)) as FormValues;
}

function fieldOf(error: ValidationError): string {
  const cause = error.params.errors?.[0];
  const missing = cause?.params.missingProperty ?? error.params.missingProperty;
  if (typeof missing === 'string') return missing;
  return error.instancePath.split('/')[1] ?? '';
}

export function standaloneResolver(validate: StandaloneValidate, format: Formatter<MessageKey>): Resolver<FormValues> {
  return async (values) => {
    const data = withoutEmpty(values);
    if (validate(data)) return { values: data, errors: {} };
    const errors: FieldErrors<FormValues> = {};
    for (const error of validate.errors ?? []) {
      const field = fieldOf(error);
      if (errors[field]) continue;
      const cause = error.params.errors?.[0] ?? error;
      const key = (error.keyword === 'errorMessage' && error.message ? error.message : fallbackErrorMessage) as MessageKey;
      errors[field] = { type: cause.keyword, message: format(key, cause.params as Record<string, string | number>) };
    }
    return { values: {}, errors };
  };
}
