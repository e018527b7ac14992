/**
 * Bad list parameters: a 400 problem that names the parameter (and the part of it) at fault, so
 * a caller can tell `find.$or.1.price` from `sort`. Codes are stable; the console maps them.
 */
import { AppError } from '../../lib/errors.ts';

/** Stable codes of refused list parameters. */
export type QueryErrorCode =
  | 'invalid_query' // a value of the wrong shape (paging, order, a term without its operator, …)
  | 'unknown_field' // a key that is no field of the list
  | 'operator_not_allowed' // an operator the field's type does not take
  | 'malformed_json' // find, filter or aggregationPipeline is not JSON
  | 'unsupported_stage' // an aggregation stage outside the safe subset
  | 'invalid_regex' // a regular expression that is malformed, too long or could run away
  | 'query_timeout'; // the database gave up on the query (statement_timeout)

/** `path` is the parameter, then the part inside it: `query.1`, `find.$or.0.price`, `sort`. */
export function queryError(code: QueryErrorCode, path: string, message: string): AppError {
  return new AppError(400, code, `${path}: ${message}`, { errors: [{ path: `querystring.${path}`, message }] });
}
