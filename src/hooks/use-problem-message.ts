import { useCallback } from 'react';
import { hasMessage } from '../../definitions/messages/format.ts';
import { useFormat } from '../../renderers/messages/use-format.ts';
import { clientErrorCodes, isApiError } from '../api/errors.ts';

/**
 * The text to show for a failed call: the catalogue's `problem.<code>` when it has one, else the
 * server's own `detail`, else "Unknown Error".
 */
export function useProblemMessage() {
  const format = useFormat();
  return useCallback(
    (error: unknown): string => {
      if (!isApiError(error)) return format('error.unknown');
      const key = `problem.${error.code}`;
      if (hasMessage(key)) return format(key);
      if (error.status === 0 && error.code !== clientErrorCodes.aborted) return format('problem.network');
      return error.detail || format('error.unknown');
    },
    [format],
  );
}
