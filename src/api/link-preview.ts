/**
 * Link previews (docs/security.md "Outbound requests"): `POST /api/generatePreview {url}` for a
 * page's title, description and image, and `GET /api/generatePreview/image?url=` for that image,
 * fetched and re-encoded by the server. The console's CSP loads no remote images, so the card
 * shows the server's copy through a blob: address.
 */
import { createContext, useContext } from 'react';
import { getApiClient, type ApiClient } from './client.ts';
import { toApiError } from './errors.ts';
import { requestJson } from './request-json.ts';
import type { LinkPreview } from '../../definitions/schemas/link-preview.ts';

export type { LinkPreview };

export interface LinkPreviewApi {
  preview(url: string, signal?: AbortSignal): Promise<LinkPreview>;
  /** The preview image (WebP), as the server re-encoded it. */
  image(url: string, signal?: AbortSignal): Promise<Blob>;
}

export function createLinkPreviewApi(client: ApiClient): LinkPreviewApi {
  const { http } = client;
  return {
    preview(url, signal) {
      return requestJson<LinkPreview>(http.post('api/generatePreview', { json: { url }, ...(signal ? { signal } : {}) }));
    },
    async image(url, signal) {
      try {
        return await http.get('api/generatePreview/image', { searchParams: { url }, ...(signal ? { signal } : {}) }).blob();
      } catch (error) {
        throw await toApiError(error);
      }
    },
  };
}

let browserLinkPreviewApi: LinkPreviewApi | null = null;

/** The preview calls over the page's client. */
export function getLinkPreviewApi(): LinkPreviewApi {
  browserLinkPreviewApi ??= createLinkPreviewApi(getApiClient());
  return browserLinkPreviewApi;
}

const LinkPreviewApiContext = createContext<LinkPreviewApi | null>(null);

/** Replaces the preview calls below it (tests). */
export const LinkPreviewApiProvider = LinkPreviewApiContext.Provider;

export function useLinkPreviewApi(): LinkPreviewApi {
  return useContext(LinkPreviewApiContext) ?? getLinkPreviewApi();
}
