/** An image as a small thumbnail (`resize=200`, content §7), described by its alt text. */
import type { DisplayProps } from '../display-types.ts';

const thumbnail = (url: string) => `${url}${url.includes('?') ? '&' : '?'}resize=200`;

export function ImageDisplay({ value }: DisplayProps) {
  if (!value || typeof value !== 'object') return null;
  const { imageURL, altText, imageName } = value as { imageURL?: unknown; altText?: unknown; imageName?: unknown };
  if (typeof imageURL !== 'string' || imageURL === '') return null;
  const alt = typeof altText === 'string' && altText !== '' ? altText : typeof imageName === 'string' ? imageName : '';
  return <img className="cell-image" src={thumbnail(imageURL)} alt={alt} loading="lazy" height={32} />;
}
