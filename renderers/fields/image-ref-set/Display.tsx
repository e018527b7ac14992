/** ImageRefSet in lists: how many files the set holds (the read-only editor draws each image). */
import type { DisplayProps } from '../display-types.ts';
import { TextDisplay } from '../TextDisplay.tsx';

export function ImageRefSetDisplay(props: DisplayProps) {
  return <TextDisplay {...props} />;
}
