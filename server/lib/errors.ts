/**
 * RFC 9457 problem details plus a stable `code` the console maps to a message. Codes and their
 * statuses come from the closed table in definitions/problems.ts: an unknown code does not compile.
 */
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import type { ProblemCode, ProblemCodeOf, ProblemParamsArg } from '../../definitions/problems.ts';
import type { Problem } from '../../definitions/schemas/problem.ts';

export const PROBLEM_TYPE_BASE = 'https://larder.dev/problems/';

const titles: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
  507: 'Insufficient Storage',
};

export type { Problem };

/** What a problem carries besides its code and detail. */
export interface ProblemExtra {
  errors?: Problem['errors'];
  /** The values of the code's catalogue message (definitions/problems.ts names them per code). */
  params?: Problem['params'];
  headers?: Record<string, string>;
}

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ProblemCode,
    detail: string,
    readonly extra: ProblemExtra = {},
  ) {
    super(detail);
    this.name = 'AppError';
  }
}

/**
 * The helpers take a code of their status; a code whose catalogue message has placeholders also
 * takes their values (`ProblemParamsArg`), so a refusal cannot leave the console's text without them.
 */
const withParams = (params: [Problem['params']?]) => (params[0] ? { params: params[0] } : {});
export const badRequest = <C extends ProblemCodeOf<400>>(code: C, detail: string, ...params: ProblemParamsArg<C>) =>
  new AppError(400, code, detail, withParams(params));
export const unauthorized = <C extends ProblemCodeOf<401>>(code: C, detail: string, ...params: ProblemParamsArg<C>) =>
  new AppError(401, code, detail, { headers: { 'www-authenticate': 'Bearer' }, ...withParams(params) });
export const forbidden = <C extends ProblemCodeOf<403>>(code: C, detail: string, ...params: ProblemParamsArg<C>) =>
  new AppError(403, code, detail, withParams(params));
export const notFound = <C extends ProblemCodeOf<404>>(code: C, detail: string, ...params: ProblemParamsArg<C>) =>
  new AppError(404, code, detail, withParams(params));
export const conflict = <C extends ProblemCodeOf<409>>(code: C, detail: string, ...params: ProblemParamsArg<C>) =>
  new AppError(409, code, detail, withParams(params));
export const unsupportedMediaType = <C extends ProblemCodeOf<415>>(code: C, detail: string, ...params: ProblemParamsArg<C>) =>
  new AppError(415, code, detail, withParams(params));

/** 429 `rate_limited`: `seconds` until the caller may try again, sent as Retry-After and as the message's value. */
export const tooManyRequests = (detail: string, seconds: number) =>
  new AppError(429, 'rate_limited', detail, { headers: { 'retry-after': String(seconds) }, params: { seconds } });

export function problem(status: number, code: ProblemCode, detail: string, extra: Pick<ProblemExtra, 'errors' | 'params'> = {}): Problem {
  const { errors, params } = extra;
  return { type: PROBLEM_TYPE_BASE + code, title: titles[status] ?? 'Error', status, detail, code, ...(params ? { params } : {}), ...(errors ? { errors } : {}) };
}

function sendProblem(reply: FastifyReply, body: Problem, headers?: Record<string, string>) {
  if (headers) reply.headers(headers);
  return reply.code(body.status).type('application/problem+json').send(body);
}

/** Maps fastify's own error codes onto our problem codes. */
const frameworkErrors: Record<string, [number, ProblemCode]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'unsupported_media_type'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'payload_too_large'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'malformed_json'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'malformed_json'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'bad_request'],
};

/** Problems for requests the router refuses before any route or hook (fastify's `frameworkErrors`). */
const routerErrors: Record<string, [number, ProblemCode, string]> = {
  FST_ERR_BAD_URL: [400, 'bad_url', 'The address is not valid: its path holds malformed percent-encoding or text that is not UTF-8.'],
  FST_ERR_MAX_PARAM_LENGTH: [414, 'uri_too_long', 'A part of the address is longer than any this server accepts.'],
  FST_ERR_ASYNC_CONSTRAINT: [500, 'internal', 'Something went wrong on our side.'],
};

/** Bytes of the request line past which an over-long head is the address's fault (414), not the headers' (431). */
const longRequestLine = 8 * 1024;

/** The HTTP/1.1 problem answer written straight to a socket the parser gave up on. */
function rawProblem(status: number, code: ProblemCode, detail: string): string {
  const body = JSON.stringify(problem(status, code, detail));
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}\r\n` +
    'Content-Type: application/problem+json\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n\r\n' +
    body
  );
}

/**
 * A request Node's HTTP parser refused (headers over the limit, a request line it cannot read,
 * a timeout): fastify never sees it, so the answer is written here, as problem+json, and the
 * connection closed (what follows on it cannot be trusted to start a request).
 */
function clientErrorHandler(this: FastifyInstance, failure: Error, socket: Socket) {
  const error = failure as NodeJS.ErrnoException & { rawPacket?: Buffer };
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  let answer: [number, ProblemCode, string];
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    answer = [408, 'request_timeout', 'The request did not arrive in time.'];
  } else if (error.code === 'HPE_HEADER_OVERFLOW') {
    const lineEnd = error.rawPacket?.indexOf('\r\n') ?? -1;
    answer =
      lineEnd === -1 || lineEnd > longRequestLine
        ? [414, 'uri_too_long', 'The address is longer than this server accepts.']
        : [431, 'headers_too_large', 'The request headers are larger than this server accepts.'];
  } else {
    answer = [400, 'bad_request', 'The request is not well-formed HTTP (an unreadable request line, header or address).'];
  }
  this.log.debug({ err: error }, 'client error');
  if (socket.writable) socket.end(rawProblem(...answer));
  else socket.destroy(error);
}

/** Options of the fastify constructor that make its own answers problem details too. */
export function frameworkOptions(): Pick<FastifyServerOptions, 'frameworkErrors' | 'clientErrorHandler'> {
  return {
    frameworkErrors: (error, _request, reply) => {
      const [status, code, detail] = routerErrors[error.code] ?? [400, 'bad_request', error.message];
      return sendProblem(reply, problem(status, code, detail));
    },
    clientErrorHandler: clientErrorHandler as NonNullable<FastifyServerOptions['clientErrorHandler']>,
  };
}

/** A route pattern's regular expression: a parameter stands for one segment, `*` for the rest. */
function patternOf(url: string): RegExp {
  const segments = url.split('/').map((segment) => {
    if (segment === '*') return '.*';
    if (segment.includes(':') || segment.includes('*')) return '[^/]+';
    return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  });
  return new RegExp(`^${segments.join('/')}/?$`);
}

/** A write that found no room: the disk is full, or the user's quota is used up (docs/errors.md "Out of room"). */
export function diskFull(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current && typeof current === 'object'; depth++) {
    const { code } = current as { code?: unknown };
    if (code === 'ENOSPC' || code === 'EDQUOT') return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** SQLSTATEs and socket errors that mean the database cannot be reached, not that the statement was wrong. */
const unreachableCodes = new Set(['57P01', '57P02', '57P03', '53300', 'ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const unreachableMessages = /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed|terminating connection/i;

/** Whether an error (or one it wraps: drizzle wraps the driver's) says the database is out of reach. */
export function databaseUnavailable(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 6 && current && typeof current === 'object'; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === 'string' && (unreachableCodes.has(code) || code.startsWith('08'))) return true;
    if (typeof message === 'string' && unreachableMessages.test(message)) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

export function registerErrorHandling(app: FastifyInstance) {
  // Every route's pattern and methods, so an address that exists answers a wrong method with 405.
  // Catch-alls (the console's `/*`, CORS preflights) say nothing about an address.
  const routes = new Map<string, { pattern: RegExp; methods: Set<string> }>();
  app.addHook('onRoute', (route) => {
    if (route.url === '/*' || route.url === '*') return;
    const methods = (Array.isArray(route.method) ? route.method : [route.method]).filter((m) => m !== 'OPTIONS');
    if (!methods.length) return;
    const entry = routes.get(route.url) ?? { pattern: patternOf(route.url), methods: new Set<string>() };
    for (const method of methods) entry.methods.add(method);
    routes.set(route.url, entry);
  });
  const allowedMethods = (path: string) => {
    const allowed = new Set<string>();
    for (const { pattern, methods } of routes.values()) if (pattern.test(path)) for (const method of methods) allowed.add(method);
    return allowed;
  };

  app.setErrorHandler((error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      return sendProblem(reply, problem(error.status, error.code, error.message, error.extra), error.extra.headers);
    }
    if (error.validation) {
      const errors = error.validation.map((v) => ({
        path: `${error.validationContext ?? ''}${v.instancePath || ''}`,
        message: v.message ?? 'is invalid',
      }));
      return sendProblem(reply, problem(400, 'validation_failed', error.message, { errors }));
    }
    const mapped = error.code ? frameworkErrors[error.code] : undefined;
    if (mapped) return sendProblem(reply, problem(mapped[0], mapped[1], error.message));
    if (error instanceof SyntaxError) return sendProblem(reply, problem(400, 'malformed_json', 'The request body is not valid JSON.'));
    const status = error.statusCode ?? 500;
    if (status === 429) {
      // A limit without our own answer: its wait is the Retry-After it set, else unknown (0).
      const seconds = Number(reply.getHeader('retry-after')) || 0;
      return sendProblem(reply, problem(429, 'rate_limited', error.message || 'Too many requests. Try again later.', { params: { seconds } }));
    }
    if (status >= 400 && status < 500) return sendProblem(reply, problem(status, 'bad_request', error.message));
    if (databaseUnavailable(error)) {
      // The database is down or restarting: a clear 503 the client may retry; the pool reconnects by itself (docs/errors.md).
      request.log.warn({ err: error }, 'database unavailable');
      return sendProblem(reply, problem(503, 'database_unavailable', 'The database cannot be reached just now. Try again in a moment.'), { 'retry-after': '5' });
    }
    if (diskFull(error)) {
      // What was being written was removed where it failed (server/files/spool.ts, storage.ts): nothing half-kept.
      request.log.error({ err: error }, 'no room left on the disk');
      return sendProblem(reply, problem(507, 'storage_full', 'The server has no room to store this just now, so nothing of it was kept. Try again later.'), { 'retry-after': '60' });
    }
    request.log.error({ err: error }, 'unhandled error');
    return sendProblem(reply, problem(500, 'internal', 'Something went wrong on our side.'));
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    const allowed = allowedMethods(path);
    if (allowed.size && !allowed.has(request.method)) {
      const methods = [...allowed].sort().join(', ');
      return sendProblem(reply, problem(405, 'method_not_allowed', `${path} answers ${methods}, not ${request.method}.`), { allow: methods });
    }
    return sendProblem(reply, problem(404, 'not_found', `No route for ${request.method} ${path}.`));
  });
}
