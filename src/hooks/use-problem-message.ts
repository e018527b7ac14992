import { useCallback } from 'react';
import { problemMessageKey } from '../../definitions/problems.ts';
import { useFormat } from '../../renderers/messages/use-format.ts';
import { clientErrorCodes, isApiError } from '../api/errors.ts';

/**
 * The text to show for a failed call: the catalogue's message of its problem code where the table
 * says so (definitions/problems.ts), else the network's message when no answer came, else the
 * server's own `detail`, else "Unknown Error".
 */
export function useProblemMessage() {
  const format = useFormat();
  return useCallback(
    (error: unknown): string => {
      if (!isApiError(error)) return format('error.unknown');
      const key = problemMessageKey(error.code, error.detail);
      if (key) return format(key);
      if (error.status === 0 && error.code !== clientErrorCodes.aborted) return format('problem.network');
      return error.detail || format('error.unknown');
    },
    [format],
  );
}
