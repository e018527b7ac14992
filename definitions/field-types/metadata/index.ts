/** Metadata (100): the schema's stand-in for the item's own `_id` and dates; never written, never created. */
import { fail } from '../support.ts';
import type { FieldType } from '../types.ts';

export const metadata: FieldType<'Metadata'> = {
  code: 100,
  name: 'Metadata',
  labelKey: 'fieldType.metadata',
  icon: 'info',
  valueSchema: {
    type: 'object',
    properties: { _id: { type: 'string' }, _createdDate: { type: 'string' }, _lastUpdatedDate: { type: 'string' } },
  },
  capabilities: { creatable: false, primary: false, required: false, unique: false, sortable: false },
  settings: [],
  filterOperators: [],
  storage: { kind: 'none' },
  validate: () => fail('serverKept'),
  isEmpty: () => false,
  display: () => '',
};

/** The schema entry standing for the item's metadata; it is in every schema and never edited. */
export const metadataField = { id: '_metadata', name: metadata.name, slug: '_metadata', type: metadata.code } as const;
