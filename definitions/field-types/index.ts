/**
 * The field-type registry: every type the product knows, looked up by code. The server and the
 * console read types only through here; a new type is a new folder plus one line below.
 */
import { bool } from './bool/index.ts';
import { date } from './date/index.ts';
import { geoPoint } from './geo-point/index.ts';
import { imageRef } from './image-ref/index.ts';
import { imageRefSet } from './image-ref-set/index.ts';
import { itemRef } from './item-ref/index.ts';
import { json } from './json/index.ts';
import { link } from './link/index.ts';
import { metadata } from './metadata/index.ts';
import { nestedCollection } from './nested-collection/index.ts';
import { number } from './number/index.ts';
import { option } from './option/index.ts';
import { phone } from './phone/index.ts';
import { plainText } from './plain-text/index.ts';
import { richText } from './rich-text/index.ts';
import type { FieldType, SchemaField } from './types.ts';

export type * from './types.ts';
export { typeSettings } from './types.ts';
export { titleField } from './title-field.ts';

const registered = [
  plainText,
  richText,
  number,
  phone,
  imageRef,
  itemRef,
  option,
  bool,
  link,
  date,
  imageRefSet,
  nestedCollection,
  geoPoint,
  json,
  metadata,
] as const;

/** The stable name of every registered type: registries keyed by it must cover every type. */
export type FieldTypeName = (typeof registered)[number]['name'];

/** Every field type, in the order of their codes. */
export const fieldTypes: readonly FieldType<FieldTypeName>[] = registered;

const byCode = new Map(fieldTypes.map((type) => [type.code, type]));

/** The type with this code, or undefined for a code nobody registered. */
export const fieldType = (code: number): FieldType<FieldTypeName> | undefined => byCode.get(code);

/** A value the server owns (an id, a key) shown where a field is expected: drawn as plain text. */
export const textField = (slug: string, name: string): SchemaField => ({ id: slug, slug, name, type: plainText.code });

/** The types people may add to a schema (the create-field picker: all but Metadata). */
export const creatableFieldTypes = fieldTypes.filter((type) => type.capabilities.creatable);
