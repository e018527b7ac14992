/** The signed-in console's frame: top bar with navigation, theme and account menu. */
import { NavLink, Outlet } from 'react-router';
import { useFormat } from '../../renderers/messages/use-format.ts';
import { useConfig } from '../api/queries.ts';
import { AccountMenu } from '../shell/AccountMenu.tsx';
import { Brand } from '../shell/Brand.tsx';
import { NarrowMenu } from '../shell/NarrowMenu.tsx';
import { OrganizationMenu } from '../shell/OrganizationMenu.tsx';
import { navEntries } from '../shell/nav-entries.ts';
import { SkipLink } from '../shell/SkipLink.tsx';
import { ThemeToggle } from '../theme/ThemeToggle.tsx';

export default function ConsoleLayout() {
  const format = useFormat();
  const { data: config } = useConfig();
  const entries = navEntries(config?.devMailbox ?? false);
  return (
    <div className="app-shell">
      <SkipLink />
      <header className="topbar">
        <NarrowMenu entries={entries} />
        <Brand />
        <OrganizationMenu />
        <nav className="topbar-nav wide-only" aria-label={format('nav.main')}>
          {entries.map((entry) => (
            <NavLink key={entry.to} to={entry.to} end className="topbar-link">
              {format(entry.label)}
            </NavLink>
          ))}
        </nav>
        <span className="topbar-spacer" />
        <ThemeToggle />
        <AccountMenu />
      </header>
      <main id="main" className="app-main" tabIndex={-1}>
        <Outlet />
      </main>
    </div>
  );
}
