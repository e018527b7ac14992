/**
 * Draws any form definition: its title, one field frame per field (label, widget from the
 * registry, hint, error), the server's message and the submit button. Validation is the
 * definition's standalone validator; nothing here knows a particular form.
 */
import { createElement, useEffect, useId, useMemo, type ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import type { FormDefinition } from '../../definitions/forms/types.ts';
import { useFormat } from '../messages/use-format.ts';
import { standaloneResolver, type FormValues } from './standalone-resolver.ts';
import type { StandaloneValidate } from './standalone-validator.ts';
import { widgets } from './widgets/index.ts';

export interface FormRendererProps {
  definition: FormDefinition;
  validate: StandaloneValidate;
  /** Receives the valid payload (empty optional fields left out). */
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
}: FormRendererProps) {
  const format = useFormat();
  const baseId = useId();
  const resolver = useMemo(() => standaloneResolver(validate, format), [validate, format]);
  const initial = useMemo(
    () => Object.fromEntries(definition.fields.map((field) => [field.name, defaultValues?.[field.name] ?? ''])),
    [definition, defaultValues],
  );
  const { register, handleSubmit, setError, formState } = useForm<FormValues>({ resolver, defaultValues: initial });
  const required = new Set(definition.schema.required ?? []);

  // Keyed on the content: a screen may pass a new but equal object on every render.
  const serverFieldErrors = JSON.stringify(fieldErrors ?? {});
  useEffect(() => {
    const entries = Object.entries(JSON.parse(serverFieldErrors) as Record<string, string>);
    entries.forEach(([name, message], index) => setError(name, { type: 'server', message }, { shouldFocus: index === 0 }));
  }, [serverFieldErrors, setError]);

  const submit = handleSubmit(async (values) => {
    if (!busy) await onSubmit(values);
  });
  const titleId = `${baseId}-title`;

  return (
    <form className="form" aria-labelledby={titleId} noValidate onSubmit={submit}>
      {createElement(`h${headingLevel}`, { id: titleId, className: 'form-title' }, format(definition.title))}
      {intro}
      {error ? (
        <div role="alert" className="form-alert">
          {error}
        </div>
      ) : null}
      {definition.fields.map((field) => {
        const Widget = widgets[field.widget];
        const id = `${baseId}-${field.name}`;
        const fieldError = formState.errors[field.name]?.message;
        const helpId = field.help ? `${id}-help` : undefined;
        const errorId = fieldError ? `${id}-error` : undefined;
        const describedBy = [errorId, helpId].filter(Boolean).join(' ') || undefined;
        return (
          <div className="field" key={field.name} data-field={field.name}>
            <label className="field-label" htmlFor={id}>
              {format(field.label)}
            </label>
            <Widget
              field={field}
              id={id}
              registration={register(field.name)}
              invalid={Boolean(fieldError)}
              required={required.has(field.name)}
              describedBy={describedBy}
            />
            {field.help ? (
              <p id={helpId} className="field-help">
                {format(field.help)}
              </p>
            ) : null}
            {fieldError ? (
              <p id={errorId} className="field-error">
                {fieldError}
              </p>
            ) : null}
          </div>
        );
      })}
      <button type="submit" className="button button-primary button-block" aria-disabled={busy || undefined}>
        {format(busy ? definition.submitting : definition.submit)}
      </button>
      {children}
    </form>
  );
}
