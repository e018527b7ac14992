/**
 * The editor of a field's values, from the console's field registry (`index.ts`, one renderer per
 * type; heavy editors are `lazy(() => import(...))` and `FieldEditor` renders them in Suspense).
 * A type nobody registered is shown read-only through its display.
 */
import type { ComponentType } from 'react';
import type { SchemaField } from '../../definitions/field-types/index.ts';
import type { EditorProps } from './editor-types.ts';
import { fieldRendererOf, fieldRenderers } from './index.ts';
import { ReadOnlyEditor } from './ReadOnlyEditor.tsx';
import './editors.css';

export type { EditorProps } from './editor-types.ts';

/** The editor of a field's values; a type nobody gave one is shown read-only. */
export function editorFor(field: SchemaField): ComponentType<EditorProps> {
  return fieldRendererOf(field.type)?.Editor ?? ReadOnlyEditor;
}

/** True when `name` (a registry type name) has an editor of its own (every registered type must). */
export const hasEditor = (name: string): boolean => Object.prototype.hasOwnProperty.call(fieldRenderers, name);
