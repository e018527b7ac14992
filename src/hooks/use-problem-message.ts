import { useCallback } from 'react';
import { useFormat } from '../../renderers/messages/use-format.ts';
import { problemText } from './problem-text.ts';

/** `problemText` (./problem-text.ts) with the console's formatter: the text to show for a failed call. */
export function useProblemMessage() {
  const format = useFormat();
  return useCallback((error: unknown): string => problemText(error, format), [format]);
}
