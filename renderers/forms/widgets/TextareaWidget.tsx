import type { WidgetProps } from './types.ts';

export function TextareaWidget({ field, id, registration, invalid, required, disabled, describedBy }: WidgetProps) {
  return (
    <textarea
      id={id}
      className="input textarea"
      rows={field.rows ?? 3}
      aria-invalid={invalid || undefined}
      aria-required={required || undefined}
      aria-describedby={describedBy}
      disabled={disabled}
      {...registration}
    />
  );
}
