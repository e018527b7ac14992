/**
 * Webhooks (viewWebhooks): the project's webhooks with a Create Webhook button,
 * or "You don't seem to have any webhooks yet" with it. Create opens the Create Webhook dialog;
 * the new webhook then opens with its secret. The project menu's Create Webhook comes here with
 * `{ createWebhook: true }` in the navigation state, which opens the dialog at once.
 */
import { useEffect, useId, useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Plus } from 'lucide-react';
import { useFormat } from '../../../../renderers/messages/use-format.ts';
import { useProject } from '../../../api/platform-queries.ts';
import { useWebhooks } from '../../../api/webhooks.ts';
import { useProjectActions, useProjectIds, useProjectPath } from '../project-context.ts';
import { CreateWebhookDialog } from './CreateWebhookDialog.tsx';
import './webhooks.css';

export default function WebhooksScreen() {
  const format = useFormat();
  const id = useId();
  const { organizationID, projectID } = useProjectIds();
  const path = useProjectPath();
  const navigate = useNavigate();
  const actions = useProjectActions();
  const { data: project } = useProject(organizationID, projectID);
  const list = useWebhooks(organizationID, projectID);
  const [creating, setCreating] = useState(false);
  const webhooks = list.data ?? [];
  // Asked for by the menu: open the dialog once the member may create, then drop the request from
  // the history entry so that a reload or a step back does not open it again.
  const location = useLocation();
  const asked = Boolean((location.state as { createWebhook?: boolean } | null)?.createWebhook);
  useEffect(() => {
    if (!asked || !actions.create) return;
    setCreating(true);
    navigate({ pathname: location.pathname, search: location.search, hash: location.hash }, { replace: true, state: null });
  }, [asked, actions.create, navigate, location.pathname, location.search, location.hash]);

  return (
    <section className="panel webhooks-screen" aria-labelledby={`${id}-title`}>
      <div className="section-header">
        <h2 id={`${id}-title`}>{format('route.viewWebhooks.title')}</h2>
        {webhooks.length && actions.create ? (
          <button type="button" className="button button-primary button-small" onClick={() => setCreating(true)}>
            <Plus aria-hidden="true" size={16} />
            {format('project.webhooks.create')}
          </button>
        ) : null}
      </div>
      {list.isPending ? null : webhooks.length === 0 ? (
        <div className="empty-state">
          <p>{format('project.webhooks.empty')}</p>
          <button type="button" className="button button-primary" onClick={() => setCreating(true)} disabled={!actions.create}>
            {format('project.webhooks.create')}
          </button>
        </div>
      ) : (
        <ul className="plain-list webhook-list">
          {webhooks.map((webhook) => (
            <li key={webhook.id}>
              <Link to={path('viewWebhook', { webhookID: webhook.id })}>{webhook.name}</Link>
              <span className="muted">
                {' '}
                {webhook.method} · {webhook.trigger}
                {webhook.enabled ? '' : ` · ${format('webhook.disabled.short')}`}
              </span>
            </li>
          ))}
        </ul>
      )}
      <CreateWebhookDialog
        open={creating}
        onOpenChange={setCreating}
        organizationID={organizationID}
        projectID={projectID}
        collections={project?.collections ?? []}
        onCreated={(webhook) => navigate(path('viewWebhook', { webhookID: webhook.id }), { state: { secret: webhook.secret, webhookID: webhook.id } })}
      />
    </section>
  );
}
