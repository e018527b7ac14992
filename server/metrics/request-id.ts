/**
 * Request ids (docs/monitoring.md "Request ids"): an incoming `x-request-id` is kept when it is
 * short and made of safe characters (a proxy's or a client's id then names the request in our
 * logs too); anything else is replaced by a new random id. The id is answered in `x-request-id`
 * and is every log line's `reqId` (Fastify's request logger).
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance } from 'fastify';

export const requestIdHeader = 'x-request-id';

/** Letters, digits and `._:-`, 1 to 128 of them: nothing that could break a log line or a header. */
const saneId = /^[A-Za-z0-9._:-]{1,128}$/;

/** Fastify's `genReqId`. */
export function requestIdOf(request: IncomingMessage): string {
  const given = request.headers[requestIdHeader];
  return typeof given === 'string' && saneId.test(given) ? given : randomUUID();
}

/** The id of the request the code runs for, through its awaits (set in `preValidation`). */
const currentRequest = new AsyncLocalStorage<string>();

/**
 * The request id of the running request, or undefined outside one (a job, a timer). Work a request
 * leaves for later — an outbox mail — keeps it, so its later log lines name that request.
 */
export const currentRequestId = (): string | undefined => currentRequest.getStore();

/**
 * Runs every route handler inside its request's id. `preValidation` comes after the body is read:
 * a context entered before it would be lost in the body stream's callbacks.
 */
export function registerRequestContext(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => currentRequest.run(request.id, done));
}
