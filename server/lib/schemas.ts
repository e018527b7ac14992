/** Schemas shared by every route: the problem body and the helper that adds it to a route's responses. */
import { Type, type TSchema } from '@sinclair/typebox';

export const ProblemSchema = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String(),
    errors: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }))),
  },
  { $id: 'Problem', description: 'RFC 9457 problem details with a stable code' },
);

/** The responses of a route: its own plus problem details for every 4xx and 5xx. */
export function responses<T extends Record<number, TSchema>>(own: T) {
  return { ...own, '4xx': Type.Ref(ProblemSchema), '5xx': Type.Ref(ProblemSchema) };
}

export const Empty = Type.Null({ description: 'No content' });
export const Ok = Type.Object({ ok: Type.Literal(true) });
