/**
 * The pure rules of the Functions screens (docs/functions.md "The console"): the lists a trigger
 * may name, the sample event a test run starts from, the server's refusals by field and the
 * compile errors by line, and how a run's figures read.
 */
import { fieldType } from '../../../definitions/field-types/index.ts';
import { nestedCollection } from '../../../definitions/field-types/nested-collection/index.ts';
import type { SchemaField } from '../../../definitions/field-types/types.ts';
import { isApiError } from '../../api/errors.ts';
import { collectionChoices, type CollectionChoice, type CollectionChoiceSource } from '../project/list-choices.ts';
import type { FunctionView } from '../../api/functions.ts';

/** A collection as the project lists it (project/list-choices.ts). */
export type CollectionSource = CollectionChoiceSource;
export type TriggerListChoice = CollectionChoice;

/** Every list an event trigger may name: the top-level collections and, under each, its nested lists. */
export const triggerListChoices = (collections: readonly CollectionSource[]): TriggerListChoice[] => collectionChoices(collections, true);

/** A made-up value of a field, by the kind of value its type holds. */
function sampleValue(field: SchemaField, now: string): unknown {
  switch (fieldType(field.type)?.valueKind) {
    case 'text':
      return `Sample ${field.name}`;
    case 'number':
      return 1;
    case 'bool':
      return true;
    case 'date':
      return now;
    default:
      return null;
  }
}

/**
 * The event a test run starts from: for a function that runs on item events, the event of an item
 * created in the first collection it listens to (else the project's first), as the event trigger
 * sends it; otherwise a request as the HTTP trigger sends it (docs/functions.md).
 */
export function sampleEvent(fn: Pick<FunctionView, 'events' | 'collections'>, collections: readonly CollectionSource[], now = new Date().toISOString()): unknown {
  const slug = fn.collections[0]?.split('.')[0];
  const collection = collections.find((c) => c.id === slug) ?? collections[0];
  if (fn.events.length > 0 && collection) {
    const trigger = fn.events.includes('create') ? 'create' : fn.events[0]!;
    const item: Record<string, unknown> = { _id: '000000000000000000000001', _createdDate: now, _lastUpdatedDate: now };
    for (const field of collection.schema ?? []) if (field.type !== nestedCollection.code) item[field.slug] = sampleValue(field, now);
    return { kind: 'item', trigger, collectionID: collection.id, collectionSlug: collection.id, itemID: item._id, rootItemID: null, nestedPath: '', item };
  }
  return { method: 'POST', path: '/', query: {}, headers: { 'content-type': 'application/json' }, body: { hello: 'world' }, caller: { kind: 'apiToken', id: 'sample' } };
}

/** A compile error at its place in the source (1-based, as the server answers it). */
export interface CompileError {
  line: number;
  column: number;
  message: string;
}

/** The compile errors of a refused save (400 function_compile_failed), each at its line and column. */
export function compileErrors(error: unknown): CompileError[] {
  if (!isApiError(error) || error.code !== 'function_compile_failed') return [];
  return (error.problem?.errors ?? []).map((entry) => ({
    line: Number(entry.params?.line ?? 1),
    column: Number(entry.params?.column ?? 1),
    message: entry.message.replace(/^\d+:\d+: /, ''),
  }));
}

/** The server's refusals of a function's settings (400 function_invalid), by the field they name. */
export function problemsByField(error: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isApiError(error) || !error.problem) return out;
  for (const entry of error.problem.errors ?? []) {
    const field = entry.path.split('/').filter(Boolean)[0];
    if (field) out[field] ??= entry.message || error.detail;
  }
  return out;
}

/** A run's time: milliseconds below a second, else seconds with one decimal. */
export function durationText(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** Memory in binary units: KB below a megabyte, else MB with one decimal. */
export function memoryText(bytes: number): string {
  return bytes < 1024 * 1024 ? `${Math.round(bytes / 1024)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** What a new function's editor starts with. */
export function starterSource(language: 'js' | 'ts'): string {
  return language === 'ts'
    ? "export default async function (event: Record<string, unknown>, ctx: any) {\n  console.log('event', event);\n  return { ok: true };\n}\n"
    : "export default async function (event, ctx) {\n  console.log('event', event);\n  return { ok: true };\n}\n";
}
