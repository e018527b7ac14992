/**
 * The display renderer of each field type, found by the type's registry name: a new type adds
 * one line here (or none, to be drawn as the text its registry entry gives).
 */
import type { ComponentType } from 'react';
import { fieldType, type SchemaField } from '../../../definitions/field-types/index.ts';
import { BoolDisplay } from './BoolDisplay.tsx';
import { DateDisplay } from './DateDisplay.tsx';
import { GeoPointDisplay } from './GeoPointDisplay.tsx';
import { ImageDisplay } from './ImageDisplay.tsx';
import { JsonDisplay } from './JsonDisplay.tsx';
import { RichTextDisplay } from './RichTextDisplay.tsx';
import { TextDisplay } from './TextDisplay.tsx';
import type { DisplayProps } from './types.ts';

export type { DisplayProps } from './types.ts';

const displays: Readonly<Record<string, ComponentType<DisplayProps>>> = {
  Bool: BoolDisplay,
  Date: DateDisplay,
  GeoPoint: GeoPointDisplay,
  ImageRef: ImageDisplay,
  JSON: JsonDisplay,
  RichText: RichTextDisplay,
};

/** The display of a field's values; types without their own draw their registry text. */
export function displayFor(field: SchemaField): ComponentType<DisplayProps> {
  const name = fieldType(field.type)?.name;
  return (name ? displays[name] : undefined) ?? TextDisplay;
}
