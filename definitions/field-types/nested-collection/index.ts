/**
 * NestedCollection (12): a list of items inside each item, with a schema of its own. Its items
 * live in a child table and are written through `nestedID` calls, never inside the parent's body.
 */
import { fail } from '../support.ts';
import type { FieldType } from '../types.ts';

export const nestedCollection: FieldType<'NestedCollection'> = {
  code: 12,
  name: 'NestedCollection',
  labelKey: 'fieldType.nestedCollection',
  icon: 'folder-tree',
  valueSchema: { type: 'array', items: { type: 'object', properties: { _id: { type: 'string' } }, required: ['_id'] } },
  capabilities: { creatable: true, primary: false, required: false, unique: false, sortable: false },
  settings: ['nestedCollectionSchema'],
  filterOperators: [],
  storage: { kind: 'table' },
  validate: () => fail('nestedWrittenApart'),
  isEmpty: (value) => !Array.isArray(value) || value.length === 0,
  display: (value) => (Array.isArray(value) ? `${value.length}` : ''),
};
