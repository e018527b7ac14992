/** NestedCollection in lists: how many nested items the value carries. */
import type { DisplayProps } from '../display-types.ts';
import { TextDisplay } from '../TextDisplay.tsx';

export function NestedCollectionDisplay(props: DisplayProps) {
  return <TextDisplay {...props} />;
}
