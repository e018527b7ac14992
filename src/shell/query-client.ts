/** The page's query cache, shared by React (QueryClientProvider) and the route guards. */
import { QueryClient } from '@tanstack/react-query';
import { shouldRetry } from '../api/queries.ts';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: { retry: shouldRetry, staleTime: 30_000, refetchOnWindowFocus: false },
  },
});
