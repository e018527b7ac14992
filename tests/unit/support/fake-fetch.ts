/** A fetch that answers from a handler and logs what the client sent. */

export interface SentRequest {
  method: string;
  /** Path and query. */
  url: string;
  authorization: string | null;
  contentType: string | null;
  body: string;
}

export type Handler = (request: Request, sent: SentRequest) => Response | Promise<Response>;

export function fakeFetch(handler: Handler) {
  const sent: SentRequest[] = [];
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : new Request(input, init);
    const { pathname, search } = new URL(request.url);
    const entry: SentRequest = {
      method: request.method,
      url: pathname + search,
      authorization: request.headers.get('authorization'),
      contentType: request.headers.get('content-type'),
      body: await request.clone().text(),
    };
    sent.push(entry);
    return handler(request, entry);
  };
  return { fetch: fetch as typeof globalThis.fetch, sent, to: (url: string) => sent.filter((entry) => entry.url === url) };
}

export const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(status === 204 ? null : JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

export const problem = (status: number, code: string, detail = `${code}.`, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify({ type: `https://larder.dev/problems/${code}`, title: 'Error', status, detail, code }), {
    status,
    headers: { 'content-type': 'application/problem+json', ...headers },
  });

export const tokenAnswer = (n: number) =>
  json(200, { access_token: `access-${n}`, refresh_token: `refresh-${n}`, expires_in: 900, token_type: 'Bearer' });
