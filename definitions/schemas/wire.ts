/**
 * Building blocks of the wire shapes in this folder. TypeBox schemas are plain JSON Schema: the
 * server validates and documents with them, the console reads only their static types.
 */
import { Type, type TSchema } from '@sinclair/typebox';

/** A value or null. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * A string on the wire whose values a closed list in definitions/ names: the JSON Schema stays a
 * plain string (the server's own code writes it), the static type is the list's union.
 */
export const StringOf = <T extends string>() => Type.Unsafe<T>(Type.String());
