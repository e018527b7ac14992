/**
 * The signed-in console's frame: top bar with navigation, theme and account menu. On narrow
 * screens the navigation folds into one menu button; inside a project the project's own menu
 * button (its drawer carries this navigation too) is that one button (docs/console-delivery.md).
 */
import { NavLink, Outlet, useMatches } from 'react-router';
import type { RouteHandle } from '../../renderers/router/types.ts';
import { useFormat } from '../../renderers/messages/use-format.ts';
import { useConfig, useMe } from '../api/queries.ts';
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
  const { data: me } = useMe();
  const entries = navEntries(config?.devMailbox ?? false, me?.superAdmin === true);
  const inProject = useMatches().some((match) => (match.handle as RouteHandle | undefined)?.name === 'viewProject');
  return (
    <div className="app-shell">
      <SkipLink />
      <header className="topbar">
        {inProject ? null : <NarrowMenu entries={entries} />}
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
