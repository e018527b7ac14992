/** When a guard or a screen fails, or a URL names a reserved value (404): said plainly, with a way home. */
import { isRouteErrorResponse, Link, useLocation, useRouteError } from 'react-router';
import { routePath } from '../../definitions/route-path.ts';
import { useFormat } from '../../renderers/messages/use-format.ts';
import { ThemeToggle } from '../theme/ThemeToggle.tsx';
import { Brand } from './Brand.tsx';

export function RouteErrorScreen() {
  const format = useFormat();
  const error = useRouteError();
  const { pathname } = useLocation();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <div className="app-shell">
      <header className="topbar">
        <Brand />
        <span className="topbar-spacer" />
        <ThemeToggle />
      </header>
      <main id="main" className="app-main" tabIndex={-1}>
        <section className="page" aria-labelledby="route-error-title">
          <h1 id="route-error-title">{format(notFound ? 'notFound.heading' : 'routeError.heading')}</h1>
          <p>{notFound ? format('notFound.body', { path: pathname }) : format('routeError.body')}</p>
          <p>
            <Link to={routePath('home')}>{format('notFound.home')}</Link>
          </p>
        </section>
      </main>
    </div>
  );
}
