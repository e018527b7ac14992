/**
 * The project shell: the side menu (a drawer at 900 px or less, opened by a menu
 * button), the section's screen, the first-API-token prompt, a floating menu bottom-right, and a
 * bottom navigation bar on narrow screens.
 */
import { useState } from 'react';
import { ArrowLeft, BookOpen, KeyRound, Menu, MoreVertical, Settings } from 'lucide-react';
import { Dialog, DropdownMenu } from 'radix-ui';
import { Link, NavLink, Outlet, useNavigate } from 'react-router';
import { bottomNavigation } from '../../../definitions/project-sections.ts';
import { routePath } from '../../../definitions/route-path.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { useApiTokens, useOrganization, useProject } from '../../api/platform-queries.ts';
import { useConfig, useMe } from '../../api/queries.ts';
import { navEntries } from '../../shell/nav-entries.ts';
import { setTheme } from '../../theme/theme-store.ts';
import { useTheme } from '../../theme/use-theme.ts';
import { ProjectMenu } from './ProjectMenu.tsx';
import { useActiveSection, useGoToSection, useProjectActions, useProjectIds, useProjectPath } from './project-context.ts';

export default function ProjectShellScreen() {
  const format = useFormat();
  const { organizationID, projectID } = useProjectIds();
  const { data: project, isError } = useProject(organizationID, projectID);
  const { data: organization } = useOrganization(organizationID);
  const [drawer, setDrawer] = useState(false);
  const name = project?.name ?? format('route.viewProject.title');

  return (
    <div className="project-shell">
      <aside className="project-sidebar wide-only">
        <ProjectMenu project={project} />
      </aside>
      <Dialog.Root open={drawer} onOpenChange={setDrawer}>
        <Dialog.Portal>
          <Dialog.Overlay className="dialog-overlay" />
          <Dialog.Content className="drawer" aria-describedby={undefined}>
            <div className="drawer-header">
              <Dialog.Title className="drawer-title">{name}</Dialog.Title>
              <Dialog.Close className="icon-button" aria-label={format('project.menu.close')}>
                <ArrowLeft aria-hidden="true" size={18} />
              </Dialog.Close>
            </div>
            {/* The console's navigation, folded here so narrow screens have one menu button in a project. */}
            <DrawerNavigation onNavigate={() => setDrawer(false)} />
            <ProjectMenu project={project} onNavigate={() => setDrawer(false)} />
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
      <div className="project-main">
        <header className="project-header">
          <button type="button" className="icon-button narrow-only" aria-label={format('project.menu.open')} onClick={() => setDrawer(true)}>
            <Menu aria-hidden="true" size={20} />
          </button>
          <div className="project-heading">
            {organization ? (
              <Link className="back-link" to={routePath('organization', { organizationID })}>
                {format('project.backToOrganization', { name: organization.name })}
              </Link>
            ) : null}
            <h1>{name}</h1>
          </div>
        </header>
        {isError ? (
          <p role="alert" className="callout-error">
            {format('project.loadFailed')}
          </p>
        ) : null}
        <FirstTokenPrompt />
        <div className="project-content">
          <Outlet />
        </div>
      </div>
      <FloatingMenu />
      <BottomNavigation />
    </div>
  );
}

/** The console's top navigation (Home, Docs, Dev mailbox where it works) at the head of the project drawer. */
function DrawerNavigation({ onNavigate }: { onNavigate: () => void }) {
  const format = useFormat();
  const { data: config } = useConfig();
  const { data: me } = useMe();
  return (
    <nav className="drawer-nav" aria-label={format('nav.main')}>
      {navEntries(config?.devMailbox ?? false, me?.superAdmin === true).map((entry) => (
        <NavLink key={entry.to} to={entry.to} end className="menu-link" onClick={onNavigate}>
          {format(entry.label)}
        </NavLink>
      ))}
    </nav>
  );
}

/** A project without an API token invites to make the first one, except in Project Settings. */
function FirstTokenPrompt() {
  const format = useFormat();
  const { organizationID, projectID } = useProjectIds();
  const section = useActiveSection();
  const actions = useProjectActions();
  const path = useProjectPath();
  const { data: tokens } = useApiTokens(organizationID, projectID);
  if (!tokens || tokens.length > 0 || section === 'settings' || !actions.create) return null;
  return (
    <aside className="callout-info first-token" aria-label={format('project.firstToken.action')}>
      <KeyRound aria-hidden="true" size={18} />
      <p>{format('project.firstToken.text')}</p>
      <Link className="button button-small button-primary" to={path('newAPIKey')}>
        {format('project.firstToken.action')}
      </Link>
    </aside>
  );
}

/** Bottom-right: Project Settings, Docs and the theme, a click away from anywhere in the project. */
function FloatingMenu() {
  const format = useFormat();
  const navigate = useNavigate();
  const goTo = useGoToSection();
  const theme = useTheme();
  const next = theme === 'dark' ? 'light' : 'dark';
  return (
    <DropdownMenu.Root modal={false}>
      <DropdownMenu.Trigger className="fab" aria-label={format('project.floating.label')}>
        <MoreVertical aria-hidden="true" size={22} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu" side="top" align="end" sideOffset={8}>
          <DropdownMenu.Item className="menu-item" onSelect={() => goTo('settings')}>
            <Settings aria-hidden="true" size={16} />
            {format('project.section.settings')}
          </DropdownMenu.Item>
          <DropdownMenu.Item className="menu-item" onSelect={() => navigate(routePath('dovs'))}>
            <BookOpen aria-hidden="true" size={16} />
            {format('project.floating.docs')}
          </DropdownMenu.Item>
          <DropdownMenu.Item className="menu-item" onSelect={() => setTheme(next)}>
            {format(next === 'dark' ? 'theme.toDark' : 'theme.toLight')}
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}

/** At 900 px or less: Home, Collections, Auth, Webhooks along the bottom. */
function BottomNavigation() {
  const format = useFormat();
  const navigate = useNavigate();
  const goTo = useGoToSection();
  const active = useActiveSection();
  const { organizationID } = useProjectIds();
  return (
    <nav className="bottom-nav narrow-only" aria-label={format('project.bottomNav.label')}>
      {bottomNavigation.map((entry) => (
        <button
          key={entry.id}
          type="button"
          className="bottom-nav-item"
          aria-current={entry.id === active ? 'true' : undefined}
          onClick={() => (entry.id === 'home' ? navigate(routePath('organization', { organizationID })) : goTo(entry.id))}
        >
          {format(entry.label)}
        </button>
      ))}
    </nav>
  );
}
