import type { FormDefinition } from '../../definitions/forms/types.ts';
import { isApiError } from '../api/errors.ts';

/**
 * Field messages of a validation problem (`errors: [{ path: 'body/username', message }]`) for the
 * fields the form shows, so the server's verdict appears next to the field it concerns.
 */
export function problemFieldErrors(error: unknown, definition: FormDefinition): Record<string, string> | undefined {
  if (!isApiError(error) || !error.problem?.errors?.length) return undefined;
  const names = new Set(definition.fields.map((field) => field.name));
  const result: Record<string, string> = {};
  for (const entry of error.problem.errors) {
    const name = entry.path.split('/').filter(Boolean).pop();
    if (name && names.has(name) && !result[name]) result[name] = entry.message;
  }
  return Object.keys(result).length ? result : undefined;
}
