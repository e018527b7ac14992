/**
 * The public v1 API (`/api/public`) that apps call with a project API token or an end user's
 * token, usable unchanged by the official BagelDB client (contract
 * `public-api-bageldb-client.md`). This plugin sets up what every call shares and registers the
 * route files:
 * - authentication: the bearer (or, for live streams, `authorization` in the query) resolved to a
 *   principal (server/public/principal.ts); a missing or invalid one is 401, and nothing else is;
 * - bodies: JSON whatever the Content-Type says (the client sends JSON strings as
 *   `application/x-www-form-urlencoded` or `text/plain`), DELETE bodies included; multipart for
 *   uploads;
 * - CORS: any origin, the client's headers and methods, `item-count` exposed; no cookies are used;
 * - metering: one ApiCalls per answered call, when the process meters usage.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import multipart from '@fastify/multipart';
import { bearerToken } from '../auth/authenticate.ts';
import { badRequest } from '../lib/errors.ts';
import { contentLimits } from '../../definitions/content.ts';
import { fileLimits } from '../../definitions/files.ts';
import type { VerifiedToken } from '../main/api-tokens.ts';
import { optionalServices, resolvePrincipal } from './principal.ts';
import { publicItemRoutes } from './items-routes.ts';
import { publicImportRoutes } from './import-routes.ts';
import { publicItemFieldRoutes } from './item-field-routes.ts';
import { publicFileRoutes } from './files-routes.ts';
import { publicAssetRoutes } from './asset-routes.ts';
import { liveRoute, publicLiveRoutes } from './live-routes.ts';
import { publicSchemaRoutes } from './schema-routes.ts';

declare module 'fastify' {
  interface FastifyRequest {
    apiToken: VerifiedToken | null;
  }
}

const corsHeaders = {
  'access-control-allow-methods': 'GET, POST, PUT, DELETE, OPTIONS',
  'access-control-allow-headers': 'Authorization, Accept-Version, Content-Type, Accept, Cache-Control, Last-Event-ID, X-Requested-With',
  'access-control-max-age': '600',
};

export async function publicRoutes(app: FastifyInstance) {
  app.decorateRequest('apiToken', null);
  app.decorateRequest('principal', null);

  // Bodies: JSON whatever the type says; multipart (registered below) for uploads.
  app.removeAllContentTypeParsers();
  // Fastify's own JSON reading (secure-json-parse), told to drop `__proto__` and `constructor.prototype`
  // keys: it looks for them only when the text holds one, where a reviver costs a call per value.
  const parseJson = app.getDefaultJsonParser('remove', 'remove');
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: 2 * contentLimits.itemBytesMax }, (request, body, done) => {
    const text = String(body).trim();
    if (text === '') return done(null, undefined);
    parseJson(request, text, (error, value) => (error ? done(badRequest('invalid_json', 'The body must be JSON.'), undefined) : done(null, value)));
  });
  await app.register(multipart, {
    limits: { fileSize: fileLimits.uploadBytesMax, files: fileLimits.assetsPerCall, fields: fileLimits.assetsPerCall + 10, fieldSize: contentLimits.urlMax * 2, parts: fileLimits.assetsPerCall + 10 },
  });

  // CORS: every answer carries it; a preflight is answered here, before authentication.
  app.addHook('onRequest', async (request, reply) => {
    reply.header('access-control-allow-origin', request.headers.origin ?? '*');
    reply.header('vary', 'Origin');
    // `warning`: a plan's limit near or past (docs/billing.md "Usage limits").
    reply.header('access-control-expose-headers', 'item-count, warning');
  });
  app.options('/*', async (_request, reply) => reply.code(204).headers(corsHeaders).send());

  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (request.method === 'OPTIONS') return;
    const fromQuery = request.routeOptions.url === liveRoute ? (request.query as { authorization?: string }).authorization?.replace(/^Bearer\s+/i, '') : undefined;
    const principal = await resolvePrincipal(app, bearerToken(request) ?? (fromQuery || undefined));
    request.principal = principal;
    if (principal.kind === 'token') {
      request.apiToken = { tokenId: principal.tokenId, projectId: principal.projectId, organizationId: principal.organizationId, rights: principal.rights };
    }
  });

  // One ApiCalls per call answered to an authenticated caller, when the process meters usage (looked up per call: cheap).
  app.addHook('onResponse', (request, reply, done) => {
    done();
    const { usage } = optionalServices(app);
    // A call refused by billing (402 blocked, 429 past a hard limit) did no work and is not counted.
    if (!usage || !request.principal || reply.statusCode === 402 || reply.statusCode === 429) return;
    try {
      usage.add(request.principal.organizationId, 'ApiCalls', 1);
    } catch (error) {
      request.log.warn({ err: error }, 'could not count an API call');
    }
  });

  await app.register(publicSchemaRoutes);
  await app.register(publicItemRoutes);
  await app.register(publicImportRoutes);
  await app.register(publicItemFieldRoutes);
  await app.register(publicFileRoutes);
  await app.register(publicAssetRoutes);
  await app.register(publicLiveRoutes);
  await app.register((await import('./bagel-users-routes.ts')).publicBagelUserRoutes);
  // The caller's generated OpenAPI document (docs/studio.md).
  await app.register((await import('../studio/public-routes.ts')).publicOpenApiRoutes);
}
