/**
 * What the public API's route files share: the caller of a request, the address schemas, the
 * refusal of server-owned keys in bodies, and a read-modify-write that survives concurrent writes.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { systemKeys } from '../../definitions/content.ts';
import { badRequest, unauthorized } from '../lib/errors.ts';
import { invalid } from '../content/collections.ts';
import { StaleItemError, type ItemService } from '../content/items.ts';
import type { Item } from '../content/storage.ts';
import type { Principal } from './principal.ts';

declare module 'fastify' {
  interface FastifyRequest {
    principal: Principal | null;
  }
}

export type PublicApp = FastifyInstance;

/** The caller of a request that passed the plugin's authentication hook. */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw unauthorized('missing_token', 'Send the project API token as a bearer token.');
  return request.principal;
}

export const security = [{ bearer: [] as string[] }];
export const tags = ['public'];

/** The public API's addresses, declared beside the content API's in definitions/schemas/paths.ts. */
export {
  PublicCollectionPath as inCollection,
  PublicItemPath as inItem,
  PublicItemFieldPath as inField,
  nestedProperty as nestedQuery,
} from '../../definitions/schemas/paths.ts';

/** A JSON object body (the client sends some as strings with another Content-Type; the plugin's parser read them as JSON). */
export function objectBody(body: unknown, allowEmpty = false): Record<string, unknown> {
  if ((body === undefined || body === null) && allowEmpty) return {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw badRequest('invalid_body', 'The body must be a JSON object.');
  return body as Record<string, unknown>;
}

/**
 * Server-owned keys in a write are refused, nothing written (mass-assignment).
 * `_id` may only repeat the id the address names (the client's set sends it as the custom id).
 */
export function refuseServerKeys(body: Record<string, unknown>, addressedId?: string): void {
  const problems = (systemKeys as readonly string[])
    .filter((key) => key in body && !(key === '_id' && addressedId !== undefined && body._id === addressedId))
    .map((key) => ({ path: key, message: 'is set by the server and cannot be written' }));
  if (problems.length) throw invalid(problems);
}

/** Without the server's own keys (an `_id` allowed by refuseServerKeys is the address itself). */
export function valuesOnly(body: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) if (!(systemKeys as readonly string[]).includes(key)) out[key] = value;
  return out;
}

/**
 * Changes one field of an item from its current value, retried when another write came in
 * between (the change is computed again from the item as it is then), so concurrent increments
 * and appends all land.
 */
export async function changeField(
  items: ItemService,
  projectId: string,
  at: { collection: string; item: string; nestedID: string | undefined },
  slug: string,
  start: Item,
  change: (current: unknown) => unknown,
): Promise<Item> {
  let current = start;
  for (let attempt = 0; ; attempt++) {
    try {
      return await items.update(projectId, at.collection, at.item, { [slug]: change(current[slug] ?? null) }, { nestedID: at.nestedID, version: current._lastUpdatedDate });
    } catch (error) {
      if (!(error instanceof StaleItemError) || attempt >= 20) throw error;
      current = error.current;
    }
  }
}
