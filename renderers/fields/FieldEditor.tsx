/**
 * One field of the item form: its label (with '*' when required), help text, the type's editor,
 * and 'Required Field' while a required field is empty. The item page renders every
 * field of a schema through this, without knowing any type.
 */
import { Suspense, useId } from 'react';
import { Direction } from 'radix-ui';
import { fieldType, type SchemaField } from '../../definitions/field-types/index.ts';
import { useFormat } from '../messages/use-format.ts';
import { describedByOf } from './editor-support.ts';
import { useEditorEnvironment, type TextDirection } from './editor-environment.ts';
import type { EditorProps } from './editor-types.ts';
import { editorFor } from './editors.ts';

export type FieldEditorProps = Omit<EditorProps, 'id' | 'labelledBy' | 'describedBy' | 'required'> & {
  /** Id of the editor's control; made up when not given. */
  id?: string;
};

/**
 * The direction a field's editor and display run in: right to left for written text (types that
 * follow the direction) of a right-to-left collection; otherwise undefined, the page's own.
 */
export function textDirectionOf(field: SchemaField, direction: TextDirection | undefined): TextDirection | undefined {
  return direction === 'rtl' && fieldType(field.type)?.capabilities.followsDirection ? 'rtl' : undefined;
}

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
  const dir = textDirectionOf(field, useEditorEnvironment().direction);
  const editor = <Editor {...props} id={id} labelledBy={labelId} required={required} describedBy={describedByOf(field.helpText && helpId, required && empty && requiredId)} />;
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
        {dir ? (
          // The box turns the text, caret and punctuation; radix's provider turns what it portals (menus).
          <div dir={dir} className="field-direction">
            <Direction.Provider dir={dir}>{editor}</Direction.Provider>
          </div>
        ) : (
          editor
        )}
      </Suspense>
      {required && empty ? (
        <p id={requiredId} className="field-help field-required">
          {format('editor.requiredField')}
        </p>
      ) : null}
    </div>
  );
}
