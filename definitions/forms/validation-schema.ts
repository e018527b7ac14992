/**
 * Turns a form definition into the schema its validator is compiled from: the payload schema plus
 * ajv-errors `errorMessage` entries, so every failure carries a catalogue key instead of ajv's
 * English. Pure: the build plugin and the tests call it alike.
 */
import { defaultErrorMessages } from './error-messages.ts';
import type { FormDefinition, JsonSchemaObject } from './types.ts';

/** Keywords that do not fail on their own and so need no message. */
const silentKeywords = new Set(['type', 'title', 'description', 'default', 'examples', '$id', '$schema', 'errorMessage']);

export function validationSchema(definition: FormDefinition): JsonSchemaObject {
  const source = definition.schema;
  const properties: Record<string, object> = {};
  for (const [name, property] of Object.entries(source.properties)) {
    const overrides = definition.errorMessages?.[name] ?? {};
    const messages: Record<string, string> = {};
    for (const keyword of Object.keys(property)) {
      if (silentKeywords.has(keyword)) continue;
      const key = overrides[keyword] ?? defaultErrorMessages[keyword];
      if (key) messages[keyword] = key;
    }
    const typeKey = overrides.type ?? defaultErrorMessages.type;
    if (typeKey) messages.type = typeKey;
    properties[name] = Object.keys(messages).length ? { ...property, errorMessage: messages } : { ...property };
  }
  const required = source.required ?? [];
  const requiredMessages = Object.fromEntries(
    required.map((name) => [name, definition.errorMessages?.[name]?.required ?? defaultErrorMessages.required]),
  );
  return {
    ...source,
    properties,
    ...(required.length ? { errorMessage: { required: requiredMessages } } : {}),
  };
}
