/**
 * One integration instance (viewIntegration; docs/integrations.md "The console"): its form (Save),
 * an on/off switch, "Send a test" (the new run shows in the log), Delete with a confirmation, and
 * the run log — trigger, status, attempts, time, duration and error, 50 a page (`?page`), polled
 * while a run on the page is pending. Organization admins only, as the list.
 */
import '../../../definitions/messages/areas/integrations.ts';
import { useId, useState } from 'react';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { Switch } from 'radix-ui';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { formatDateTime } from '../../../definitions/format-date-time.ts';
import { integration as catalogueEntry } from '../../../definitions/integrations/index.ts';
import type { MessageKey } from '../../../definitions/messages/format.ts';
import { ConfirmDialog } from '../../../renderers/dialogs/ConfirmDialog.tsx';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { notify } from '../../../renderers/toasts/notify.ts';
import { isApiError } from '../../api/errors.ts';
import { useProject } from '../../api/platform-queries.ts';
import {
  useDeleteIntegration,
  useIntegrationInstance,
  useIntegrationRuns,
  useTestIntegration,
  useUpdateIntegration,
} from '../../api/integrations-queries.ts';
import type { IntegrationInstance, IntegrationScope } from '../../api/integrations.ts';
import { problemText } from '../../hooks/problem-text.ts';
import { useMyPermissions, useProjectActions, useProjectIds, useProjectPath } from '../project/project-context.ts';
import { IntegrationForm } from './IntegrationForm.tsx';
import { IntegrationIcon, StatusBadge } from './integration-ui.tsx';
import './integrations.css';

const triggerLabels: Readonly<Record<string, MessageKey>> = {
  create: 'integrations.trigger.create',
  update: 'integrations.trigger.update',
  delete: 'integrations.trigger.delete',
  schedule: 'integrations.trigger.schedule',
  test: 'integrations.trigger.test',
};

export default function IntegrationScreen() {
  const integrationID = useParams().integrationID ?? '';
  return <IntegrationView key={integrationID} integrationID={integrationID} />;
}

function IntegrationView({ integrationID }: { integrationID: string }) {
  const format = useFormat();
  const id = useId();
  const { organizationID, projectID } = useProjectIds();
  const scope = { organizationID, projectID };
  const loaded = useMyPermissions() !== null;
  const { admin } = useProjectActions();
  const path = useProjectPath();
  const instance = useIntegrationInstance(scope, integrationID, admin);

  let body: React.ReactNode = null;
  if (!loaded) body = null;
  else if (!admin)
    body = (
      <p className="callout-info" role="note">
        {format('integrations.screen.adminsOnly')}
      </p>
    );
  else if (instance.isError)
    body = (
      <p role="alert" className="form-alert">
        {isApiError(instance.error) && instance.error.status === 404 ? format('integrations.notFound') : problemText(instance.error, format)}
      </p>
    );
  else if (instance.data) return <InstanceView scope={scope} instance={instance.data} />;

  return (
    <section className="panel integration-screen" aria-labelledby={`${id}-title`}>
      <div className="section-header">
        <h2 id={`${id}-title`}>{format('route.viewIntegration.title')}</h2>
        <Link className="button button-small" to={path('viewIntegrations')}>
          {format('integrations.back')}
        </Link>
      </div>
      {body}
    </section>
  );
}

function InstanceView({ scope, instance }: { scope: IntegrationScope; instance: IntegrationInstance }) {
  const format = useFormat();
  const id = useId();
  const path = useProjectPath();
  const navigate = useNavigate();
  const entry = catalogueEntry(instance.integration);
  const { data: project } = useProject(scope.organizationID, scope.projectID);
  const update = useUpdateIntegration(scope, instance.id);
  const toggle = useUpdateIntegration(scope, instance.id);
  const test = useTestIntegration(scope, instance.id);
  const remove = useDeleteIntegration(scope);
  const [deleting, setDeleting] = useState(false);
  // The form is drawn afresh from each saved version, so a save shows what the server kept.
  const [formKey, setFormKey] = useState(0);

  const setEnabled = (enabled: boolean) =>
    toggle.mutate(
      { enabled },
      {
        onSuccess: () => void notify({ kind: 'success', title: format(enabled ? 'integrations.switchedOn' : 'integrations.switchedOff') }),
        onError: (error) => void notify({ kind: 'error', title: problemText(error, format) }),
      },
    );

  const sendTest = () =>
    test.mutate(undefined, {
      onSuccess: () => void notify({ kind: 'success', title: format('integrations.test.started') }),
      onError: (error) => void notify({ kind: 'error', title: problemText(error, format) }),
    });

  return (
    <section className="panel integration-screen" aria-labelledby={`${id}-title`}>
      <div className="section-header">
        <h2 id={`${id}-title`} className="integration-heading">
          <IntegrationIcon name={entry?.icon ?? ''} />
          {instance.name}
        </h2>
        <Link className="button button-small" to={path('viewIntegrations')}>
          {format('integrations.back')}
        </Link>
      </div>
      <p className="muted">{entry ? format(entry.name) : instance.integration}</p>

      <div className="integration-actions">
        <div className="switch-label">
          <Switch.Root
            id={`${id}-enabled`}
            className="switch"
            checked={instance.enabled}
            disabled={toggle.isPending}
            aria-labelledby={`${id}-enabled-label`}
            onCheckedChange={setEnabled}
          >
            <Switch.Thumb className="switch-thumb" />
          </Switch.Root>
          <label id={`${id}-enabled-label`} htmlFor={`${id}-enabled`}>
            {format('integrations.enabledSwitch')}
          </label>
        </div>
        <div className="integration-test">
          <button type="button" className="button" aria-describedby={`${id}-test-help`} disabled={test.isPending || !entry} onClick={sendTest}>
            {format('integrations.test.send')}
          </button>
          {entry ? (
            <span id={`${id}-test-help`} className="muted">
              {format(entry.testHelp)}
            </span>
          ) : null}
        </div>
        <button type="button" className="button button-danger" onClick={() => setDeleting(true)}>
          {format('integrations.delete')}
        </button>
      </div>

      {entry ? (
        <>
          <h3 id={`${id}-settings`}>{format('integrations.edit.title')}</h3>
          <IntegrationForm
            key={formKey}
            entry={entry}
            instance={instance}
            collections={project?.collections ?? []}
            busy={update.isPending}
            error={update.error}
            submitLabel="integrations.edit.save"
            submittingLabel="integrations.settings.saving"
            labelledBy={`${id}-settings`}
            onSubmit={(values) =>
              update.mutate(values, {
                onSuccess: () => {
                  setFormKey((key) => key + 1);
                  void notify({ kind: 'success', title: format('integrations.saved') });
                },
              })
            }
          />
        </>
      ) : (
        <p className="callout-warning">{format('integrations.unknownEntry', { id: instance.integration })}</p>
      )}

      <RunLog scope={scope} instanceID={instance.id} />

      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        title={format('integrations.delete.title')}
        name="delete-integration"
        cancelLabel={format('form.cancel')}
        actionLabel={format('integrations.delete')}
        pending={remove.isPending}
        onConfirm={() =>
          remove.mutate(instance.id, {
            onSuccess: () => {
              setDeleting(false);
              void notify({ kind: 'success', title: format('integrations.deleted') });
              navigate(path('viewIntegrations'));
            },
            onError: (error) => void notify({ kind: 'error', title: problemText(error, format) }),
          })
        }
      >
        <p>{format('integrations.delete.confirm', { name: instance.name })}</p>
      </ConfirmDialog>
    </section>
  );
}

function duration(ms: number | null): string {
  if (ms === null) return '—';
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function RunLog({ scope, instanceID }: { scope: IntegrationScope; instanceID: string }) {
  const format = useFormat();
  const id = useId();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number.parseInt(params.get('page') ?? '1', 10) || 1);
  const runs = useIntegrationRuns(scope, instanceID, page, true);
  const go = (next: number) =>
    setParams((previous) => {
      const result = new URLSearchParams(previous);
      if (next <= 1) result.delete('page');
      else result.set('page', String(next));
      return result;
    });
  const data = runs.data;
  const total = data?.total ?? 0;
  const perPage = data?.perPage ?? 50;
  const pages = Math.max(1, Math.ceil(total / perPage));
  const from = total ? (page - 1) * perPage + 1 : 0;
  const to = Math.min(total, page * perPage);

  return (
    <div className="integration-runs">
      <h3 id={`${id}-title`}>{format('integrations.runs.title')}</h3>
      {runs.isError ? (
        <p role="alert" className="form-alert">
          {problemText(runs.error, format)}
        </p>
      ) : !data ? null : data.runs.length === 0 ? (
        <p className="muted">{format('integrations.runs.empty')}</p>
      ) : (
        <>
          <div className="table-scroll">
            <table className="table table-compact integration-run-table" aria-labelledby={`${id}-title`}>
              <thead>
                <tr>
                  <th scope="col">{format('integrations.runs.time')}</th>
                  <th scope="col">{format('integrations.runs.trigger')}</th>
                  <th scope="col">{format('integrations.runs.status')}</th>
                  <th scope="col">{format('integrations.runs.attempts')}</th>
                  <th scope="col">{format('integrations.runs.duration')}</th>
                  <th scope="col">{format('integrations.runs.error')}</th>
                </tr>
              </thead>
              <tbody>
                {data.runs.map((run) => (
                  <tr key={run.id} data-run={run.id} data-status={run.status}>
                    <td className="integration-nowrap">{formatDateTime(run.createdDate)}</td>
                    <td>{triggerLabels[run.trigger] ? format(triggerLabels[run.trigger]!) : run.trigger}</td>
                    <td>
                      <StatusBadge status={run.status} />
                    </td>
                    <td>
                      <span className="integration-run-label" aria-hidden="true">
                        {format('integrations.runs.attempts')}:{' '}
                      </span>
                      {run.attempts}
                    </td>
                    <td className="integration-nowrap">
                      <span className="integration-run-label" aria-hidden="true">
                        {format('integrations.runs.duration')}:{' '}
                      </span>
                      {duration(run.durationMs)}
                    </td>
                    <td className={run.error ? 'integration-error' : 'integration-error integration-error-none'}>{run.error ?? '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {pages > 1 ? (
            <nav className="integration-pager" aria-label={format('integrations.runs.pages')}>
              <button type="button" className="icon-button" aria-label={format('itemList.previous')} disabled={page <= 1} onClick={() => go(page - 1)}>
                <ChevronLeft aria-hidden="true" size={18} />
              </button>
              <span className="muted" aria-live="polite">
                {format('itemList.range', { from, to, total })}
              </span>
              <button type="button" className="icon-button" aria-label={format('itemList.next')} disabled={page >= pages} onClick={() => go(page + 1)}>
                <ChevronRight aria-hidden="true" size={18} />
              </button>
            </nav>
          ) : null}
        </>
      )}
    </div>
  );
}
