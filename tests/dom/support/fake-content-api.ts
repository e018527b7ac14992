/**
 * A content API for component tests where every call fails loudly ("… was not expected") unless
 * the test gives it: a screen that makes a call its test did not plan for fails the test.
 */
import { vi, type Mock } from 'vitest';
import type { ContentApi } from '../../../src/api/content.ts';

/** Every method of ContentApi; the type check fails when the interface gains one this list lacks. */
const methods = [
  'collections',
  'collection',
  'createCollection',
  'updateCollection',
  'deleteCollection',
  'schema',
  'replaceSchema',
  'reorderSchema',
  'addField',
  'addNestedField',
  'updateField',
  'deleteField',
  'items',
  'item',
  'createItem',
  'updateItem',
  'deleteItem',
  'listItems',
  'itemsCsv',
  'importItems',
  'initRank',
  'moveItem',
] as const satisfies readonly (keyof ContentApi)[];
type Missing = Exclude<keyof ContentApi, (typeof methods)[number]>;
const complete: Missing extends never ? true : Missing = true;
void complete;

export type StrictContentApi = Record<(typeof methods)[number], Mock>;

export function strictContentApi(given: Partial<Record<keyof ContentApi, Mock>> = {}): StrictContentApi {
  const api = Object.fromEntries(
    methods.map((name) => [
      name,
      vi.fn(async () => {
        throw new Error(`${name} was not expected`);
      }),
    ]),
  ) as StrictContentApi;
  return Object.assign(api, given);
}
