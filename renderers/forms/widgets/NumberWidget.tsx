import type { WidgetProps } from './types.ts';

/** A whole number; the renderer registers it `valueAsNumber`, so a blank input is absent. */
export function NumberWidget({ id, registration, invalid, required, disabled, describedBy }: WidgetProps) {
  return (
    <input
      id={id}
      className="input input-number"
      type="number"
      inputMode="numeric"
      step={1}
      aria-invalid={invalid || undefined}
      aria-required={required || undefined}
      aria-describedby={describedBy}
      disabled={disabled}
      {...registration}
    />
  );
}
