/**
 * The display renderer of each field type, found by the type's registry name: every type has its
 * own `renderers/fields/<type>/Display.tsx`, a new type adds one line here. Types
 * with nothing of their own to draw hand their values to the shared TextDisplay.
 */
import type { ComponentType } from 'react';
import { fieldType, type SchemaField } from '../../definitions/field-types/index.ts';
import { BoolDisplay } from './bool/Display.tsx';
import { DateDisplay } from './date/Display.tsx';
import type { DisplayProps } from './display-types.ts';
import { GeoPointDisplay } from './geo-point/Display.tsx';
import { ImageDisplay } from './image-ref/Display.tsx';
import { ImageRefSetDisplay } from './image-ref-set/Display.tsx';
import { ItemRefDisplay } from './item-ref/Display.tsx';
import { JsonDisplay } from './json/Display.tsx';
import { LinkDisplay } from './link/Display.tsx';
import { MetadataDisplay } from './metadata/Display.tsx';
import { NestedCollectionDisplay } from './nested-collection/Display.tsx';
import { NumberDisplay } from './number/Display.tsx';
import { OptionDisplay } from './option/Display.tsx';
import { PhoneDisplay } from './phone/Display.tsx';
import { PlainTextDisplay } from './plain-text/Display.tsx';
import { RichTextDisplay } from './rich-text/Display.tsx';
import { TextDisplay } from './TextDisplay.tsx';

export type { DisplayProps } from './display-types.ts';

const displays: Readonly<Record<string, ComponentType<DisplayProps>>> = {
  PlainText: PlainTextDisplay,
  RichText: RichTextDisplay,
  Number: NumberDisplay,
  Phone: PhoneDisplay,
  ImageRef: ImageDisplay,
  ItemRef: ItemRefDisplay,
  Option: OptionDisplay,
  Bool: BoolDisplay,
  Link: LinkDisplay,
  Date: DateDisplay,
  ImageRefSet: ImageRefSetDisplay,
  NestedCollection: NestedCollectionDisplay,
  GeoPoint: GeoPointDisplay,
  JSON: JsonDisplay,
  Metadata: MetadataDisplay,
};

/** The display of a field's values; a type nobody gave one draws its registry text. */
export function displayFor(field: SchemaField): ComponentType<DisplayProps> {
  const name = fieldType(field.type)?.name;
  return (name ? displays[name] : undefined) ?? TextDisplay;
}

/** True when `name` (a registry type name) has a display of its own (every registered type must). */
export const hasDisplay = (name: string): boolean => Object.prototype.hasOwnProperty.call(displays, name);
