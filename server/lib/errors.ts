/**
 * RFC 9457 problem details plus a stable `code` the console maps to a message.
 * Status discipline: 401 only for a missing, invalid or expired bearer token; 400 bad input and bad
 * credentials; 403 permission denial; 404 unknown; 409 conflict; 429 throttling.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const PROBLEM_TYPE_BASE = 'https://larder.dev/problems/';

const titles: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  409: 'Conflict',
  410: 'Gone',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  errors?: { path: string; message: string }[];
}

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    detail: string,
    readonly extra: { errors?: Problem['errors']; headers?: Record<string, string> } = {},
  ) {
    super(detail);
    this.name = 'AppError';
  }
}

export const badRequest = (code: string, detail: string) => new AppError(400, code, detail);
export const unauthorized = (code: string, detail: string) =>
  new AppError(401, code, detail, { headers: { 'www-authenticate': 'Bearer' } });
export const forbidden = (code: string, detail: string) => new AppError(403, code, detail);
export const notFound = (code: string, detail: string) => new AppError(404, code, detail);
export const conflict = (code: string, detail: string) => new AppError(409, code, detail);

export function problem(status: number, code: string, detail: string, errors?: Problem['errors']): Problem {
  return { type: PROBLEM_TYPE_BASE + code, title: titles[status] ?? 'Error', status, detail, code, ...(errors ? { errors } : {}) };
}

function sendProblem(reply: FastifyReply, body: Problem, headers?: Record<string, string>) {
  if (headers) reply.headers(headers);
  return reply.code(body.status).type('application/problem+json').send(body);
}

/** Maps fastify's own error codes onto our problem codes. */
const frameworkErrors: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'unsupported_media_type'],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'payload_too_large'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'malformed_json'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'malformed_json'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'bad_request'],
};

export function registerErrorHandling(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof AppError) {
      return sendProblem(reply, problem(error.status, error.code, error.message, error.extra.errors), error.extra.headers);
    }
    if (error.validation) {
      const errors = error.validation.map((v) => ({
        path: `${error.validationContext ?? ''}${v.instancePath || ''}`,
        message: v.message ?? 'is invalid',
      }));
      return sendProblem(reply, problem(400, 'validation_failed', error.message, errors));
    }
    const mapped = error.code ? frameworkErrors[error.code] : undefined;
    if (mapped) return sendProblem(reply, problem(mapped[0], mapped[1], error.message));
    if (error instanceof SyntaxError) return sendProblem(reply, problem(400, 'malformed_json', 'The request body is not valid JSON.'));
    const status = error.statusCode ?? 500;
    if (status === 429) {
      return sendProblem(reply, problem(429, 'rate_limited', error.message || 'Too many requests. Try again later.'));
    }
    if (status >= 400 && status < 500) return sendProblem(reply, problem(status, 'bad_request', error.message));
    request.log.error({ err: error }, 'unhandled error');
    return sendProblem(reply, problem(500, 'internal', 'Something went wrong on our side.'));
  });

  app.setNotFoundHandler((request, reply) =>
    sendProblem(reply, problem(404, 'not_found', `No route for ${request.method} ${request.url.split('?')[0]}.`)),
  );
}
