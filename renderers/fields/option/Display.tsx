/** Option: the chosen option's value. */
import type { DisplayProps } from '../display-types.ts';
import { TextDisplay } from '../TextDisplay.tsx';

export function OptionDisplay(props: DisplayProps) {
  return <TextDisplay {...props} />;
}
