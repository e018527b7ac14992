/** The error body of every failed call: RFC 9457 problem details with a stable code (docs/errors.md). */
import { Type, type Static } from '@sinclair/typebox';

export const Problem = Type.Object(
  {
    type: Type.String(),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    code: Type.String(),
    /** The specifics the code's catalogue message names (which collection, how long to wait): its ICU values. */
    params: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]))),
    /**
     * Each refused input: where, and why in words; a refused field value also gives its refusal's
     * code and the values its catalogue message names (docs/errors.md "The problem vocabulary").
     */
    errors: Type.Optional(
      Type.Array(
        Type.Object({
          /** An import's bad row: its 1-based line in the file (CSV, NDJSON)… */
          line: Type.Optional(Type.Integer({ minimum: 1 })),
          /** …or its 1-based index in a JSON array. */
          record: Type.Optional(Type.Integer({ minimum: 1 })),
          path: Type.String(),
          message: Type.String(),
          code: Type.Optional(Type.String()),
          params: Type.Optional(Type.Record(Type.String(), Type.Union([Type.String(), Type.Number()]))),
        }),
      ),
    ),
  },
  { $id: 'Problem', description: 'RFC 9457 problem details with a stable code' },
);
export type Problem = Static<typeof Problem>;
