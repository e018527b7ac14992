/**
 * Draws any form definition: its title, one field frame per field (label, widget from the
 * registry, hint, error), the server's message and the submit button. Validation is the
 * definition's standalone validator; nothing here knows a particular form.
 */
import { createElement, useEffect, useId, useMemo, type ReactNode } from 'react';
import { useForm, useWatch, type FieldValues } from 'react-hook-form';
import type { FormDefinition } from '../../definitions/forms/types.ts';
import { useFormat } from '../messages/use-format.ts';
import { isFieldVisible, isSubmitBlocked } from './prepare-values.ts';
import { standaloneResolver, type FormValues } from './standalone-resolver.ts';
import type { StandaloneValidate } from './standalone-validator.ts';
import { FormField } from './FormField.tsx';
import type { DataOption } from './widgets/types.ts';

/** What a screen may change about one field while the form is open: its data choices, a lock, a hint. */
export interface FieldState {
  options?: readonly DataOption[];
  disabled?: boolean;
  /** A hint in plain text (already formatted), shown instead of the definition's. */
  help?: string;
}

export interface FormRendererProps {
  definition: FormDefinition;
  validate: StandaloneValidate;
  /** Receives the valid payload (empty optional fields and hidden fields left out). */
  onSubmit: (values: FormValues) => unknown;
  /** While true the submit button says so and further submits are ignored; typed values stay. */
  busy?: boolean;
  /** A message for the whole form, such as the server's answer to the last submit. */
  error?: string | null;
  /** Messages the server gave for single fields. */
  fieldErrors?: Readonly<Record<string, string>>;
  defaultValues?: Readonly<Partial<FormValues>>;
  /** Shown between the title and the fields. */
  intro?: ReactNode;
  /** Shown after the submit button (links, other ways in). */
  children?: ReactNode;
  headingLevel?: 1 | 2 | 3;
  /**
   * The id of a heading drawn around the form (a dialog's title): the form is named by it and
   * draws no heading of its own.
   */
  labelledBy?: string;
  /** Draws a Cancel button beside the submit button, which then no longer spans the form. */
  onCancel?: () => void;
  fieldStates?: Readonly<Record<string, FieldState>>;
}

export function FormRenderer({
  definition,
  validate,
  onSubmit,
  busy = false,
  error,
  fieldErrors,
  defaultValues,
  intro,
  children,
  headingLevel = 1,
  labelledBy,
  onCancel,
  fieldStates,
}: FormRendererProps) {
  const format = useFormat();
  const baseId = useId();
  const resolver = useMemo(() => standaloneResolver(validate, format, definition), [validate, format, definition]);
  const initial = useMemo(
    () =>
      Object.fromEntries(
        definition.fields.map((field) => [field.name, defaultValues?.[field.name] ?? (field.widget === 'switch' ? false : '')]),
      ),
    [definition, defaultValues],
  );
  const { register, handleSubmit, setError, formState, control } = useForm<FieldValues>({ resolver, defaultValues: initial });
  const values = useWatch({ control }) as FieldValues;
  const current = { ...initial, ...values };
  const required = new Set(definition.schema.required ?? []);
  const blocked = isSubmitBlocked(definition, current);

  // Keyed on the content: a screen may pass a new but equal object on every render.
  const serverFieldErrors = JSON.stringify(fieldErrors ?? {});
  useEffect(() => {
    const entries = Object.entries(JSON.parse(serverFieldErrors) as Record<string, string>);
    entries.forEach(([name, message], index) => setError(name, { type: 'server', message }, { shouldFocus: index === 0 }));
  }, [serverFieldErrors, setError]);

  const submit = handleSubmit(async (payload) => {
    if (!busy) await onSubmit(payload as FormValues);
  });
  const titleId = `${baseId}-title`;
  const submitButton = (
    <button
      type="submit"
      className={`button button-primary${onCancel ? '' : ' button-block'}`}
      aria-disabled={busy || undefined}
      disabled={blocked}
    >
      {format(busy ? definition.submitting : definition.submit)}
    </button>
  );

  return (
    <form className="form" aria-labelledby={labelledBy ?? titleId} noValidate onSubmit={submit} data-form={definition.id}>
      {labelledBy ? null : createElement(`h${headingLevel}`, { id: titleId, className: 'form-title' }, format(definition.title))}
      {intro}
      {error ? (
        <div role="alert" className="form-alert">
          {error}
        </div>
      ) : null}
      {definition.fields.map((field) => {
        if (!isFieldVisible(definition, field.name, current)) return null;
        const state = fieldStates?.[field.name];
        return (
          <FormField
            key={field.name}
            field={field}
            id={`${baseId}-${field.name}`}
            registration={register(field.name, field.widget === 'number' ? { valueAsNumber: true } : undefined)}
            control={control}
            required={required.has(field.name)}
            disabled={state?.disabled ?? false}
            options={state?.options}
            help={state?.help ?? (field.help ? format(field.help) : undefined)}
            error={formState.errors[field.name]?.message as string | undefined}
          />
        );
      })}
      {onCancel ? (
        <div className="form-actions">
          <button type="button" className="button" onClick={onCancel}>
            {format('form.cancel')}
          </button>
          {submitButton}
        </div>
      ) : (
        submitButton
      )}
      {children}
    </form>
  );
}
