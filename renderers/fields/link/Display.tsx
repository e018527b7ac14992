/** Link: the address as text (a cell opens its item, not the address). Previews are the editor's: a list asks no page for one. */
import type { DisplayProps } from '../display-types.ts';
import { TextDisplay } from '../TextDisplay.tsx';

export function LinkDisplay(props: DisplayProps) {
  return <TextDisplay {...props} />;
}
