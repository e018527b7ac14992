/** Ids of the content API and an item as it answers it (docs/content-storage.md). */
import { Type, type Static } from '@sinclair/typebox';
import { itemIdRule } from '../content.ts';

export const Id = Type.String({ pattern: '^[0-9a-f]{24}$', description: '24-character hex id' });
/** An item id: generated ones are 24 hex characters, callers may choose others by the rule in definitions/content.ts. */
export const ItemId = Type.String({ minLength: 1, ...itemIdRule, description: 'an item id: 1-64 letters, digits, - and _ (case-sensitive)' });
export const CollectionId = Type.String({ pattern: '^[A-Za-z0-9-]{1,64}$', description: 'the collection ID (letters, digits and hyphens)' });
export const NestedId = Type.String({ maxLength: 2000, pattern: '^[A-Za-z0-9_.-]*$', description: 'dot-joined chain alternating nested collection slugs and item ids' });

export const Item = Type.Object(
  { _id: Type.String(), _createdDate: Type.String(), _lastUpdatedDate: Type.String(), _order: Type.Number(), _rank: Type.String() },
  { additionalProperties: true, description: 'an item: system keys and one value per set field, keyed by slug' },
);
/** An item: system keys and one value per set field, keyed by slug. */
export type Item = Static<typeof Item> & { [slug: string]: unknown };
