/** Metadata: its registry text (dates in the reader's locale). */
import type { DisplayProps } from '../display-types.ts';
import { TextDisplay } from '../TextDisplay.tsx';

export function MetadataDisplay(props: DisplayProps) {
  return <TextDisplay {...props} />;
}
