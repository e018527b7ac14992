/**
 * What a file really is, read from its bytes (file-type), never from its name: the name only
 * has to agree. Text formats file-type cannot see (SVG, HTML, XML, 3D text formats) are told
 * apart by their first characters. How a type is served follows from it: only inert media types
 * are shown inline; everything that can carry script is an attachment in a sandbox.
 */
import { open } from 'node:fs/promises';
import { fileTypeFromFile } from 'file-type';
import { extensionOf } from '../../definitions/files.ts';

export interface Sniffed {
  mime: string;
  /** The extension the stored file gets (from the content, or from the name for formats without a signature). */
  ext: string;
}

/**
 * Extensions whose names promise a format with a signature file-type recognises: a file named so
 * must have it. Values are the file-type extensions that fulfil the promise.
 */
const signedExtensions: Record<string, readonly string[]> = {
  jpg: ['jpg'],
  jpeg: ['jpg'],
  jfif: ['jpg'],
  png: ['png', 'apng'],
  apng: ['apng', 'png'],
  gif: ['gif'],
  webp: ['webp'],
  avif: ['avif', 'heic'],
  heic: ['heic'],
  bmp: ['bmp'],
  tif: ['tif'],
  tiff: ['tif'],
  ico: ['ico'],
  pdf: ['pdf'],
  zip: ['zip'],
  mp3: ['mp3'],
  wav: ['wav'],
  flac: ['flac'],
  ogg: ['ogg', 'oga', 'opus', 'ogv', 'ogx'],
  oga: ['ogg', 'oga', 'opus', 'ogx'],
  mogg: ['ogg', 'oga', 'ogx'],
  opus: ['opus', 'ogg'],
  aac: ['aac', 'm4a'],
  m4a: ['m4a', 'mp4'],
  mp4: ['mp4', 'm4v', 'm4a'],
  '3gp': ['3gp', 'mp4'],
  webm: ['webm'],
  mov: ['mov'],
  glb: ['glb'],
  woff: ['woff'],
  woff2: ['woff2'],
};

/**
 * Formats without a signature that may be stored under their own extension and type (served as
 * attachments unless listed as inline below).
 */
const textFormats: Record<string, string> = {
  txt: 'text/plain',
  csv: 'text/csv',
  json: 'application/json',
  gltf: 'model/gltf+json',
  obj: 'model/obj',
  stl: 'model/stl',
  ply: 'application/ply',
  dae: 'model/vnd.collada+xml',
  fbx: 'application/octet-stream',
  js: 'text/javascript',
  css: 'text/css',
  md: 'text/markdown',
};

/** Types browsers may show inline: media that cannot run script. Everything else is downloaded. */
const inlineTypes = /^(image\/(png|jpeg|gif|webp|avif|bmp|apng|heic|x-icon|vnd\.microsoft\.icon)|audio\/[a-z0-9.+-]+|video\/[a-z0-9.+-]+|application\/pdf)$/;

export const isInline = (mime: string) => inlineTypes.test(mime);

/** Raster images sharp can make thumbnails of. */
export const isRasterImage = (mime: string) => /^image\/(png|jpeg|gif|webp|avif|tiff|apng)$/.test(mime);

async function head(file: string, bytes: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await handle.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** What text-shaped content is, when it is one of the markup formats that can carry script. */
function markupOf(text: string): Sniffed | undefined {
  // Past a byte-order mark, the XML declaration, comments and a doctype.
  const start = text
    .replace(/^\uFEFF/, '')
    .replace(/^(\s|<\?xml[^>]*\?>|<!--[\s\S]*?-->|<!doctype[^>]*>)*/i, '')
    .slice(0, 200)
    .toLowerCase();
  if (start.startsWith('<svg')) return { mime: 'image/svg+xml', ext: 'svg' };
  if (/^<(html|head|body|script|iframe|object|embed|meta|link|style|div|p|a|img)[\s>/]/.test(start) || /<!doctype html/i.test(text.slice(0, 1000))) {
    return { mime: 'text/html', ext: 'html' };
  }
  if (start.startsWith('<collada')) return { mime: 'model/vnd.collada+xml', ext: 'dae' };
  if (start.startsWith('<')) return { mime: 'application/xml', ext: 'xml' };
  return undefined;
}

export type SniffOutcome = { ok: true; type: Sniffed } | { ok: false; code: 'empty_file' | 'type_mismatch'; message: string };

/** Reads the file's real type and checks the name agrees with it. */
export async function sniffFile(file: string, name: string, size: number): Promise<SniffOutcome> {
  if (size === 0) return { ok: false, code: 'empty_file', message: 'The file is empty.' };
  const claimed = extensionOf(name);
  const found = await fileTypeFromFile(file);
  // file-type calls any XML "xml": what matters is whether it is SVG or HTML (script) or other markup.
  const detected = found && found.ext === 'xml' ? (markupOf((await head(file, 4096)).toString('utf8')) ?? found) : found;
  if (detected) {
    const promised = signedExtensions[claimed];
    const textClaim = textFormats[claimed] !== undefined || claimed === 'svg' || claimed === 'html' || claimed === 'htm';
    if ((promised && !promised.includes(detected.ext)) || (textClaim && detected.ext !== claimed)) {
      return { ok: false, code: 'type_mismatch', message: `The file is ${detected.ext.toUpperCase()} but its name ends in .${claimed}.` };
    }
    // The name's spelling is kept when it is one of the detected type's (jpeg, jfif, oga).
    return { ok: true, type: { mime: detected.mime, ext: promised ? claimed : detected.ext } };
  }
  if (signedExtensions[claimed]) {
    return { ok: false, code: 'type_mismatch', message: `The file's content is not ${claimed.toUpperCase()}, although its name ends in .${claimed}.` };
  }
  const text = (await head(file, 4096)).toString('utf8');
  const markup = markupOf(text);
  if (markup) {
    // An SVG named .svg, HTML named .html: fine. Markup under another text name (a .txt, a .js) is markup all the same.
    return { ok: true, type: markup };
  }
  if (claimed === 'svg' || claimed === 'html' || claimed === 'htm') {
    return { ok: false, code: 'type_mismatch', message: `The file's content is not ${claimed.toUpperCase()}, although its name ends in .${claimed}.` };
  }
  const format = textFormats[claimed];
  if (format) return { ok: true, type: { mime: format, ext: claimed } };
  return { ok: true, type: { mime: 'application/octet-stream', ext: claimed && /^[a-z0-9]{1,10}$/.test(claimed) ? claimed : 'bin' } };
}

/**
 * The file name a link's address ends in (the host name when its path names none), decoded where
 * its percent-encoding is UTF-8 and kept as written where it is not (`%E0`) or where decoding
 * gives a control character (`%00`): an address never fails an upload or puts a NUL in a name.
 */
export function linkedFileName(url: URL): string {
  const written = url.pathname.split('/').pop() ?? '';
  let name = written;
  try {
    name = decodeURIComponent(written);
  } catch {
    name = written;
  }
  if (/[\u0000-\u001f\u007f]/.test(name)) name = written;
  return (name || url.hostname).slice(0, 255);
}
