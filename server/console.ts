/**
 * Serves the built console (dist/console) with a strict Content-Security-Policy, and its
 * index.html for every other GET outside the service prefixes (client-side routes).
 *
 * Every text file is sent as the brotli or gzip copy the build wrote beside it
 * (vite-plugin-precompress.ts) when the request's Accept-Encoding allows, else as itself, always
 * with `Vary: Accept-Encoding`; hashed files under assets/ are cached for a year as immutable,
 * index.html is revalidated on every load (ETag, 304) so a new build is picked up at once
 * (docs/console-delivery.md).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import { notFound } from './lib/errors.ts';
import { tileSource } from './maps/geocoder.ts';

export const consoleDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/console');

/**
 * No inline or eval'd script; styles may be inline (the toast and dialog libraries inject them).
 * `imageSources`: origins images may also come from (the map tiles of `MAP_TILE_URL`).
 */
export const contentSecurityPolicy = (imageSources: readonly string[] = []) => [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  ["img-src 'self' data: blob:", ...imageSources].join(' '),
  "font-src 'self' data:",
  // data: and blob: for the 3D viewer: glTF files embed buffers as data: URIs and GLB textures are
  // read back through blob: URLs with fetch. Neither reaches another origin.
  "connect-src 'self' data: blob:",
  "media-src 'self' blob:",
  "worker-src 'self' blob:",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const CONTENT_SECURITY_POLICY = contentSecurityPolicy();

const servicePrefixes = ['/api', '/auth', '/billing', '/integrations', '/functions'];

export interface ConsoleRoutesOptions {
  /** The built console; `dist/console` unless given (the tests serve one of their own). */
  dir?: string;
}

export async function consoleRoutes(app: FastifyInstance, options: ConsoleRoutesOptions = {}) {
  const root = options.dir ?? consoleDir;
  const indexFile = path.join(root, 'index.html');
  if (!existsSync(indexFile)) {
    app.log.warn(`No built console in ${root}: run "npm run build" (npm start does it for you).`);
    return;
  }
  const securityHeaders = {
    'content-security-policy': contentSecurityPolicy([tileSource(app.ctx.config.maps.tileUrl)].filter((source) => source !== undefined)),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'same-origin',
    'x-frame-options': 'DENY',
  };

  const assetsDir = `${path.sep}assets${path.sep}`;
  await app.register(fastifyStatic, {
    root,
    wildcard: false,
    index: false,
    // The `.br` and `.gz` copies the build wrote; a missing copy falls back to the next, then to the file.
    preCompressed: true,
    setHeaders: (reply, filePath) => {
      reply.headers(securityHeaders);
      // Hashed bundle files never change; everything else is revalidated.
      reply.header('cache-control', filePath.includes(assetsDir) ? 'public, max-age=31536000, immutable' : 'no-cache');
    },
  });

  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    // A file of another build (a tab open across a deploy asks for a chunk that is gone) is missing,
    // not a page: index.html in its place would fail as a script with a MIME error.
    if ([...servicePrefixes, '/assets'].some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`))) {
      throw notFound('not_found', `No route for GET ${pathname}.`);
    }
    return reply.type('text/html; charset=utf-8').sendFile('index.html');
  });
}
