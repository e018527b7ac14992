/** The console's router: the route table drawn by the generic router renderer with the shell's parts. */
import { createBrowserRouter } from 'react-router';
import { routes } from '../definitions/routes.ts';
import { buildRoutes } from '../renderers/router/build-routes.ts';
import { Placeholder } from '../renderers/router/Placeholder.tsx';
import { guards } from './guards/index.ts';
import { layouts } from './layouts/index.ts';
import { screens } from './screens/index.ts';
import { LoadingScreen } from './shell/LoadingScreen.tsx';
import { RootLayout } from './shell/RootLayout.tsx';
import { RouteErrorScreen } from './shell/RouteErrorScreen.tsx';

export function createConsoleRouter() {
  return createBrowserRouter(
    buildRoutes(routes, {
      screens,
      guards,
      layouts,
      placeholder: Placeholder,
      root: RootLayout,
      fallback: LoadingScreen,
      error: RouteErrorScreen,
    }),
  );
}
