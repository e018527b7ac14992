/**
 * Request ids (docs/monitoring.md "Request ids"): an incoming `x-request-id` is kept when it is
 * short and made of safe characters (a proxy's or a client's id then names the request in our
 * logs too); anything else is replaced by a new random id. The id is answered in `x-request-id`
 * and is every log line's `reqId` (Fastify's request logger).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

export const requestIdHeader = 'x-request-id';

/** Letters, digits and `._:-`, 1 to 128 of them: nothing that could break a log line or a header. */
const saneId = /^[A-Za-z0-9._:-]{1,128}$/;

/** Fastify's `genReqId`. */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers[requestIdHeader];
  return typeof given === 'string' && saneId.test(given) ? given : randomUUID();
}
