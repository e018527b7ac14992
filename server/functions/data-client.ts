/**
 * The host side of a function's calls (docs/functions.md "The data client"):
 *
 * - `data`: `ctx.data.list|get|create|update|delete` become calls of the public API
 *   (`/api/public/collection/…`) made in this process with `app.inject`, authenticated as the
 *   function's chosen API token through a run credential (ApiTokenService.grantRun), so the very
 *   checks, limits and metering of the public API apply. A refusal (403, 404, 400…) becomes a
 *   rejected promise inside the function: `Error: 403 not_permitted: …`.
 * - `fetch`: an outbound request through the URL guard (public addresses only, no redirects).
 */
import type { FastifyInstance } from 'fastify';
import type { functions } from '../db/schema.ts';

type FunctionRow = typeof functions.$inferSelect;

const FETCH_MAX_BYTES = 1024 * 1024;
const methods = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']);

const str = (value: unknown, what: string): string => {
  if (typeof value !== 'string' || value === '') throw new TypeError(`${what} must be a non-empty string.`);
  return value;
};

interface ListOptions {
  query?: string;
  sort?: string;
  order?: string;
  perPage?: number;
  pageNumber?: number;
  /** A nested list: the parent item's id and the nested list's path under it. */
  itemID?: string;
  nestedID?: string;
}

export function functionHost(app: FastifyInstance, timeoutMs: number) {
  return (fn: FunctionRow) => {
    const grant = fn.apiTokenId ? app.ctx.apiTokens.grantRun(fn.apiTokenId) : null;

    async function publicCall(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, query: Record<string, string>, payload?: unknown): Promise<unknown> {
      if (!grant) throw new Error('This function has no API token, so it has no data access: choose an API token in its settings.');
      const search = new URLSearchParams(query).toString();
      const response = await app.inject({
        method,
        url: `/api/public${path}${search ? `?${search}` : ''}`,
        headers: { authorization: `Bearer ${grant.bearer}`, 'content-type': 'application/json' },
        ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
      });
      const text = response.body;
      let body: unknown = undefined;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        body = text;
      }
      if (response.statusCode >= 400) {
        const problem = (body ?? {}) as { code?: string; detail?: string };
        throw new Error(`${response.statusCode} ${problem.code ?? 'error'}: ${problem.detail ?? text}`);
      }
      if (method === 'GET' && Array.isArray(body)) {
        const total = Number(response.headers['item-count']);
        return { items: body, itemCount: Number.isFinite(total) ? total : body.length };
      }
      return body ?? null;
    }

    const items = (collection: unknown) => `/collection/${encodeURIComponent(str(collection, 'The collection'))}/items`;

    async function data(op: unknown, args: unknown[]): Promise<unknown> {
      switch (op) {
        case 'list': {
          const options = (args[1] ?? {}) as ListOptions;
          if (typeof options !== 'object' || Array.isArray(options)) throw new TypeError('The list options must be an object.');
          const query: Record<string, string> = {};
          for (const key of ['query', 'sort', 'order', 'perPage', 'pageNumber'] as const) if (options[key] !== undefined) query[key] = String(options[key]);
          if (options.nestedID !== undefined) {
            query.nestedID = str(options.nestedID, 'nestedID');
            return publicCall('GET', `${items(args[0])}/${encodeURIComponent(str(options.itemID, 'itemID (the parent item of a nested list)'))}`, query);
          }
          return publicCall('GET', items(args[0]), query);
        }
        case 'get':
          return publicCall('GET', `${items(args[0])}/${encodeURIComponent(str(args[1], 'The item id'))}`, {});
        case 'create':
          return publicCall('POST', items(args[0]), {}, args[1] ?? {});
        case 'update':
          return publicCall('PUT', `${items(args[0])}/${encodeURIComponent(str(args[1], 'The item id'))}`, {}, args[2] ?? {});
        case 'delete':
          return publicCall('DELETE', `${items(args[0])}/${encodeURIComponent(str(args[1], 'The item id'))}`, {});
        default:
          throw new TypeError(`ctx.data has no operation "${String(op)}".`);
      }
    }

    async function fetch(url: unknown, init: unknown): Promise<unknown> {
      const options = (init ?? {}) as { method?: string; headers?: Record<string, string>; body?: string | null };
      const method = String(options.method ?? 'GET').toUpperCase();
      if (!methods.has(method)) throw new TypeError(`ctx.fetch does not send ${method} requests.`);
      const headers: Record<string, string> = {};
      for (const [key, value] of Object.entries(options.headers ?? {})) headers[key.toLowerCase()] = String(value);
      const body = options.body === null || options.body === undefined ? undefined : String(options.body);
      const answer = await app.ctx.outbound.request(str(url, 'The URL'), {
        method: method as 'GET',
        headers,
        ...(body === undefined ? {} : { body }),
        maxBytes: FETCH_MAX_BYTES,
        timeoutMs,
      });
      return { status: answer.status, headers: {}, text: answer.body.toString('utf8') };
    }

    return {
      host: async (name: string, args: unknown[]) => {
        if (name === 'data') return data(args[0], args.slice(1));
        if (name === 'fetch') return fetch(args[0], args[1]);
        throw new TypeError(`The host has no call "${name}".`);
      },
      end: () => grant?.end(),
    };
  };
}
