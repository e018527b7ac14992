/** Schemas shared by every route: the problem body and the helper that adds it to a route's responses. */
import { Type, type TSchema } from '@sinclair/typebox';
import { Problem } from '../../definitions/schemas/problem.ts';

export const ProblemSchema = Problem;

/** The responses of a route: its own plus problem details for every 4xx and 5xx. */
export function responses<T extends Record<number, TSchema>>(own: T) {
  return { ...own, '4xx': Type.Ref(ProblemSchema), '5xx': Type.Ref(ProblemSchema) };
}

export const Empty = Type.Null({ description: 'No content' });
export const Ok = Type.Object({ ok: Type.Literal(true) });
