/**
 * An image in lists: a small thumbnail (`resize=200`) of a stored raster image,
 * described by its alt text. The grid shows jpeg, jpg, gif, svg, png, avif, webp and jfif as
 * images (SVG as it is: the server makes thumbnails of raster images only); any other file, or
 * an image linked from elsewhere that the server cannot resize, by its address as it is or its name.
 */
import { fileUrlWith } from '../../../definitions/files.ts';
import { isStoredFileUrl, thumbnailUrl } from '../../../src/api/files.ts';
import type { DisplayProps } from '../display-types.ts';
import { extensionOfImage, nameOf, urlOf, type ImageValue } from './image-value.ts';
import { fileKindOf, previewExtension } from './media/kinds.ts';
import './image-display.css';

/** The address a list shows an image at: a thumbnail of a stored raster image, else the image itself. */
export function listImageUrl(url: string, extension: string): string {
  if (!isStoredFileUrl(url) || extension === 'svg') return url;
  return thumbnailUrl(url, 200);
}

export function ImageDisplay({ value }: DisplayProps) {
  if (!value || typeof value !== 'object') return null;
  const image = value as ImageValue;
  const url = urlOf(image);
  if (!url) return null;
  const name = nameOf(image);
  const extension = previewExtension({ extension: extensionOfImage(image), name, url });
  if (fileKindOf(extension, { forGrid: true }) !== 'image') {
    return (
      <a className="cell-file" href={fileUrlWith(url, 'download=true')} download>
        {name || url}
      </a>
    );
  }
  return <img className="cell-image" src={listImageUrl(url, extension)} alt={typeof image.altText === 'string' ? image.altText : ''} loading="lazy" height={32} />;
}
