/** PlainText in lists and read-only places: the text as stored. */
import type { DisplayProps } from '../display-types.ts';
import { TextDisplay } from '../TextDisplay.tsx';

export function PlainTextDisplay(props: DisplayProps) {
  return <TextDisplay {...props} />;
}
