import { useController } from 'react-hook-form';
import { Switch } from 'radix-ui';
import type { WidgetProps } from './types.ts';

/** An on/off choice (radix Switch: role="switch", Space toggles); the field frame's label names it. */
export function SwitchWidget({ field, id, control, disabled, describedBy }: WidgetProps) {
  const { field: state } = useController({ name: field.name, control });
  return (
    <Switch.Root
      id={id}
      className="switch"
      checked={state.value === true}
      onCheckedChange={(checked) => state.onChange(checked)}
      onBlur={state.onBlur}
      disabled={disabled}
      aria-describedby={describedBy}
      ref={state.ref}
    >
      <Switch.Thumb className="switch-thumb" />
    </Switch.Root>
  );
}
