/** True or false as an icon with its words for assistive technology; unset draws nothing. */
import { Check, X } from 'lucide-react';
import { useFormat } from '../../messages/use-format.ts';
import type { DisplayProps } from '../display-types.ts';

export function BoolDisplay({ value }: DisplayProps) {
  const format = useFormat();
  if (typeof value !== 'boolean') return null;
  const Icon = value ? Check : X;
  const label = format(value ? 'display.true' : 'display.false');
  return (
    <span className="cell-bool" role="img" aria-label={label} title={label}>
      <Icon aria-hidden="true" focusable="false" size={16} />
    </span>
  );
}
