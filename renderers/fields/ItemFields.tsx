/**
 * An item's fields as a form: one FieldEditor per schema field, inside the editor environment and
 * the nested place the editors read. Shared by the item page and the ItemRef picker's linked-item
 * dialog, which hold the same item-form machine; `useFieldProblems` keeps the problems editors
 * hold (letters in a Number, broken JSON…) so either can refuse to save while one is held.
 */
import { useMemo, useState } from 'react';
import type { SchemaField } from '../../definitions/field-types/index.ts';
import type { MessageKey } from '../../definitions/messages/format.ts';
import type { ItemMessage, ItemValues } from '../../machines/item-form-rules.ts';
import { useFormat } from '../messages/use-format.ts';
import { notify } from '../toasts/notify.ts';
import { EditorEnvironmentProvider, type EditorEnvironment } from './editor-environment.ts';
import { FieldEditor } from './FieldEditor.tsx';
import { NestedPlaceProvider, type NestedPlaceOfItem } from './nested-collection/nested-place.ts';

export type ProblemReporter = (message: string | undefined) => void;

/**
 * Each field's held problem and the reporter its editor calls; `resetKey` makes the reporters anew
 * (a form drawn again). `refuseHeld` says the first held problem as a toast and answers true, so a
 * save sends nothing while an editor holds one (letters in a Number, broken JSON).
 */
export function useFieldProblems(schema: readonly SchemaField[], resetKey?: unknown) {
  const format = useFormat();
  const [problems, setProblems] = useState<Record<string, string>>({});
  const reporters = useMemo(() => {
    const byField: Record<string, ProblemReporter> = {};
    for (const field of schema) {
      byField[field.slug] = (message) =>
        setProblems((current) => {
          if (current[field.slug] === message) return current;
          const { [field.slug]: _gone, ...rest } = current;
          return message ? { ...rest, [field.slug]: message } : rest;
        });
    }
    return byField;
    // resetKey is the point: new reporters when the form is drawn again.
  }, [schema, resetKey]);
  const refuseHeld = (): boolean => {
    const held = schema.find((field) => problems[field.slug]);
    if (!held) return false;
    void notify({ kind: 'error', title: format('item.fieldProblem', { field: held.name, problem: problems[held.slug] ?? '' }) });
    return true;
  };
  return { reporters, refuseHeld };
}

export interface ItemFieldsProps {
  /** Prefix of each editor's id (`{idPrefix}-field-{slug}`). */
  idPrefix: string;
  className: string;
  schema: readonly SchemaField[];
  values: ItemValues;
  fieldErrors: Record<string, ItemMessage>;
  disabled: boolean;
  onChange(slug: string, value: unknown): void;
  reporters: Record<string, ProblemReporter>;
  environment: EditorEnvironment;
  nestedPlace: NestedPlaceOfItem | null;
}

export function ItemFields({ idPrefix, className, schema, values, fieldErrors, disabled, onChange, reporters, environment, nestedPlace }: ItemFieldsProps) {
  const format = useFormat();
  return (
    <EditorEnvironmentProvider value={environment}>
      <NestedPlaceProvider value={nestedPlace}>
        <div className={className} role="group" aria-label={format('item.fields')}>
          {schema.map((field) => {
            const fieldError = fieldErrors[field.slug];
            return (
              <FieldEditor
                key={field.id || field.slug}
                id={`${idPrefix}-field-${field.slug}`}
                field={field}
                value={values[field.slug]}
                onChange={(value) => onChange(field.slug, value)}
                error={fieldError ? format(fieldError.key as MessageKey, fieldError.values) : undefined}
                disabled={disabled}
                onProblem={reporters[field.slug]}
              />
            );
          })}
        </div>
      </NestedPlaceProvider>
    </EditorEnvironmentProvider>
  );
}
