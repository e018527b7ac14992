/** The console: query cache, router and toasts. */
import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { QueryClientProvider } from '@tanstack/react-query';
import { ToastHost } from '../renderers/toasts/ToastHost.tsx';
import { createConsoleRouter } from './router.ts';
import { queryClient } from './shell/query-client.ts';
import { useTheme } from './theme/use-theme.ts';

export function App() {
  const [router] = useState(createConsoleRouter);
  const theme = useTheme();
  return (
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <ToastHost theme={theme} />
    </QueryClientProvider>
  );
}
