/** The error body of every failed call: RFC 9457 problem details with a stable code (docs/errors.md). */
import { Type, type Static } from '@sinclair/typebox';

export const Problem = Type.Object(
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
export type Problem = Static<typeof Problem>;
