/** Link: the address as text (a cell opens its item, not the address; the preview comes with the media issue). */
import type { DisplayProps } from '../display-types.ts';
import { TextDisplay } from '../TextDisplay.tsx';

export function LinkDisplay(props: DisplayProps) {
  return <TextDisplay {...props} />;
}
