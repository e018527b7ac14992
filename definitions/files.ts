/**
 * Files: upload limits, thumbnail sizes and the file kinds the console recognises.
 * Shared by the server, which enforces them, and the console, which warns first.
 */

export const fileLimits = {
  /** Uploads above this many bytes are refused (413) while they stream; the console refuses first. */
  uploadBytesMax: 10_000_000,
  /** Above this the console notes the file may be slow to use. */
  uploadBytesWarn: 4_000_000,
  /** Alternative text of an image. */
  altTextMax: 1000,
  /** Files in one `assets` call. */
  assetsPerCall: 20,
  /** Images larger than this many pixels are not decoded for thumbnails (pixel floods). */
  thumbnailInputPixelsMax: 50_000_000,
} as const;

/** The only thumbnail widths served (`resize=200` in tables, `resize=300` in pickers). */
export const thumbnailSizes = [200, 300] as const;
export type ThumbnailSize = (typeof thumbnailSizes)[number];

/** Extensions the console previews as images (the grid also previews avif, webp and jfif). */
export const previewImageExtensions = ['jpeg', 'jpg', 'gif', 'svg', 'png'] as const;
export const gridImageExtensions = [...previewImageExtensions, 'avif', 'webp', 'jfif'] as const;
/** Extensions the console plays as audio. */
export const audioExtensions = ['wav', 'mp3', 'aac', 'flac', 'ogg', 'oga', 'mogg', '3gp', 'webm'] as const;
/** Extensions the console opens in the 3D viewer. */
export const modelExtensions = ['obj', 'stl', 'dae', 'ply', 'fbx', 'gltf', 'glb'] as const;
export type ModelExtension = (typeof modelExtensions)[number];
/** Extensions shown as a PDF document card. */
export const pdfExtensions = ['pdf'] as const;
/** Playback speeds the audio player offers, the first being the default. */
export const audioSpeeds = [1, 1.5, 2] as const;
export type AudioSpeed = (typeof audioSpeeds)[number];

/** A stored file's URL with one more query parameter: `fileUrlWith(url, 'download=true')`. */
export function fileUrlWith(url: string, param: string): string {
  return `${url}${url.includes('?') ? '&' : '?'}${param}`;
}

/** The extension of a file name, lower case, without the dot ('' when it has none). */
export function extensionOf(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}

/**
 * Whether a file of this type and name is one the field's `accept` (an HTML accept list:
 * `image/*,application/pdf,.glb`) allows.
 */
export function acceptsFile(accept: string, mime: string, name: string): boolean {
  const entries = accept
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter(Boolean);
  const ext = extensionOf(name);
  const type = mime.toLowerCase();
  return entries.some((entry) => {
    if (entry.startsWith('.')) return entry.slice(1) === ext;
    if (entry === '*/*' || entry === '*') return true;
    if (entry.endsWith('/*')) return type.startsWith(entry.slice(0, -1));
    return entry === type;
  });
}
