/**
 * The file calls of the item page (docs/files.md): an image or file uploaded
 * into an ImageRef or ImageRefSet field with upload progress, an image removed, and the addresses
 * of a stored file's thumbnails and download.
 *
 * Uploads go through the console's one ky client (bearer, refresh after a 401 and replay,
 * forbidden and rate-limit events) with a `fetch` made of XMLHttpRequest: fetch cannot report
 * upload progress (a streamed request body needs HTTP/2 in Chromium), XMLHttpRequest can.
 */
import { isHTTPError } from 'ky';
import { fileUrlWith, type ThumbnailSize } from '../../definitions/files.ts';
import { getApiClient, type ApiClient } from './client.ts';
import { contentPath, StaleItemError, type Item, type ProjectScope, type VersionedItem } from './content.ts';
import { toApiError } from './errors.ts';
import { progressFetch, type UploadProgress } from './progress-fetch.ts';
import { requestJson } from './request-json.ts';


/** Where an image goes: the item (the top-level one for a nested item) and the field. */
export interface ImageTarget {
  collectionID: string;
  /** The top-level item. */
  itemID: string;
  /** A nested item: the chain ending in its id. */
  nestedID?: string | undefined;
  /** The field's slug. */
  slug: string;
}

export interface ImageUpload {
  /** The file (`imageFile`), or an http(s) address kept as it is (`imageLink`). */
  file?: Blob & { name?: string };
  link?: string;
  altText?: string;
  onProgress?: UploadProgress;
  signal?: AbortSignal;
}

/** Which image of a set to remove (an ImageRef needs neither). */
export interface ImageToRemove {
  imageID?: string | undefined;
  imageName?: string | undefined;
}

export interface FilesApi {
  /** PUT item/{id}/image?imageSlug&nestedID: sets an ImageRef or appends to an ImageRefSet; answers the item. */
  uploadImage(scope: ProjectScope, target: ImageTarget, upload: ImageUpload): Promise<VersionedItem>;
  /** DELETE item/{id}/image?fieldSlug&nestedID[&imageID|imageName]: answers the item. */
  deleteImage(scope: ProjectScope, target: ImageTarget, which?: ImageToRemove): Promise<VersionedItem>;
}

/** Whether an address is one of this server's stored files (`…/files/<key>`), which have thumbnails. */
export function isStoredFileUrl(url: string): boolean {
  try {
    const parsed = new URL(url, globalThis.location?.href ?? 'http://localhost/');
    return parsed.pathname.startsWith('/files/p/') && parsed.search === '';
  } catch {
    return false;
  }
}

/** A stored file's thumbnail (`resize=200` in tables, `resize=300` in pickers). */
export const thumbnailUrl = (url: string, size: ThumbnailSize) => fileUrlWith(url, `resize=${size}`);

/** A stored file's address that downloads it (`&download=true`). */
export const downloadUrl = (url: string) => fileUrlWith(url, 'download=true');

export function createFilesApi(client: ApiClient): FilesApi {
  const { http } = client;

  const imagePath = (scope: ProjectScope, target: ImageTarget) => contentPath(scope, 'collection', target.collectionID, 'item', target.itemID, 'image');

  /** The answer's item and ETag; a 409 (only with If-Match, which these calls do not send) becomes a StaleItemError. */
  async function versioned(call: () => Promise<Response>): Promise<VersionedItem> {
    let response: Response;
    try {
      response = await call();
    } catch (error) {
      if (isHTTPError(error) && error.response.status === 409) {
        const body = (await error.response.clone().json().catch(() => ({}))) as { item?: Item };
        throw new StaleItemError(await toApiError(error), body.item ?? null, error.response.headers.get('etag'));
      }
      throw await toApiError(error);
    }
    const item = await requestJson<Item>(Promise.resolve(response));
    return { item, etag: response.headers.get('etag') };
  }

  return {
    uploadImage(scope, target, upload) {
      const form = new FormData();
      // The server reads altText before the file (docs/files.md): it goes first.
      form.append('altText', upload.altText ?? '');
      if (upload.file) form.append('imageFile', upload.file, upload.file.name ?? 'file');
      else form.append('imageLink', upload.link ?? '');
      const searchParams: Record<string, string> = { imageSlug: target.slug };
      if (target.nestedID) searchParams.nestedID = target.nestedID;
      return versioned(() =>
        http(imagePath(scope, target), {
          method: 'put',
          body: form,
          searchParams,
          // A 10 MB upload on a slow line outlasts any fixed timeout; the caller can abort.
          timeout: false,
          fetch: progressFetch(upload.onProgress),
          ...(upload.signal ? { signal: upload.signal } : {}),
        }),
      );
    },
    deleteImage(scope, target, which = {}) {
      const searchParams: Record<string, string> = { fieldSlug: target.slug };
      if (target.nestedID) searchParams.nestedID = target.nestedID;
      if (which.imageID) searchParams.imageID = which.imageID;
      else if (which.imageName) searchParams.imageName = which.imageName;
      return versioned(() => http(imagePath(scope, target), { method: 'delete', searchParams }));
    },
  };
}

let browserFilesApi: FilesApi | null = null;

/** The file calls over the page's client. */
export function getFilesApi(): FilesApi {
  browserFilesApi ??= createFilesApi(getApiClient());
  return browserFilesApi;
}
