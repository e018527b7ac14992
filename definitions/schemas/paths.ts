/**
 * The path parameters of the content addresses, declared once for both APIs: the console's
 * content API under `/api/organization/{org}/project/{proj}/` (the project is in the path, a field
 * is named by its id) and the public API under `/api/public/v1/` (the project is the API token's,
 * a field of an item is named by its slug). `nestedID` names a nested level of a collection: its
 * slugs, or the item chain of item calls (docs/content-storage.md).
 */
import { Type } from '@sinclair/typebox';
import { CollectionId, Id, ItemId, NestedId } from './item.ts';

const FieldId = Type.String({ pattern: '^([0-9a-f]{24}|_metadata)$', description: 'a field id' });
const FieldSlug = Type.String({ minLength: 1, maxLength: 200, pattern: '^[A-Za-z0-9_-]+$' });

const project = { org: Id, proj: Id };
const collection = { collection: CollectionId };
const item = { ...collection, item: ItemId };

/** `nestedID`, optional, as a query parameter of either API. */
export const nestedProperty = { nestedID: Type.Optional(NestedId) };

// The console's content API.
export const ProjectPath = Type.Object(project);
export const CollectionPath = Type.Object({ ...project, ...collection });
export const FieldPath = Type.Object({ ...project, ...collection, field: FieldId });
export const ItemPath = Type.Object({ ...project, ...item });
export const NestedQuery = Type.Object(nestedProperty);

// The public API.
export const PublicCollectionPath = Type.Object(collection);
export const PublicItemPath = Type.Object(item);
export const PublicItemFieldPath = Type.Object({ ...item, field: FieldSlug });
