/**
 * One webhook (viewWebhook): its signing secret right after creation
 * (shown this once), a notice with Re-enable when it was disabled, its settings (editable; "Unknown
 * error updating webhook"), Delete, and its delivery log — status code, the answer's start, error,
 * time and attempt — with Redeliver per delivery. The log refreshes itself while attempts are due.
 * Each webhook gets its own screen state (keyed by its id), so a secret never outlives its webhook.
 */
import { useEffect, useId, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router';
import { formatDateTime } from '../../../../definitions/format-date-time.ts';
import { ConfirmDialog } from '../../../../renderers/dialogs/ConfirmDialog.tsx';
import { useFormat } from '../../../../renderers/messages/use-format.ts';
import { notify } from '../../../../renderers/toasts/notify.ts';
import { isApiError } from '../../../api/errors.ts';
import { problemText } from '../../../hooks/problem-text.ts';
import { useProject } from '../../../api/platform-queries.ts';
import { useDeleteWebhook, useRedeliver, useUpdateWebhook, useWebhookLogs, useWebhooks, type Webhook, type WebhookDraft } from '../../../api/webhooks.ts';
import { CopyButton } from '../../../shell/CopyButton.tsx';
import { useProjectActions, useProjectIds, useProjectPath } from '../project-context.ts';
import { draftComplete, WebhookFields } from './WebhookFields.tsx';
import './webhooks.css';

const stateLabels = { pending: 'webhook.state.pending', delivered: 'webhook.state.delivered', failed: 'webhook.state.failed' } as const;

const toDraft = (webhook: Webhook): WebhookDraft => ({
  name: webhook.name,
  webhookURI: webhook.webhookURI,
  method: webhook.method,
  trigger: webhook.trigger,
  collections: webhook.collections,
});

export default function WebhookScreen() {
  const webhookID = useParams().webhookID ?? '';
  return <WebhookView key={webhookID} webhookID={webhookID} />;
}

function WebhookView({ webhookID }: { webhookID: string }) {
  const format = useFormat();
  const id = useId();
  const { organizationID, projectID } = useProjectIds();
  const path = useProjectPath();
  const navigate = useNavigate();
  const location = useLocation();
  const actions = useProjectActions();
  const { data: project } = useProject(organizationID, projectID);
  const list = useWebhooks(organizationID, projectID);
  const webhook = list.data?.find((w) => w.id === webhookID);
  const logs = useWebhookLogs(webhook ? webhookID : '');
  const update = useUpdateWebhook(organizationID, projectID);
  const remove = useDeleteWebhook(organizationID, projectID);
  const redeliver = useRedeliver(webhookID);
  // The person's unsaved edits; null while there are none, and the form shows the saved webhook.
  const [edits, setEdits] = useState<WebhookDraft | null>(null);
  const draft = edits ?? (webhook ? toDraft(webhook) : null);
  const [problem, setProblem] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  // The secret arrives once, in the navigation from the create dialog, for this webhook only; it is
  // kept in this screen's state until the person leaves, and taken out of the history entry at once
  // so that a reload or a step back and forth does not show it again.
  const [secret] = useState<string | null>(() => {
    const state = location.state as { secret?: string; webhookID?: string } | null;
    return state?.secret && state.webhookID === webhookID ? state.secret : null;
  });
  const carriesSecret = Boolean((location.state as { secret?: string } | null)?.secret);
  useEffect(() => {
    if (carriesSecret) navigate({ pathname: location.pathname, search: location.search, hash: location.hash }, { replace: true, state: null });
  }, [carriesSecret, navigate, location.pathname, location.search, location.hash]);

  if (list.isPending) return null;
  if (!webhook || !draft) {
    return (
      <section className="panel">
        <p>{format('webhook.notFound')}</p>
      </section>
    );
  }

  // Save sends the form; Re-enable sends the saved settings, so unsaved edits stay in the form unsent.
  const save = (change: { enabled?: boolean } = {}) => {
    setProblem(null);
    update.mutate(
      { id: webhook.id, draft: change.enabled ? { ...toDraft(webhook), ...change } : { ...draft, ...change } },
      {
        onSuccess: () => {
          if (!change.enabled) setEdits(null);
          void notify({ kind: 'success', title: format(change.enabled ? 'webhook.enabled' : 'webhook.updated') });
        },
        onError: (error) => {
          if (isApiError(error) && error.status === 400 && error.detail) setProblem(problemText(error, format));
          else void notify({ kind: 'error', title: format('webhook.updateFailed') });
        },
      },
    );
  };

  const entries = logs.data ?? [];
  return (
    <section className="panel webhook-screen" aria-labelledby={`${id}-title`}>
      <div className="section-header">
        <h2 id={`${id}-title`}>{webhook.name}</h2>
        {actions.delete ? (
          <button type="button" className="button button-danger button-small" onClick={() => setDeleting(true)}>
            {format('webhook.delete')}
          </button>
        ) : null}
      </div>

      {secret ? (
        <div className="callout-success webhook-secret" role="status">
          <p>{format('webhook.secret.once')}</p>
          <div className="secret-row">
            <label className="visually-hidden" htmlFor={`${id}-secret`}>
              {format('webhook.secret.label')}
            </label>
            <input id={`${id}-secret`} className="input input-mono" readOnly value={secret} onFocus={(event) => event.currentTarget.select()} />
            <CopyButton value={secret} label={format('webhook.secret.copy')} />
          </div>
        </div>
      ) : null}

      {webhook.enabled ? null : (
        <div className="callout-warning webhook-disabled" role="status">
          <p>
            <strong>{format('webhook.disabled.title')}</strong> {webhook.disabledReason ?? ''}
          </p>
          <button type="button" className="button button-small" disabled={!actions.update || update.isPending} onClick={() => save({ enabled: true })}>
            {format('webhook.enable')}
          </button>
        </div>
      )}

      <form
        className="form webhook-form"
        aria-label={format('webhook.settings')}
        onSubmit={(event) => {
          event.preventDefault();
          if (draftComplete(draft)) save();
        }}
      >
        <h3>{format('webhook.settings')}</h3>
        <WebhookFields draft={draft} onChange={setEdits} collections={project?.collections ?? []} />
        {problem ? (
          <p className="form-alert" role="alert">
            {problem}
          </p>
        ) : null}
        <div className="form-actions">
          <button type="submit" className="button button-primary" disabled={!actions.update || !draftComplete(draft) || update.isPending}>
            {format('webhook.save')}
          </button>
        </div>
      </form>

      <h3 id={`${id}-log`}>{format('webhook.log.title')}</h3>
      {entries.length === 0 ? (
        <p className="muted">{format('webhook.log.empty')}</p>
      ) : (
        <div className="table-scroll">
          <table className="table table-compact webhook-log" aria-labelledby={`${id}-log`}>
            <thead>
              <tr>
                <th scope="col">{format('webhook.log.time')}</th>
                <th scope="col">{format('webhook.log.attempt')}</th>
                <th scope="col">{format('webhook.log.status')}</th>
                <th scope="col">{format('webhook.log.response')}</th>
                <th scope="col">{format('webhook.log.error')}</th>
                <th scope="col">{format('webhook.log.state')}</th>
                <th scope="col">
                  <span className="visually-hidden">{format('webhook.log.actions')}</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.id} data-delivery={entry.deliveryID}>
                  <td>{formatDateTime(entry.timeStamp)}</td>
                  <td>
                    {entry.attempt}
                    {entry.manual ? ` (${format('webhook.log.manual')})` : ''}
                  </td>
                  <td>{entry.statusCode ?? '—'}</td>
                  <td className="webhook-log-body">{entry.responseBody ? entry.responseBody.slice(0, 200) : '—'}</td>
                  <td>{entry.error ?? '—'}</td>
                  <td className="webhook-log-nowrap">{format(stateLabels[entry.state])}</td>
                  <td className="webhook-log-nowrap">
                    <button
                      type="button"
                      className="button button-small"
                      disabled={!actions.update || redeliver.isPending}
                      onClick={() =>
                        redeliver.mutate(entry.deliveryID, {
                          onSuccess: () => void notify({ kind: 'success', title: format('webhook.redelivered') }),
                          // A failed redelivery has no message of its own; rather than fail silently,
                          // an error toast says so in the words of the other webhook failures.
                          onError: () => void notify({ kind: 'error', title: format('webhook.redeliverFailed') }),
                        })
                      }
                    >
                      {format('webhook.redeliver')}
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}

      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title={format('webhook.delete.title')}
        name="delete-webhook"
        cancelLabel={format('webhook.cancel')}
        actionLabel={format('webhook.delete')}
        pending={remove.isPending}
        onConfirm={() =>
          remove.mutate(webhook.id, {
            onSuccess: () => {
              setDeleting(false);
              void notify({ kind: 'success', title: format('webhook.deleted') });
              navigate(path('viewWebhooks'));
            },
          })
        }
      >
        <p>{format('webhook.delete.confirm', { name: webhook.name })}</p>
      </ConfirmDialog>
    </section>
  );
}
