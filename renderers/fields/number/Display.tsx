/** Number: the number as its registry entry writes it. */
import type { DisplayProps } from '../display-types.ts';
import { TextDisplay } from '../TextDisplay.tsx';

export function NumberDisplay(props: DisplayProps) {
  return <TextDisplay {...props} />;
}
