/**
 * The HTTP trigger (docs/functions.md "The HTTP trigger"): `/functions/v1/{projectID}/{name}` and
 * anything below it, any method, runs the function's DEPLOYED version. The caller sends a project
 * API token or one of the project's app users' access tokens as a bearer, unless the function is
 * public. The function's value is answered as JSON, or `{status, headers, body}` as it says.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { functionLimits } from '../../definitions/schemas/functions.ts';
import { bearerToken } from '../auth/authenticate.ts';
import { AppError, forbidden } from '../lib/errors.ts';
import { resolvePrincipal } from '../public/principal.ts';
import { meterBandwidth } from '../usage/routes.ts';
import { functionNotFound, type FunctionService } from './service.ts';

const ID = /^[0-9a-f]{24}$/;
const NAME = new RegExp(functionLimits.namePattern);
/** Headers the answer cannot set: the server frames the answer itself. */
const framing = new Set(['content-length', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'trailer']);

type Caller = { kind: 'apiToken' | 'appUser'; id: string } | { kind: 'public'; id: null };

/** A function's answer of its own: an object of `status` (100–599) with only `headers` and `body` besides. */
function ownAnswer(value: unknown): { status: number; headers: Record<string, unknown>; body: unknown } | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const { status, headers, body, ...rest } = value as Record<string, unknown>;
  if (Object.keys(rest).length || !Number.isInteger(status) || (status as number) < 100 || (status as number) > 599) return null;
  if (headers !== undefined && (typeof headers !== 'object' || headers === null || Array.isArray(headers))) return null;
  return { status: status as number, headers: (headers ?? {}) as Record<string, unknown>, body };
}

export async function functionHttpRoutes(app: FastifyInstance, { service }: { service: FunctionService }) {
  // Bodies as they come, at most 1 MB: JSON when the type says so, else text.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: functionLimits.httpBodyBytes }, (request, body, done) => {
    const text = String(body);
    if (/\bjson\b/i.test(request.headers['content-type'] ?? '') && text.trim() !== '') {
      try {
        done(null, JSON.parse(text));
      } catch {
        done(new AppError(400, 'malformed_json', 'The body says it is JSON but is not.'), undefined);
      }
      return;
    }
    done(null, text);
  });

  async function caller(request: FastifyRequest, projectId: string, isPublic: boolean): Promise<Caller> {
    const token = bearerToken(request);
    if (!token && isPublic) return { kind: 'public', id: null };
    const principal = await resolvePrincipal(app, token);
    if (principal.projectId !== projectId) throw forbidden('not_permitted', 'This token belongs to another project.');
    if (principal.kind === 'token') {
      // A Studio token carries a member's preview rights, not a project's app (docs/studio.md).
      if (principal.studio) throw forbidden('studio_token_not_allowed', 'Studio tokens cannot call functions.');
      return { kind: 'apiToken', id: principal.tokenId };
    }
    return { kind: 'appUser', id: principal.userId };
  }

  async function handle(request: FastifyRequest<{ Params: { projectID: string; name: string; '*'?: string } }>, reply: FastifyReply) {
    const { projectID, name } = request.params;
    if (!ID.test(projectID) || !NAME.test(name)) throw functionNotFound();
    const fn = await service.hotRow(projectID, name).catch((error: unknown) => {
      if (error instanceof AppError && error.code === 'function_not_found') return undefined;
      throw error;
    });
    // Who may call is settled before whether the name exists, so a caller without the project's
    // credentials learns nothing of its functions' names (401 for every name, public ones aside).
    if (!fn) {
      await caller(request, projectID, false);
      throw functionNotFound();
    }
    const who = await caller(request, projectID, fn.public);
    // An app's call like those of /api/public (docs/billing.md "Usage limits"): 402 under a billing
    // BLOCK, 429 past a hard ApiCalls or BandWidth limit; counted once answered, its bytes metered.
    await app.ctx.billing.enforcement.checkApp(fn.organizationId, 'call', reply);
    meterBandwidth(request, fn.organizationId);
    reply.raw.once('finish', () => {
      if (reply.statusCode !== 402 && reply.statusCode !== 429) app.ctx.usage.add(fn.organizationId, 'ApiCalls', 1);
    });
    const version = await service.version(fn.id, fn.deployedVersionId);
    if (!version) throw new AppError(404, 'function_not_deployed', 'This function has no deployed version yet.');

    const headers: Record<string, string> = {};
    for (const [key, value] of Object.entries(request.headers)) {
      if (key === 'authorization' || key === 'cookie' || value === undefined) continue;
      headers[key] = Array.isArray(value) ? value.join(', ') : value;
    }
    const url = new URL(request.url, 'http://x');
    const event = {
      method: request.method,
      path: `/${request.params['*'] ?? ''}`,
      query: Object.fromEntries(url.searchParams),
      headers,
      body: request.body ?? null,
      caller: who,
    };
    const { result, invocation } = await service.run(fn, version, event, 'http');
    reply.header('function-invocation-id', invocation.id);
    if (!result.ok) {
      const error = result.error!;
      const params = { invocationID: invocation.id };
      if (error.name === 'TimeoutError') throw new AppError(504, 'function_timeout', error.message, { params });
      throw new AppError(500, 'function_failed', error.name === 'MemoryLimitError' ? error.message : `${error.name}: ${error.message}`, { params });
    }
    const own = ownAnswer(result.value);
    if (!own) return reply.code(200).type('application/json; charset=utf-8').send(JSON.stringify(result.value ?? null));
    reply.code(own.status);
    for (const [key, value] of Object.entries(own.headers)) {
      if (framing.has(key.toLowerCase()) || value === undefined || value === null) continue;
      reply.header(key, String(value));
    }
    if (own.body === undefined || own.body === null) return reply.send('');
    if (typeof own.body === 'string') {
      if (!reply.hasHeader('content-type')) reply.type('text/plain; charset=utf-8');
      return reply.send(own.body);
    }
    if (!reply.hasHeader('content-type')) reply.type('application/json; charset=utf-8');
    return reply.send(JSON.stringify(own.body));
  }

  app.all('/:projectID/:name', handle);
  app.all('/:projectID/:name/*', handle);
}
