import { describe, expect, it } from 'vitest';
import ky from 'ky';
import { ApiError, apiErrorFromResponse, isApiError, parseProblem, toApiError } from '../../src/api/errors.ts';

const problemBody = {
  type: 'https://larder.dev/problems/validation_failed',
  title: 'Bad Request',
  status: 400,
  detail: 'body/email must match format "email"',
  code: 'validation_failed',
  errors: [{ path: 'body/email', message: 'must match format "email"' }],
};

describe('parseProblem', () => {
  it('reads the server problem details, field errors included', () => {
    expect(parseProblem(problemBody, 400)).toEqual(problemBody);
  });

  it('keeps where an import’s bad row is: its line, or its record in a JSON array', () => {
    const refused = { ...problemBody, status: 422, code: 'import_refused', errors: [{ line: 3, path: 'price', message: 'must be a number', code: 'notNumber' }, { record: 2, path: '', message: 'must be a JSON object' }] };
    expect(parseProblem(refused, 422)?.errors).toEqual(refused.errors);
  });

  it('fills what a partial problem leaves out', () => {
    expect(parseProblem({ code: 'rate_limited' }, 429)).toEqual({ type: 'about:blank', title: '', status: 429, detail: '', code: 'rate_limited' });
    expect(parseProblem({ detail: 'Nope' }, 500)).toMatchObject({ code: 'http_error', detail: 'Nope', status: 500 });
  });

  it('refuses bodies that are not problem details', () => {
    for (const body of [null, 'text', 42, [], { message: 'x' }]) expect(parseProblem(body, 500)).toBeNull();
  });
});

describe('apiErrorFromResponse', () => {
  it('builds an ApiError from application/problem+json', async () => {
    const response = new Response(JSON.stringify(problemBody), { status: 400, headers: { 'content-type': 'application/problem+json' } });
    const error = await apiErrorFromResponse(response);
    expect(error).toBeInstanceOf(ApiError);
    expect([error.status, error.code, error.detail, error.message]).toEqual([400, 'validation_failed', problemBody.detail, problemBody.detail]);
    expect(error.problem?.errors).toEqual(problemBody.errors);
  });

  it('falls back to the status text for HTML and broken JSON', async () => {
    const html = await apiErrorFromResponse(new Response('<h1>502</h1>', { status: 502, statusText: 'Bad Gateway', headers: { 'content-type': 'text/html' } }));
    expect([html.status, html.code, html.detail, html.problem]).toEqual([502, 'http_error', 'Bad Gateway', null]);
    const broken = await apiErrorFromResponse(new Response('{"code":', { status: 500, headers: { 'content-type': 'application/json' } }));
    expect([broken.code, broken.detail]).toEqual(['http_error', 'HTTP 500']);
  });
});

describe('toApiError', () => {
  it('converts ky HTTP errors, timeouts, aborts and network failures', async () => {
    const fetch = (async () => new Response(JSON.stringify(problemBody), { status: 400, headers: { 'content-type': 'application/problem+json' } })) as typeof globalThis.fetch;
    const httpError = await ky('http://localhost/x', { fetch, retry: 0 }).catch((error: unknown) => error);
    expect(await toApiError(httpError)).toMatchObject({ status: 400, code: 'validation_failed' });

    const slow = ((_input: RequestInfo | URL, init?: RequestInit) =>
      new Promise<Response>((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason)))) as typeof globalThis.fetch;
    const timeout = await ky('http://localhost/x', { fetch: slow, timeout: 5, retry: 0 }).catch((error: unknown) => error);
    expect(await toApiError(timeout)).toMatchObject({ status: 0, code: 'timeout' });

    const abort = new DOMException('The operation was aborted.', 'AbortError');
    expect(await toApiError(abort)).toMatchObject({ status: 0, code: 'aborted' });
    expect(await toApiError(new TypeError('Failed to fetch'))).toMatchObject({ status: 0, code: 'network_error', detail: 'Failed to fetch' });
  });

  it('passes an ApiError through unchanged', async () => {
    const error = new ApiError({ status: 409, code: 'username_taken', detail: 'Taken.' });
    expect(await toApiError(error)).toBe(error);
    expect(isApiError(error)).toBe(true);
    expect(isApiError(new Error('x'))).toBe(false);
  });
});
