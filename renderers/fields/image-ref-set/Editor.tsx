/**
 * ImageRefSet: read-only here until its own editor arrives with the media issue. The set's images
 * are drawn one by one by the image display (the type's own display is the count the item list
 * shows, which would hide the images the field holds); a file without an image shows its name.
 */
import { isPlainObject } from '../../../definitions/field-types/support.ts';
import { useFormat } from '../../messages/use-format.ts';
import { ImageDisplay } from '../image-ref/Display.tsx';
import { describedByOf } from '../editor-support.ts';
import { EditorMessages, messagesId } from '../EditorMessages.tsx';
import type { EditorProps } from '../editor-types.ts';

const textOf = (value: unknown) => (typeof value === 'string' ? value : '');

export function ImageRefSetEditor({ field, value, error, id, labelledBy, describedBy }: EditorProps) {
  const format = useFormat();
  const images = Array.isArray(value) ? value.filter(isPlainObject) : [];
  return (
    <div className="editor-readonly-wrap">
      <div id={id} className="editor-readonly" role="group" aria-labelledby={labelledBy} aria-describedby={describedByOf(describedBy, error && messagesId(id))}>
        {images.length === 0 ? (
          <span className="editor-muted">{format('editor.notSet')}</span>
        ) : (
          <ul className="chips">
            {images.map((image, i) => (
              <li key={textOf(image._id) || i}>
                {textOf(image.imageURL) ? <ImageDisplay value={image} field={field} /> : textOf(image.imageName) || textOf(image.fileURL)}
              </li>
            ))}
          </ul>
        )}
      </div>
      <EditorMessages id={messagesId(id)} messages={[error]} />
    </div>
  );
}
