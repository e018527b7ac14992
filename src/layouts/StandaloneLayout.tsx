/** The frame of pages reachable signed in or out (Dev mailbox, not found). */
import { Link, Outlet } from 'react-router';
import { routePath } from '../../definitions/route-path.ts';
import { useFormat } from '../../renderers/messages/use-format.ts';
import { getApiClient } from '../api/client.ts';
import { Brand } from '../shell/Brand.tsx';
import { SkipLink } from '../shell/SkipLink.tsx';
import { ThemeToggle } from '../theme/ThemeToggle.tsx';

export default function StandaloneLayout() {
  const format = useFormat();
  const signedIn = getApiClient().session.read() !== null;
  return (
    <div className="app-shell">
      <SkipLink />
      <header className="topbar">
        <Brand />
        <span className="topbar-spacer" />
        <Link className="topbar-link" to={signedIn ? routePath('home') : routePath('login')}>
          {format(signedIn ? 'nav.home' : 'signup.signIn')}
        </Link>
        <ThemeToggle />
      </header>
      <main id="main" className="app-main" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
