/**
 * The console's field registry: how each field type is drawn, by the type's name. Each type's
 * `renderers/fields/<type>/index.ts` exports its editor, display, settings editor and icon; a new
 * type adds one line here, and a type the definitions know but this registry lacks does not compile.
 */
import { fieldType, type FieldTypeName } from '../../definitions/field-types/index.ts';
import type { FieldRenderer } from './field-renderer.ts';
import { boolRenderer } from './bool/index.ts';
import { dateRenderer } from './date/index.ts';
import { geoPointRenderer } from './geo-point/index.ts';
import { imageRefRenderer } from './image-ref/index.ts';
import { imageRefSetRenderer } from './image-ref-set/index.ts';
import { itemRefRenderer } from './item-ref/index.ts';
import { jsonRenderer } from './json/index.ts';
import { linkRenderer } from './link/index.ts';
import { metadataRenderer } from './metadata/index.ts';
import { nestedCollectionRenderer } from './nested-collection/index.ts';
import { numberRenderer } from './number/index.ts';
import { optionRenderer } from './option/index.ts';
import { phoneRenderer } from './phone/index.ts';
import { plainTextRenderer } from './plain-text/index.ts';
import { richTextRenderer } from './rich-text/index.ts';

export type { FieldRenderer } from './field-renderer.ts';

/** One renderer per field type name. */
export const fieldRenderers: Readonly<Record<FieldTypeName, FieldRenderer>> = {
  PlainText: plainTextRenderer,
  RichText: richTextRenderer,
  Number: numberRenderer,
  Phone: phoneRenderer,
  ImageRef: imageRefRenderer,
  ItemRef: itemRefRenderer,
  Option: optionRenderer,
  Bool: boolRenderer,
  Link: linkRenderer,
  Date: dateRenderer,
  ImageRefSet: imageRefSetRenderer,
  NestedCollection: nestedCollectionRenderer,
  GeoPoint: geoPointRenderer,
  JSON: jsonRenderer,
  Metadata: metadataRenderer,
};

/** The renderer of the type with this code, or undefined for a code nobody registered. */
export function fieldRendererOf(code: number): FieldRenderer | undefined {
  const type = fieldType(code);
  return type ? fieldRenderers[type.name] : undefined;
}
