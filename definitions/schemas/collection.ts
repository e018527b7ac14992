/** A collection with its schema as the content API answers it, and a field definition as written. */
import { Type, type Static } from '@sinclair/typebox';
import type { SchemaField as SchemaFieldShape } from '../field-types/types.ts';
import { contentLimits } from '../content.ts';
import { Nullable } from './wire.ts';

/**
 * A schema field on the wire: the keys every type shares; the field type declares its own
 * settings (definitions/field-types/types.ts is the field's one type).
 */
export const SchemaField = Type.Unsafe<SchemaFieldShape>(
  Type.Object(
    {
      id: Type.String(),
      name: Type.String(),
      slug: Type.String(),
      type: Type.Integer(),
      helpText: Type.Optional(Type.String()),
      required: Type.Optional(Type.Boolean()),
      primaryField: Type.Optional(Type.Boolean()),
      unique: Type.Optional(Type.Boolean()),
      visible: Type.Optional(Type.Boolean()),
      options: Type.Optional(Type.Array(Type.Object({ _id: Type.String(), value: Type.String() }))),
      referenceCollectionID: Type.Optional(Type.String()),
      nestedCollectionSchema: Type.Optional(Type.Array(Type.Unknown())),
    },
    { additionalProperties: true, description: 'a schema field (docs/field-types.md); type-specific settings as the field type declares them' },
  ),
);

/** What a field definition may hold; the field type decides the rest (checked in code, with paths). */
export const FieldInput = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: 1000 })),
    slug: Type.Optional(Type.String({ maxLength: 1000 })),
    type: Type.Optional(Type.Integer()),
    helpText: Type.Optional(Nullable(Type.String())),
    required: Type.Optional(Type.Boolean()),
    primaryField: Type.Optional(Type.Boolean()),
    unique: Type.Optional(Type.Boolean()),
    visible: Type.Optional(Type.Boolean()),
    options: Type.Optional(Type.Array(Type.Unknown(), { maxItems: contentLimits.optionsPerField })),
    referenceCollectionID: Type.Optional(Nullable(Type.String())),
    nestedCollectionSchema: Type.Optional(Type.Array(Type.Unknown(), { maxItems: contentLimits.fieldsPerSchema })),
  },
  { additionalProperties: true },
);

export const Collection = Type.Object({
  id: Type.String(),
  name: Type.String(),
  schema: Type.Array(SchemaField),
  singleItem: Type.Boolean(),
  rtlDirection: Type.Boolean(),
  itemCount: Type.Integer(),
  createdDate: Type.String(),
});
export type Collection = Static<typeof Collection>;
