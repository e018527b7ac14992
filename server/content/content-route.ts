/**
 * The options every content route is declared with: what it needs (server/lib/request-scope.ts),
 * its OpenAPI summary and tag, its schemas; and the addresses the content routes share.
 */
import type { TSchema } from '@sinclair/typebox';
import type { RouteAccess } from '../lib/request-scope.ts';
import { responses } from '../lib/schemas.ts';

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

/** The content API's addresses, declared beside the public API's in definitions/schemas/paths.ts. */
export {
  ProjectPath as inProject,
  CollectionPath as inCollection,
  FieldPath as inField,
  ItemPath as inItem,
  NestedQuery as nestedQuery,
} from '../../definitions/schemas/paths.ts';
