/**
 * The part of an object schema that a form fills in: the server's schema of a payload, minus the
 * properties the screen supplies itself (a token from the URL, for example).
 */
import type { JsonSchemaObject } from './types.ts';

export function pickProperties(schema: JsonSchemaObject, names: readonly string[]): JsonSchemaObject {
  const keep = new Set(names);
  return {
    ...schema,
    properties: Object.fromEntries(Object.entries(schema.properties).filter(([name]) => keep.has(name))),
    ...(schema.required ? { required: schema.required.filter((name) => keep.has(name)) } : {}),
  };
}
