/**
 * Studio's calls (docs/studio.md): minting and revoking the workbench's temporary tokens, the
 * generated document for the reference, and running a request against the public API with a
 * Studio token (plain `fetch`: the console's own bearer must not go along).
 */
import type { StudioToken, StudioTokenInput } from '../../definitions/schemas/studio.ts';
import { requestHeaders, type StudioHttp } from '../../definitions/studio-request.ts';
import { getApiClient } from './client.ts';

export type { StudioToken, StudioTokenInput };

const seg = encodeURIComponent;
const studioPath = (organizationID: string, projectID: string) => `api/organization/${seg(organizationID)}/project/${seg(projectID)}/studio`;

/** A call's outcome as Studio shows it. */
export interface StudioResult {
  status: number;
  statusText: string;
  headers: [string, string][];
  /** The `item-count` header of a list; null without one. */
  itemCount: string | null;
  /** Milliseconds from sending to the whole body read. */
  timeMs: number;
  /** The body as text (JSON is parsed by the viewer, lazily). */
  text: string;
  contentType: string;
}

export const studioApi = {
  mintToken: (organizationID: string, projectID: string, input: StudioTokenInput) =>
    getApiClient().json<StudioToken>(`${studioPath(organizationID, projectID)}/tokens`, { method: 'post', json: input, context: { ownsForbidden: true } }),
  revokeToken: (organizationID: string, projectID: string, tokenID: string) =>
    getApiClient().json<void>(`${studioPath(organizationID, projectID)}/tokens/${seg(tokenID)}`, { method: 'delete', context: { ownsForbidden: true } }),
  /**
   * Revokes while the page goes away: `keepalive` lets the call outlive the document, and no
   * answer is waited for (an unrevoked token still ends after its lifetime).
   */
  revokeOnLeave(organizationID: string, projectID: string, tokenID: string) {
    void getApiClient()
      .http.delete(`${studioPath(organizationID, projectID)}/tokens/${seg(tokenID)}`, { keepalive: true, throwHttpErrors: false, context: { ownsForbidden: true } })
      .catch(() => undefined);
  },
  document: (organizationID: string, projectID: string) => getApiClient().json<Record<string, unknown>>(`${studioPath(organizationID, projectID)}/openapi.json`),
};

/** Runs a Studio call with `token`; `file` is upload's image. Network failures reject; any HTTP status resolves. */
export async function runStudioCall(http: StudioHttp, token: string, options: { file?: Blob; signal?: AbortSignal; fetch?: typeof globalThis.fetch } = {}): Promise<StudioResult> {
  const headers = requestHeaders(http, token);
  let body: BodyInit | undefined;
  if (http.body?.kind === 'json') body = http.body.text;
  if (http.body?.kind === 'multipart') {
    const form = new FormData();
    if (http.body.altText) form.append('altText', http.body.altText);
    if (options.file) form.append('imageFile', options.file, http.body.fileName);
    body = form;
  }
  const started = performance.now();
  const response = await (options.fetch ?? globalThis.fetch)(http.path, { method: http.method, headers, body, signal: options.signal, credentials: 'omit' });
  const text = await response.text();
  const timeMs = Math.round(performance.now() - started);
  return {
    status: response.status,
    statusText: response.statusText,
    headers: [...response.headers.entries()],
    itemCount: response.headers.get('item-count'),
    timeMs,
    text,
    contentType: response.headers.get('content-type') ?? '',
  };
}
