import { useFormat } from '../../messages/use-format.ts';
import type { WidgetProps } from './types.ts';

/** A native select: keyboard, screen readers and mobile pickers work without extra code. */
export function SelectWidget({ field, id, registration, invalid, required, disabled, describedBy, options }: WidgetProps) {
  const format = useFormat();
  return (
    <select
      id={id}
      className="input select"
      aria-invalid={invalid || undefined}
      aria-required={required || undefined}
      aria-describedby={describedBy}
      disabled={disabled}
      {...registration}
    >
      {field.placeholder || !field.dynamicOptions ? <option value="">{field.placeholder ? format(field.placeholder) : ''}</option> : null}
      {field.options?.map((option) => (
        <option key={option.value} value={option.value}>
          {format(option.label)}
        </option>
      ))}
      {options?.map((option) => (
        <option key={option.value} value={option.value}>
          {option.text}
        </option>
      ))}
    </select>
  );
}
