/**
 * Usage metering over HTTP (docs/billing.md "Usage metering"):
 * - `registerUsageMetering` counts BandWidth: the body bytes of every response attributed to an
 *   organization — a public-API response to an authenticated app (`request.principal`: an API
 *   token or an end user) or one a route attributed with `meterBandwidth` (file downloads).
 *   Console calls of members are not counted. A stream's bytes are its `content-length`, else
 *   counted as they pass. It also writes pending counts when the server closes.
 * - `GET /api/organization/{org}/usage?month=YYYY-MM` (organization admins): every metric of the
 *   month, for the billing issue.
 */
import { Transform, type Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { usageMetrics, usageMonthPattern } from '../../definitions/usage.ts';
import { responses } from '../lib/schemas.ts';
import { UsageReport } from '../../definitions/schemas/usage-report.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The organization whose BandWidth this response counts towards (set with `meterBandwidth`). */
    usageOrganization: string | null;
  }
}

/** Counts the body of this request's response towards the organization's BandWidth. */
export function meterBandwidth(request: FastifyRequest, organizationId: string): void {
  request.usageOrganization = organizationId;
}

/** The organization a response (or live stream) is attributed to, if any: an app's, not a console member's. */
export function usageOrganizationOf(request: FastifyRequest): string | null | undefined {
  if (request.usageOrganization) return request.usageOrganization;
  // The public API's caller (server/public): an API token or an app's end user.
  const caller = request as { principal?: { organizationId: string } | null; apiToken?: { organizationId: string } | null };
  return caller.principal?.organizationId ?? caller.apiToken?.organizationId;
}

function isStream(payload: unknown): payload is Readable {
  return typeof payload === 'object' && payload !== null && typeof (payload as Readable).pipe === 'function';
}

export function registerUsageMetering(app: FastifyInstance): void {
  const { usage } = app.ctx;
  app.decorateRequest('usageOrganization', null);
  app.addHook('onClose', () => usage.close());
  if (!usage.counting) return;
  // A callback hook: it runs for every response and does nothing for most.
  app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (error: null, payload: unknown) => void) => {
    const organizationId = usageOrganizationOf(request);
    // Nor is a refusal of billing (402 blocked, 429 past a hard limit: server/billing/enforcement.ts).
    const refused = reply.statusCode === 402 || reply.statusCode === 429;
    if (!organizationId || refused || request.method === 'HEAD' || reply.statusCode === 304 || reply.statusCode === 204 || payload == null) {
      done(null, payload);
      return;
    }
    if (typeof payload === 'string') usage.add(organizationId, 'BandWidth', Buffer.byteLength(payload));
    else if (payload instanceof Uint8Array) usage.add(organizationId, 'BandWidth', payload.byteLength);
    else if (isStream(payload)) {
      const length = Number(reply.getHeader('content-length'));
      if (Number.isFinite(length) && length > 0) usage.add(organizationId, 'BandWidth', length);
      else {
        const counter = new Transform({
          transform(chunk: Buffer, _encoding, callback) {
            usage.add(organizationId, 'BandWidth', chunk.length);
            callback(null, chunk);
          },
        });
        payload.on('error', (error) => counter.destroy(error));
        done(null, payload.pipe(counter));
        return;
      }
    }
    done(null, payload);
  });
}

const Id = Type.String({ pattern: '^[0-9a-f]{24}$', description: '24-character hex id' });
export async function usageRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { usage } = app.ctx;
  app.addHook('onRequest', app.requireUser);

  app.get(
    '/organization/:org/usage',
    {
      config: { action: 'admin', scope: 'organization' },
      schema: {
        summary: 'The organization’s usage in a month (admin): every metric, in display order',
        tags: ['organizations'],
        security: [{ bearer: [] as string[] }],
        params: Type.Object({ org: Id }),
        querystring: Type.Object({ month: Type.Optional(Type.String({ pattern: usageMonthPattern, description: 'UTC month, YYYY-MM; default this month' })) }),
        response: responses({ 200: UsageReport }),
      },
    },
    async function readUsage(request) {
      return usage.read(request.params.org, request.query.month);
    },
  );
}
