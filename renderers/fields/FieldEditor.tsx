/**
 * One field of the item form: its label (with '*' when required), help text, the type's editor,
 * and 'Required Field' while a required field is empty (content §5). The item page renders every
 * field of a schema through this, without knowing any type.
 */
import { Suspense, useId } from 'react';
import { fieldType } from '../../definitions/field-types/index.ts';
import { useFormat } from '../messages/use-format.ts';
import { describedByOf } from './editor-support.ts';
import type { EditorProps } from './editor-types.ts';
import { editorFor } from './editors.ts';

export type FieldEditorProps = Omit<EditorProps, 'id' | 'labelledBy' | 'describedBy' | 'required'> & {
  /** Id of the editor's control; made up when not given. */
  id?: string;
};

export function FieldEditor({ id: givenId, ...props }: FieldEditorProps) {
  const format = useFormat();
  const madeId = useId();
  const id = givenId ?? `field-${madeId}`;
  const { field, value } = props;
  const type = fieldType(field.type);
  const required = field.required === true && (type?.capabilities.required ?? false);
  const empty = type ? type.isEmpty(value) : value === null || value === undefined;
  const labelId = `${id}-label`;
  const helpId = `${id}-help`;
  const requiredId = `${id}-required`;
  const Editor = editorFor(field);
  return (
    <div className="field field-editor" data-field={field.slug}>
      <label id={labelId} htmlFor={id} className="field-label">
        {field.name}
        {required ? (
          <span className="field-required-mark" aria-hidden="true">
            {' *'}
          </span>
        ) : null}
      </label>
      {field.helpText ? (
        <p id={helpId} className="field-help">
          {field.helpText}
        </p>
      ) : null}
      <Suspense fallback={<span className="field-help">{format('editor.loading')}</span>}>
        <Editor {...props} id={id} labelledBy={labelId} required={required} describedBy={describedByOf(field.helpText && helpId, required && empty && requiredId)} />
      </Suspense>
      {required && empty ? (
        <p id={requiredId} className="field-help field-required">
          {format('editor.requiredField')}
        </p>
      ) : null}
    </div>
  );
}
