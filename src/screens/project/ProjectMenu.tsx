/**
 * The project's side menu: Data (collections, each with its settings), Auth (Users,
 * Groups; Beta), Webhooks (list with an add button), Studio, Mail, Integrations (organization admins
 * only: the server answers its calls to them alone), Functions (every member: reading needs the read
 * right, docs/functions.md "Functions and versions"), Help, Project Settings and the theme toggle.
 * The active section follows the route; choosing a section goes where the section rule says.
 */
import { BookOpen, Braces, Database, FlaskConical, Mail, Plug, Plus, Settings, Settings2, UsersRound, Webhook } from 'lucide-react';
import { Link, NavLink, useNavigate } from 'react-router';
import { betaSections, type ProjectSection } from '../../../definitions/project-sections.ts';
import { routePath } from '../../../definitions/route-path.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import type { Project } from '../../api/platform.ts';
import { ThemeToggle } from '../../theme/ThemeToggle.tsx';
import { useActiveSection, useGoToSection, useProjectActions, useProjectPath } from './project-context.ts';

export function ProjectMenu({ project, onNavigate }: { project: Project | undefined; onNavigate?: () => void }) {
  const format = useFormat();
  const active = useActiveSection();
  const goTo = useGoToSection();
  const path = useProjectPath();
  const navigate = useNavigate();
  const { admin } = useProjectActions();
  const choose = (section: ProjectSection) => {
    goTo(section);
    onNavigate?.();
  };
  const collections = project?.collections ?? [];
  const webhooks = project?.webhooks ?? [];
  const current = (section: ProjectSection) => (active === section ? 'true' : undefined);
  /** Opens the Create Webhook dialog: the list screen opens it when asked so in the navigation. */
  const createWebhook = () => {
    navigate(path('viewWebhooks'), { state: { createWebhook: true } });
    onNavigate?.();
  };

  return (
    <nav className="project-menu" aria-label={format('project.menu.label')}>
      <div className="menu-group" data-section="collections">
        <div className="menu-group-header">
          <button type="button" className="menu-section" aria-current={current('collections')} onClick={() => choose('collections')}>
            <Database aria-hidden="true" size={18} />
            {format('project.menu.data')}
          </button>
          <Link className="icon-button icon-button-small" to={path('createCollection')} aria-label={format('project.menu.newCollection')} onClick={onNavigate}>
            <Plus aria-hidden="true" size={16} />
          </Link>
        </div>
        {collections.length ? (
          <ul className="menu-list">
            {collections.map((collection) => (
              <li key={collection.id} className="menu-list-item">
                <NavLink className="menu-link" to={path('viewCollection', { collectionID: collection.id })} onClick={onNavigate}>
                  {collection.name}
                </NavLink>
                <Link
                  className="icon-button icon-button-small"
                  to={path('editCollection', { collectionID: collection.id })}
                  aria-label={format('project.menu.collectionSettings', { name: collection.name })}
                  onClick={onNavigate}
                >
                  <Settings2 aria-hidden="true" size={15} />
                </Link>
              </li>
            ))}
          </ul>
        ) : (
          <div className="menu-empty">
            <p>{format('project.collections.empty')}</p>
            <p className="muted">{format('project.collections.emptyHint')}</p>
            <Link className="button button-small" to={path('createCollection')} onClick={onNavigate}>
              {format('project.collections.create')}
            </Link>
          </div>
        )}
      </div>

      <div className="menu-group" data-section="auth">
        <div className="menu-group-header">
          <button type="button" className="menu-section" aria-current={current('auth')} onClick={() => choose('auth')}>
            <UsersRound aria-hidden="true" size={18} />
            {format('project.section.auth')}
            {betaSections.includes('auth') ? <span className="badge badge-beta">{format('project.menu.beta')}</span> : null}
          </button>
        </div>
        <ul className="menu-list">
          <li className="menu-list-item">
            <NavLink className="menu-link" to={path('viewUsers')} onClick={onNavigate}>
              {format('project.menu.users')}
            </NavLink>
          </li>
          <li className="menu-list-item">
            <NavLink className="menu-link" to={path('viewRoles')} onClick={onNavigate}>
              {format('project.menu.groups')}
            </NavLink>
          </li>
        </ul>
      </div>

      <div className="menu-group" data-section="webhooks">
        <div className="menu-group-header">
          <button type="button" className="menu-section" aria-current={current('webhooks')} onClick={() => choose('webhooks')}>
            <Webhook aria-hidden="true" size={18} />
            {format('project.section.webhooks')}
          </button>
          <button type="button" className="icon-button icon-button-small" aria-haspopup="dialog" aria-label={format('project.menu.newWebhook')} onClick={createWebhook}>
            <Plus aria-hidden="true" size={16} />
          </button>
        </div>
        {!project ? null : webhooks.length ? (
          <ul className="menu-list">
            {webhooks.map((webhook) => (
              <li key={webhook.id} className="menu-list-item">
                <NavLink className="menu-link" to={path('viewWebhook', { webhookID: webhook.id })} onClick={onNavigate}>
                  {webhook.name}
                </NavLink>
              </li>
            ))}
          </ul>
        ) : (
          <div className="menu-empty">
            <p>{format('project.webhooks.empty')}</p>
            <button type="button" className="button button-small" aria-haspopup="dialog" onClick={createWebhook}>
              {format('project.webhooks.create')}
            </button>
          </div>
        )}
      </div>

      <div className="menu-group" data-section="studio">
        <div className="menu-group-header">
          <button type="button" className="menu-section" aria-current={current('studio')} onClick={() => choose('studio')}>
            <FlaskConical aria-hidden="true" size={18} />
            {format('project.section.studio')}
          </button>
        </div>
      </div>

      <div className="menu-group" data-section="mail">
        <div className="menu-group-header">
          <button type="button" className="menu-section" aria-current={current('mail')} onClick={() => choose('mail')}>
            <Mail aria-hidden="true" size={18} />
            {format('project.section.mail')}
          </button>
        </div>
      </div>

      {admin ? (
        <div className="menu-group" data-section="integrations">
          <div className="menu-group-header">
            <button type="button" className="menu-section" aria-current={current('integrations')} onClick={() => choose('integrations')}>
              <Plug aria-hidden="true" size={18} />
              {format('project.section.integrations')}
            </button>
          </div>
        </div>
      ) : null}

      <div className="menu-group" data-section="functions">
        <div className="menu-group-header">
          <button type="button" className="menu-section" aria-current={current('functions')} onClick={() => choose('functions')}>
            <Braces aria-hidden="true" size={18} />
            {format('project.section.functions')}
          </button>
        </div>
      </div>

      <div className="menu-footer">
        <Link className="menu-section" to={routePath('dovs')} onClick={onNavigate}>
          <BookOpen aria-hidden="true" size={18} />
          {format('project.menu.help')}
        </Link>
        <button type="button" className="menu-section" aria-current={current('settings')} onClick={() => choose('settings')}>
          <Settings aria-hidden="true" size={18} />
          {format('project.section.settings')}
        </button>
        <ThemeToggle />
      </div>
    </nav>
  );
}
