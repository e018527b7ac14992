/**
 * The editor of each field type, found by the type's registry name: a new type adds one line
 * here (heavy editors as `lazy(() => import(...))`; `FieldEditor` renders them in Suspense).
 * A type without an editor is shown read-only through its display.
 */
import type { ComponentType } from 'react';
import { fieldType, type SchemaField } from '../../definitions/field-types/index.ts';
import { BoolEditor } from './bool/Editor.tsx';
import { DateEditor } from './date/Editor.tsx';
import type { EditorProps } from './editor-types.ts';
import { GeoPointEditor } from './geo-point/Editor.tsx';
import { ImageRefEditor } from './image-ref/Editor.tsx';
import { ImageRefSetEditor } from './image-ref-set/Editor.tsx';
import { ItemRefEditor } from './item-ref/Editor.tsx';
import { JsonEditor } from './json/Editor.tsx';
import { LinkEditor } from './link/Editor.tsx';
import { MetadataEditor } from './metadata/Editor.tsx';
import { NestedCollectionEditor } from './nested-collection/Editor.tsx';
import { NumberEditor } from './number/Editor.tsx';
import { OptionEditor } from './option/Editor.tsx';
import { PhoneEditor } from './phone/Editor.tsx';
import { PlainTextEditor } from './plain-text/Editor.tsx';
import { ReadOnlyEditor } from './ReadOnlyEditor.tsx';
import { RichTextEditor } from './rich-text/Editor.tsx';
import './editors.css';

export type { EditorProps } from './editor-types.ts';

const editors: Readonly<Record<string, ComponentType<EditorProps>>> = {
  PlainText: PlainTextEditor,
  RichText: RichTextEditor,
  Number: NumberEditor,
  Phone: PhoneEditor,
  ImageRef: ImageRefEditor,
  ItemRef: ItemRefEditor,
  Option: OptionEditor,
  Bool: BoolEditor,
  Link: LinkEditor,
  Date: DateEditor,
  ImageRefSet: ImageRefSetEditor,
  NestedCollection: NestedCollectionEditor,
  GeoPoint: GeoPointEditor,
  JSON: JsonEditor,
  Metadata: MetadataEditor,
};

/** The editor of a field's values; a type nobody gave one is shown read-only. */
export function editorFor(field: SchemaField): ComponentType<EditorProps> {
  const name = fieldType(field.type)?.name;
  return (name ? editors[name] : undefined) ?? ReadOnlyEditor;
}

/** True when `name` (a registry type name) has an editor of its own (every registered type must). */
export const hasEditor = (name: string): boolean => Object.prototype.hasOwnProperty.call(editors, name);
