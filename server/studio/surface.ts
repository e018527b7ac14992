/**
 * What the generated document copies from the server's own route table (docs/studio.md "The
 * generated document"): the query parameters the public API's routes accept, the item id's
 * rule, the end-user auth calls and the problem shape, read once from the application's OpenAPI
 * description (@fastify/swagger, built from the routes' declared schemas). So the document
 * lists exactly what `server/public` and `/auth/public` accept, and follows them when they change.
 */
import type { FastifyInstance } from 'fastify';

export type Json = Record<string, unknown>;
export interface Parameter extends Json {
  name: string;
  in: string;
  schema?: Json;
  description?: string;
  required?: boolean;
}

export interface PublicSurface {
  /** `GET …/collection/{c}/items` (and the nested lists): paging, sort, filters, projections, `everything`. */
  listParams: Parameter[];
  /** `GET …/items/{item}`: the same list parameters, which a nested list also takes. */
  itemParams: Parameter[];
  /** The path parameter `item` (the id rule). */
  itemId: Json;
  /** `PUT …/items/{item}`: `set`. */
  putParams: Parameter[];
  /** `PUT …/field/{field}`: `increment`. */
  fieldParams: Parameter[];
  /** `PUT …/image`: `imageSlug`. */
  imageParams: Parameter[];
  /** `GET …/live`: `authorization`, `requestID`, `nestedID`, `itemID`. */
  liveParams: Parameter[];
  /** `GET /project`: `withSchemas`. */
  projectParams: Parameter[];
  /** The `/auth/public/user…` paths (without the prefix) and their operations. */
  auth: Record<string, Json>;
  /** The problem details every refusal answers with (RFC 9457). */
  problem: Json;
}

const surfaces = new WeakMap<object, PublicSurface>();

/** JSON Schema of OpenAPI 3.0 (`nullable`) as OpenAPI 3.1 writes it (a `null` type), all the way down. */
export function toJsonSchema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toJsonSchema);
  if (!value || typeof value !== 'object') return value;
  const out: Json = {};
  for (const [key, inner] of Object.entries(value as Json)) {
    if (key === 'nullable') continue;
    out[key] = toJsonSchema(inner);
  }
  if ((value as Json).nullable === true) {
    if (typeof out.type === 'string') out.type = [out.type, 'null'];
    else if (Array.isArray(out.type)) out.type = [...new Set([...(out.type as string[]), 'null'])];
    else return { anyOf: [out, { type: 'null' }] };
  }
  return out;
}

/** The public API's surface of this application (read once: the route table does not change after start). */
export function publicSurface(app: FastifyInstance): PublicSurface {
  const known = surfaces.get(app.ctx);
  if (known) return known;
  const doc = toJsonSchema((app as unknown as { swagger(): unknown }).swagger()) as { paths: Record<string, Record<string, { parameters?: Parameter[] }>>; components?: { schemas?: Json } };
  const op = (path: string, method: string) => {
    const found = doc.paths[path]?.[method];
    if (!found) throw new Error(`The route ${method.toUpperCase()} ${path} is not in the route table.`);
    return found;
  };
  const query = (path: string, method: string, leave: string[] = []) =>
    (op(path, method).parameters ?? []).filter((p) => p.in === 'query' && !leave.includes(p.name));
  const items = '/api/public/collection/{collection}/items';
  const auth: Record<string, Json> = {};
  for (const [path, item] of Object.entries(doc.paths)) {
    // The calls on project users (`/user…`); not the console's own pages (`bagel-auth-…`) nor the preflight.
    if (!path.startsWith('/auth/public/user')) continue;
    const { options: _preflight, ...operations } = item as Json;
    auth[path.slice('/auth/public'.length)] = operations;
  }
  const surface: PublicSurface = {
    listParams: query(items, 'get', ['nestedID']),
    itemParams: query(`${items}/{item}`, 'get', ['nestedID']),
    itemId: (op(`${items}/{item}`, 'get').parameters ?? []).find((p) => p.in === 'path' && p.name === 'item')?.schema ?? { type: 'string' },
    putParams: query(`${items}/{item}`, 'put', ['nestedID']),
    fieldParams: query(`${items}/{item}/field/{field}`, 'put', ['nestedID']),
    imageParams: query(`${items}/{item}/image`, 'put', ['nestedID']),
    liveParams: query('/api/public/collection/{collection}/live', 'get'),
    projectParams: query('/api/public/project', 'get'),
    auth,
    problem: (doc.components?.schemas?.Problem as Json | undefined) ?? { type: 'object' },
  };
  surfaces.set(app.ctx, surface);
  return surface;
}
