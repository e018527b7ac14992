/** The field standing for an item in titles when nothing else is chosen. */
import { fieldType } from './index.ts';
import type { SchemaField } from './types.ts';

/**
 * The schema's primary field, else its first field of a type that is a title candidate
 * (`capabilities.titleCandidate`); undefined when it has neither.
 */
export function titleField<Field extends SchemaField>(schema: readonly Field[] | undefined): Field | undefined {
  if (!schema) return undefined;
  return schema.find((field) => field.primaryField) ?? schema.find((field) => fieldType(field.type)?.capabilities.titleCandidate === true);
}
