/**
 * ImageRefSet in lists: the first images as thumbnails (as an ImageRef shows), then how many more
 * the set holds.
 */
import { isPlainObject } from '../../../definitions/field-types/support.ts';
import { useFormat } from '../../messages/use-format.ts';
import type { DisplayProps } from '../display-types.ts';
import { ImageDisplay } from '../image-ref/Display.tsx';

/** Thumbnails a list cell shows at most. */
const shownMax = 3;

export function ImageRefSetDisplay({ value, field }: DisplayProps) {
  const format = useFormat();
  const images = Array.isArray(value) ? value.filter(isPlainObject) : [];
  if (images.length === 0) return null;
  const rest = images.length - shownMax;
  return (
    <span className="cell-images">
      {images.slice(0, shownMax).map((image, i) => (
        <ImageDisplay key={typeof image._id === 'string' ? image._id : i} value={image} field={field} />
      ))}
      {rest > 0 ? <span className="cell-images-more">{format('display.imageSet.more', { count: rest })}</span> : null}
    </span>
  );
}
