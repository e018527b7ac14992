import type { WidgetProps } from './types.ts';

export function TextWidget({ field, id, registration, invalid, required, disabled, describedBy }: WidgetProps) {
  return (
    <input
      id={id}
      className="input"
      type={field.inputType ?? 'text'}
      autoComplete={field.autoComplete}
      aria-invalid={invalid || undefined}
      aria-required={required || undefined}
      aria-describedby={describedBy}
      disabled={disabled}
      spellCheck={field.inputType === 'text' || field.inputType === undefined ? false : undefined}
      {...registration}
    />
  );
}
