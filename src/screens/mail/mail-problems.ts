/**
 * The fields a refused Mail call names: a template's subject/html/text (`mail_template_invalid`)
 * or a sender setting (`mail_smtp_url_invalid`, a bad address), read from the problem's
 * `errors[]` (each path's last part) or its `params.field`, so the message shows at that field.
 */
import { useEffect, useState } from 'react';
import { isApiError } from '../../api/errors.ts';

export function problemFields<F extends string>(error: unknown, fields: readonly F[]): Partial<Record<F, string>> {
  if (!isApiError(error) || !error.problem) return {};
  const known = new Set<string>(fields);
  const result: Partial<Record<F, string>> = {};
  for (const entry of error.problem.errors ?? []) {
    const name = entry.path.split(/[/.]/).filter(Boolean).pop();
    if (name && known.has(name) && !result[name as F]) result[name as F] = entry.message || error.detail;
  }
  const field = error.problem.params?.field;
  if (typeof field === 'string' && known.has(field) && !result[field as F]) {
    const message = error.problem.params?.message;
    result[field as F] = typeof message === 'string' && message ? message : error.detail;
  }
  return result;
}

/** A value that settles: the latest one, once it has not changed for `ms`. */

export function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}
