/** The frame of the sign-in pages: a centred card. */
import { Outlet } from 'react-router';
import { Brand } from '../shell/Brand.tsx';
import { DevMailboxLink } from '../shell/DevMailboxLink.tsx';
import { SkipLink } from '../shell/SkipLink.tsx';
import { ThemeToggle } from '../theme/ThemeToggle.tsx';

export default function AuthLayout() {
  return (
    <div className="auth-shell">
      <SkipLink />
      <header className="auth-header">
        <Brand />
        <ThemeToggle />
      </header>
      <main id="main" className="auth-main" tabIndex={-1}>
        <div className="card">
          <Outlet />
        </div>
      </main>
      <footer className="auth-footer">
        <DevMailboxLink />
      </footer>
    </div>
  );
}
