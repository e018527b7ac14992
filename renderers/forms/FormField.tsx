/**
 * One field of a form definition: its label, the widget from the registry, a hint and the error,
 * tied together by ids for assistive technology. FormRenderer draws every field with it; a form
 * with its own buttons (Edit Billing Info's two submits) draws its fields with it too.
 */
import { Suspense } from 'react';
import type { Control, FieldValues, UseFormRegisterReturn } from 'react-hook-form';
import type { FieldDefinition } from '../../definitions/forms/types.ts';
import { useFormat } from '../messages/use-format.ts';
import { widgets } from './widgets/index.ts';
import type { DataOption } from './widgets/types.ts';

export interface FormFieldProps {
  field: FieldDefinition;
  id: string;
  registration: UseFormRegisterReturn;
  control: Control<FieldValues>;
  required: boolean;
  disabled?: boolean;
  options?: readonly DataOption[] | undefined;
  /** A hint in plain text (already formatted). */
  help?: string | undefined;
  error?: string | undefined;
  /** Ids of notes outside the field that also describe it (a form-level warning about it). */
  alsoDescribedBy?: string | undefined;
}

export function FormField({ field, id, registration, control, required, disabled = false, options, help, error, alsoDescribedBy }: FormFieldProps) {
  const format = useFormat();
  const Widget = widgets[field.widget];
  const helpId = help ? `${id}-help` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [errorId, helpId, alsoDescribedBy].filter(Boolean).join(' ') || undefined;
  return (
    <div className={`field field-${field.widget}`} data-field={field.name}>
      <label className="field-label" htmlFor={id}>
        {format(field.label)}
      </label>
      <Suspense fallback={null}>
        <Widget
          field={field}
          id={id}
          registration={registration}
          control={control}
          invalid={Boolean(error)}
          required={required}
          disabled={disabled}
          describedBy={describedBy}
          options={options}
        />
      </Suspense>
      {help ? (
        <p id={helpId} className="field-help">
          {help}
        </p>
      ) : null}
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}
