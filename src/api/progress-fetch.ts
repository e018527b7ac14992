/**
 * A `fetch` over XMLHttpRequest, for uploads whose progress is shown (fetch reports none): file
 * uploads (src/api/files.ts) and item imports (src/api/content.ts).
 */

/** Bytes sent so far of the bytes to send (the whole body). */
export type UploadProgress = (sent: number, total: number) => void;

/** The headers XMLHttpRequest hands back, as a Headers object. */
function headersOf(xhr: XMLHttpRequest): Headers {
  const headers = new Headers();
  for (const line of xhr.getAllResponseHeaders().trim().split(/[\r\n]+/)) {
    const at = line.indexOf(':');
    if (at > 0) headers.append(line.slice(0, at).trim(), line.slice(at + 1).trim());
  }
  return headers;
}

/**
 * A `fetch` that sends with XMLHttpRequest and tells `onProgress` how much of the body has left.
 * Errors look like fetch's: a TypeError when no answer came, an AbortError when aborted.
 */
export function progressFetch(onProgress: UploadProgress | undefined): typeof fetch {
  return async (input, init) => {
    const request = input instanceof Request ? input : new Request(input, init);
    const body = request.method === 'GET' || request.method === 'HEAD' ? null : await request.blob();
    return new Promise<Response>((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(request.method, request.url);
      request.headers.forEach((value, name) => xhr.setRequestHeader(name, value));
      xhr.responseType = 'blob';
      const abort = () => xhr.abort();
      const signal = init?.signal ?? request.signal;
      if (signal?.aborted) {
        reject(new DOMException('The upload was aborted.', 'AbortError'));
        return;
      }
      signal?.addEventListener('abort', abort, { once: true });
      const done = () => signal?.removeEventListener('abort', abort);
      if (onProgress) {
        xhr.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : (body?.size ?? 0));
      }
      xhr.onload = () => {
        done();
        if (onProgress && body) onProgress(body.size, body.size);
        const empty = xhr.status === 204 || xhr.status === 304;
        resolve(new Response(empty ? null : (xhr.response as Blob), { status: xhr.status, statusText: xhr.statusText, headers: headersOf(xhr) }));
      };
      xhr.onerror = () => {
        done();
        reject(new TypeError('Failed to fetch'));
      };
      xhr.ontimeout = xhr.onerror;
      xhr.onabort = () => {
        done();
        reject(new DOMException('The upload was aborted.', 'AbortError'));
      };
      xhr.send(body);
    });
  };
}
