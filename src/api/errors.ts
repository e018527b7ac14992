/**
 * Every failed call surfaces as an ApiError: the server's RFC 9457 problem details when it sent
 * them, a synthetic problem otherwise (HTML error page of a proxy, network down, timeout).
 */
import { isHTTPError, isTimeoutError } from 'ky';
import type { Problem } from '../../definitions/schemas/problem.ts';

/** The server's error body (`application/problem+json`). */
export type { Problem };

/** Codes the console makes up for failures that never reached the server's error handler. */
export const clientErrorCodes = {
  network: 'network_error',
  timeout: 'timeout',
  aborted: 'aborted',
  http: 'http_error',
  invalidResponse: 'invalid_response',
} as const;

/** A failed call. `status` is 0 when no response arrived; `problem` is null when the body was not problem details. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly detail: string;
  readonly problem: Problem | null;

  constructor(init: { status: number; code: string; detail: string; problem?: Problem | null; cause?: unknown }) {
    super(init.detail, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.detail = init.detail;
    this.problem = init.problem ?? null;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The text and number members of a problem's (or an errors entry's) `params`: the values a catalogue message takes. */
const messageValues = (params: Record<string, unknown>): Record<string, string | number> =>
  Object.fromEntries(Object.entries(params).filter((entry): entry is [string, string | number] => typeof entry[1] === 'string' || typeof entry[1] === 'number'));

/** Accepts a parsed body as problem details when it has at least a `code` or a `detail`; fills the rest. */
export function parseProblem(body: unknown, status: number): Problem | null {
  if (!isRecord(body)) return null;
  const text = (key: string) => (typeof body[key] === 'string' ? (body[key] as string) : undefined);
  const code = text('code');
  const detail = text('detail');
  if (code === undefined && detail === undefined) return null;
  const problem: Problem = {
    type: text('type') ?? 'about:blank',
    title: text('title') ?? '',
    status: typeof body.status === 'number' ? body.status : status,
    detail: detail ?? text('title') ?? '',
    code: code ?? clientErrorCodes.http,
  };
  if (isRecord(body.params)) problem.params = messageValues(body.params);
  if (Array.isArray(body.errors)) {
    problem.errors = body.errors
      .filter(isRecord)
      .map((entry) => ({
        // An import's bad row says where it is in the file (docs/content-storage.md "Importing items").
        ...(typeof entry.line === 'number' ? { line: entry.line } : {}),
        ...(typeof entry.record === 'number' ? { record: entry.record } : {}),
        path: String(entry.path ?? ''),
        message: String(entry.message ?? ''),
        // A refused field value also names its refusal code and the values of its message.
        ...(typeof entry.code === 'string' ? { code: entry.code } : {}),
        ...(isRecord(entry.params) ? { params: messageValues(entry.params) } : {}),
      }));
  }
  return problem;
}

/** Builds the ApiError of a non-2xx response; reads the body (pass a clone if you still need it). */
export async function apiErrorFromResponse(response: Response, cause?: unknown): Promise<ApiError> {
  let body: unknown = null;
  const type = response.headers.get('content-type') ?? '';
  if (type.includes('json')) {
    try {
      body = await response.json();
    } catch {
      body = null;
    }
  }
  const problem = parseProblem(body, response.status);
  if (problem) return new ApiError({ status: response.status, code: problem.code, detail: problem.detail, problem, cause });
  return new ApiError({
    status: response.status,
    code: clientErrorCodes.http,
    detail: response.statusText || `HTTP ${response.status}`,
    cause,
  });
}

/** Turns whatever a ky call threw into an ApiError. */
export async function toApiError(error: unknown): Promise<ApiError> {
  if (error instanceof ApiError) return error;
  if (isHTTPError(error)) return apiErrorFromResponse(error.response, error);
  if (isTimeoutError(error)) return new ApiError({ status: 0, code: clientErrorCodes.timeout, detail: 'The server did not answer in time.', cause: error });
  if (error instanceof Error && error.name === 'AbortError') {
    return new ApiError({ status: 0, code: clientErrorCodes.aborted, detail: error.message, cause: error });
  }
  const detail = error instanceof Error ? error.message : String(error);
  return new ApiError({ status: 0, code: clientErrorCodes.network, detail, cause: error });
}
