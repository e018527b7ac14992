/** The layout registry: each top-level route of the table names its frame; each loads on first use. */
import type { LayoutName } from '../../definitions/routes.ts';
import type { ScreenLoader } from '../../renderers/router/types.ts';

export const layouts: Readonly<Record<LayoutName, ScreenLoader>> = {
  auth: () => import('./AuthLayout.tsx'),
  console: () => import('./ConsoleLayout.tsx'),
  standalone: () => import('./StandaloneLayout.tsx'),
};
