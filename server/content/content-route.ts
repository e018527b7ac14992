/**
 * The options every content route is declared with: what it needs (server/lib/request-scope.ts),
 * its OpenAPI summary and tag, its schemas; and the addresses the content routes share.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import type { RouteAccess } from '../lib/request-scope.ts';
import { responses } from '../lib/schemas.ts';
import { CollectionId, Id, ItemId, NestedId } from './route-schemas.ts';

const security = [{ bearer: [] as string[] }];

export function contentRoute<S extends { params?: TSchema; querystring?: TSchema; headers?: TSchema; body?: TSchema }, R extends Record<number, TSchema>>(
  need: RouteAccess,
  summary: string,
  tag: string,
  schema: S,
  response: R,
) {
  return { config: need, schema: { summary, tags: [tag], security, ...schema, response: responses(response) } };
}

const FieldId = Type.String({ pattern: '^([0-9a-f]{24}|_metadata)$', description: 'a field id' });
const project = { org: Id, proj: Id };
export const inProject = Type.Object(project);
export const inCollection = Type.Object({ ...project, collection: CollectionId });
export const inField = Type.Object({ ...project, collection: CollectionId, field: FieldId });
export const inItem = Type.Object({ ...project, collection: CollectionId, item: ItemId });
/** `nestedID`: a nested level of the collection (slugs, or the item chain of item calls). */
export const nestedQuery = Type.Object({ nestedID: Type.Optional(NestedId) });
