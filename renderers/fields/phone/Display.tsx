/** Phone: the digits as stored. */
import type { DisplayProps } from '../display-types.ts';
import { TextDisplay } from '../TextDisplay.tsx';

export function PhoneDisplay(props: DisplayProps) {
  return <TextDisplay {...props} />;
}
