/**
 * The text the console shows for a failed call: the catalogue's message of its problem code
 * (definitions/problems.ts), with the values the server sent as the problem's `params`.
 */
import type { MessageKey, MessageValues } from '../../definitions/messages/format.ts';
import { isProblemCode, problems, type ProblemDefinition } from '../../definitions/problems.ts';
import type { Problem } from '../../definitions/schemas/problem.ts';
import { clientErrorCodes, isApiError } from '../api/errors.ts';

/** A formatter of the catalogue: `useFormat()` in a component, `formatMessage` elsewhere. */
export type ProblemFormat = (key: MessageKey, values?: MessageValues) => string;

/** What the text is made from: an ApiError, or the problem fields a machine kept of one. */
export interface ProblemFields {
  status?: number | null;
  code: string;
  detail: string;
  params?: Problem['params'];
}

function fieldsOf(error: unknown): ProblemFields | null {
  if (isApiError(error)) return { status: error.status, code: error.code, detail: error.detail, params: error.problem?.params };
  if (typeof error !== 'object' || error === null) return null;
  const { code, detail } = error as Partial<ProblemFields>;
  return typeof code === 'string' && typeof detail === 'string' ? (error as ProblemFields) : null;
}

/**
 * The message of the problem's code, formatted with its params. No answer at all (status 0, not
 * aborted) is the network's message. The server's `detail` stands in where the catalogue cannot
 * speak: a code outside the table (a proxy's, a client-side one), a code whose detail lists the
 * answer's `errors[]` (`listsErrors`), and an answer without the params its message needs.
 * Nothing to show is "Unknown Error".
 */
export function problemText(error: unknown, format: ProblemFormat): string {
  const problem = fieldsOf(error);
  if (!problem) return format('error.unknown');
  const fallback = () => problem.detail || format('error.unknown');
  if (problem.status === 0 && problem.code !== clientErrorCodes.aborted) return format('problem.network');
  if (!isProblemCode(problem.code)) return fallback();
  const definition: ProblemDefinition = problems[problem.code];
  if (definition.listsErrors && problem.detail) return problem.detail;
  const params = problem.params ?? {};
  if ((definition.params ?? []).some((name) => params[name] === undefined)) return fallback();
  return format(definition.message, params);
}
