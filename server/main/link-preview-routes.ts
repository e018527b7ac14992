/**
 * `POST /api/generatePreview {url}`: the title, description and image of a page for
 * the Link editor's card; and `GET /api/generatePreview/image?url=` the preview image re-encoded,
 * which the console shows through a blob: address (its CSP loads no remote images).
 * Signed-in users only, rate-limited per user; every fetch goes through the URL guard.
 * Refused addresses are 422, unreachable ones 502, slow ones 504; details stay in the log.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { contentLimits } from '../../definitions/content.ts';
import { currentUser } from '../auth/authenticate.ts';
import { routeRateLimit } from '../lib/rate-limit.ts';
import { AppError } from '../lib/errors.ts';
import { responses } from '../lib/schemas.ts';
import { LinkPreview } from '../../definitions/schemas/link-preview.ts';
import { OutboundError } from '../lib/url-guard.ts';
import { generatePreview, previewImage } from './link-preview.ts';

const Url = Type.String({ minLength: 1, maxLength: contentLimits.urlMax });

/** What the client is told; the reason (which address, which range) goes to the log only. */
function toProblem(error: unknown, request: FastifyRequest): AppError {
  if (!(error instanceof OutboundError)) throw error;
  request.log.info({ reason: error.message, kind: error.kind }, 'link preview refused or failed');
  switch (error.kind) {
    case 'refused':
      return new AppError(422, 'preview_refused', 'This address cannot be previewed.');
    case 'timeout':
      return new AppError(504, 'preview_timeout', 'The page took too long to answer.');
    default:
      return new AppError(502, 'preview_unreachable', 'The page could not be reached.');
  }
}

/** Only absolute web addresses are worth a request; anything else is the caller's mistake. */
function requireWebAddress(text: string): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new AppError(400, 'invalid_url', 'Enter a full web address, starting with http:// or https://.');
  }
  return url.href;
}

export async function linkPreviewRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { config, outbound } = app.ctx;
  const tags = ['link previews'];
  const security = [{ bearer: [] as string[] }];
  const limit = routeRateLimit(app, config.rateLimits.previewUser, (request) => `preview-user:${request.auth?.userId ?? request.ip}`, 'Too many link previews.');

  app.post(
    '/generatePreview',
    {
      onRequest: [app.requireUser, limit],
      bodyLimit: 16 * 1024,
      schema: {
        summary: "A page's title, description and image (Open Graph, Twitter card, <title>), for the Link editor's preview",
        tags,
        security,
        body: Type.Object({ url: Url }),
        response: responses({ 200: LinkPreview }),
      },
    },
    async (request) => {
      currentUser(request);
      const address = requireWebAddress(request.body.url);
      try {
        return await generatePreview(outbound, address);
      } catch (error) {
        throw toProblem(error, request);
      }
    },
  );

  app.get(
    '/generatePreview/image',
    {
      onRequest: [app.requireUser, limit],
      schema: {
        summary: 'A preview image, fetched by the server and re-encoded as a small WebP (the console loads no remote images)',
        tags,
        security,
        querystring: Type.Object({ url: Url }),
        response: { 200: { description: 'image/webp', type: 'string', format: 'binary' }, ...responses({}) },
      },
    },
    async (request, reply) => {
      currentUser(request);
      const address = requireWebAddress(request.query.url);
      let image: Buffer;
      try {
        image = await previewImage(outbound, address);
      } catch (error) {
        throw toProblem(error, request);
      }
      return reply
        .type('image/webp')
        .header('cache-control', 'private, max-age=3600')
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(image);
    },
  );
}
