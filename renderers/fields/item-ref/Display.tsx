/** ItemRef: the linked items' display values, comma-separated. */
import type { DisplayProps } from '../display-types.ts';
import { TextDisplay } from '../TextDisplay.tsx';

export function ItemRefDisplay(props: DisplayProps) {
  return <TextDisplay {...props} />;
}
