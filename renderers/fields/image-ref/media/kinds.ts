/**
 * How the console previews a stored file, decided by its extension. The lists
 * live in definitions/files.ts; this only reads them.
 */
import {
  audioExtensions,
  extensionOf,
  gridImageExtensions,
  modelExtensions,
  pdfExtensions,
  previewImageExtensions,
  type ModelExtension,
} from '../../../../definitions/files.ts';

export type FileKind = 'image' | 'audio' | 'model' | 'pdf' | 'other';

const isIn = <T extends string>(list: readonly T[], extension: string): extension is T => (list as readonly string[]).includes(extension);

/** The extension a file is previewed by: the stored one, else its name's, else its URL path's. */
export function previewExtension({ extension, name, url }: { extension?: string; name?: string; url?: string }): string {
  const stored = (extension ?? '').trim().replace(/^\./, '').toLowerCase();
  if (stored) return stored;
  const named = name ? extensionOf(name) : '';
  if (named) return named;
  if (!url) return '';
  let path = url.split(/[?#]/)[0] ?? '';
  try {
    path = decodeURIComponent(new URL(url, 'http://localhost').pathname);
  } catch {
    /* not a URL we can read: the raw path will do */
  }
  return extensionOf(path);
}

/**
 * The kind of preview for an extension. The grid (`forGrid`) also shows avif, webp and jfif as
 * images; the editor's preview does not.
 */
export function fileKindOf(extension: string, { forGrid = false }: { forGrid?: boolean } = {}): FileKind {
  const ext = extension.toLowerCase();
  if (isIn(forGrid ? gridImageExtensions : previewImageExtensions, ext)) return 'image';
  if (isIn(audioExtensions, ext)) return 'audio';
  if (isIn(modelExtensions, ext)) return 'model';
  if (isIn(pdfExtensions, ext)) return 'pdf';
  return 'other';
}

/** The 3D format of an extension, when the viewer opens it. */
export function modelFormatOf(extension: string): ModelExtension | undefined {
  const ext = extension.toLowerCase();
  return isIn(modelExtensions, ext) ? ext : undefined;
}
