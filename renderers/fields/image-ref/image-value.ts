/**
 * Image values as the ImageRef and ImageRefSet editors and displays read them:
 * `imageURL`, `imageName` (the stored file's unique name), `fileName` (the name it was uploaded
 * with), `altText`, `extension`, `fileURL`, an image set entry's `_id`, and,
 * only in the browser before an upload, the chosen `file` and its preview address `selectedImage`.
 */
import { extensionOf } from '../../../definitions/files.ts';
import { isPlainObject } from '../../../definitions/field-types/support.ts';
import { isPendingImage } from '../../../machines/item-form-rules.ts';

export interface ImageValue {
  imageURL?: string;
  imageName?: string;
  /** The name the file was uploaded with (docs/files.md). */
  fileName?: string;
  altText?: string;
  extension?: string;
  fileURL?: string;
  _id?: string;
  /** The chosen file, not uploaded yet. */
  file?: File;
  /** The browser's address of the chosen file, for its preview. */
  selectedImage?: string;
}

export const text = (value: unknown) => (typeof value === 'string' ? value : '');

export const imageValueOf = (value: unknown): ImageValue | null => (isPlainObject(value) ? (value as ImageValue) : null);

/** The address the image is at: `imageURL`, else `fileURL`. */
export const urlOf = (image: ImageValue) => text(image.imageURL) || text(image.fileURL);

const dataImage = /^data:image\/([a-z0-9.+-]+)[;,]/i;

/** The image's extension: the stored one, else its name's, else a `data:` address's type (`image/png` → png). */
export function extensionOfImage(image: ImageValue): string | undefined {
  const stored = text(image.extension) || extensionOf(text(image.imageName));
  if (stored) return stored;
  const type = dataImage.exec(urlOf(image))?.[1]?.toLowerCase();
  if (type) return type === 'svg+xml' ? 'svg' : type;
  return undefined;
}

/**
 * The name to show for an image: the name it was uploaded with, else its stored name (values
 * stored before uploaded names were kept), else its address's last part (none for a `data:` address).
 */
export function nameOf(image: ImageValue): string {
  const name = text(image.fileName) || text(image.imageName);
  if (name) return name;
  const url = urlOf(image);
  if (url.startsWith('data:')) return '';
  return url.split(/[?#]/)[0]!.split('/').pop() ?? '';
}

/** A file chosen for a new item: it waits in the form, previewed from the browser. */
export const pendingImage = (file: File, altText = ''): ImageValue => ({
  file,
  selectedImage: URL.createObjectURL(file),
  imageName: file.name,
  fileName: file.name,
  extension: extensionOf(file.name),
  altText,
});

/** A chosen file not uploaded yet (as the item form reads it: a `file` and no address). */
export const isPending = (image: ImageValue | null): boolean => isPendingImage(image);

/** Lets go of a chosen file's browser address once it is no longer shown. */
export const forget = (image: ImageValue | null) => {
  if (image?.selectedImage?.startsWith('blob:')) URL.revokeObjectURL(image.selectedImage);
};
