/**
 * Integrations (viewIntegrations; docs/integrations.md "The console"): the project's instances —
 * name, integration, on or off, last run — and the catalogue as cards, each with Add. Add opens the
 * instance form in place (`?add=<integration>` in the URL); a new instance opens its own screen.
 * Organization admins only: the server answers these calls to them alone, so other members are
 * told so and nothing is asked.
 */
import '../../../definitions/messages/areas/integrations.ts';
import { useId } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { formatDateTime } from '../../../definitions/format-date-time.ts';
import { integration as catalogueEntry, integrations } from '../../../definitions/integrations/index.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { notify } from '../../../renderers/toasts/notify.ts';
import { useProject } from '../../api/platform-queries.ts';
import { useCreateIntegration, useIntegrationInstances } from '../../api/integrations-queries.ts';
import { useMyPermissions, useProjectActions, useProjectIds, useProjectPath } from '../project/project-context.ts';
import { IntegrationForm, type IntegrationFormValues } from './IntegrationForm.tsx';
import { IntegrationIcon, StatusBadge } from './integration-ui.tsx';
import './integrations.css';

export default function IntegrationsScreen() {
  const format = useFormat();
  const id = useId();
  const { organizationID, projectID } = useProjectIds();
  const scope = { organizationID, projectID };
  const path = useProjectPath();
  const navigate = useNavigate();
  const loaded = useMyPermissions() !== null;
  const { admin } = useProjectActions();
  const [params, setParams] = useSearchParams();
  const adding = catalogueEntry(params.get('add') ?? '');
  const { data: project } = useProject(organizationID, projectID);
  const list = useIntegrationInstances(scope, admin);
  const create = useCreateIntegration(scope);

  const close = () =>
    setParams((previous) => {
      const next = new URLSearchParams(previous);
      next.delete('add');
      return next;
    });

  const submit = (values: IntegrationFormValues) =>
    adding &&
    create.mutate(
      { integration: adding.id, ...values },
      {
        onSuccess: (made) => {
          void notify({ kind: 'success', title: format('integrations.created') });
          navigate(path('viewIntegration', { integrationID: made.id }));
        },
      },
    );

  return (
    <section className="panel integrations-screen" aria-labelledby={`${id}-title`}>
      <div className="section-header">
        <h2 id={`${id}-title`}>{format('route.viewIntegrations.title')}</h2>
      </div>
      <p className="muted">{format('integrations.screen.intro')}</p>
      {!loaded ? null : !admin ? (
        <p className="callout-info" role="note">
          {format('integrations.screen.adminsOnly')}
        </p>
      ) : adding ? (
        <div className="integration-add">
          <h3 id={`${id}-add`} className="integration-heading">
            <IntegrationIcon name={adding.icon} />
            {format('integrations.add.title', { name: format(adding.name) })}
          </h3>
          <p className="muted">{format(adding.description)}</p>
          <IntegrationForm
            key={adding.id}
            entry={adding}
            collections={project?.collections ?? []}
            busy={create.isPending}
            error={create.error}
            submitLabel="integrations.add.submit"
            submittingLabel="integrations.add.submitting"
            onSubmit={submit}
            onCancel={() => {
              create.reset();
              close();
            }}
            labelledBy={`${id}-add`}
          />
        </div>
      ) : (
        <>
          <h3 id={`${id}-instances`}>{format('integrations.instances.title')}</h3>
          {list.isPending ? null : list.isError ? (
            <p role="alert" className="form-alert">
              {format('integrations.instances.loadFailed')}
            </p>
          ) : list.data.length === 0 ? (
            <p className="muted">{format('integrations.instances.empty')}</p>
          ) : (
            <div className="table-scroll">
              <table className="table integrations-table" aria-labelledby={`${id}-instances`}>
                <thead>
                  <tr>
                    <th scope="col">{format('integrations.instances.name')}</th>
                    <th scope="col">{format('integrations.instances.integration')}</th>
                    <th scope="col">{format('integrations.instances.state')}</th>
                    <th scope="col">{format('integrations.instances.lastRun')}</th>
                  </tr>
                </thead>
                <tbody>
                  {list.data.map((instance) => {
                    const entry = catalogueEntry(instance.integration);
                    return (
                      <tr key={instance.id} data-integration={instance.id}>
                        <td>
                          <Link to={path('viewIntegration', { integrationID: instance.id })}>{instance.name}</Link>
                        </td>
                        <td>
                          <span className="integration-kind">
                            <IntegrationIcon name={entry?.icon ?? ''} size={16} />
                            {entry ? format(entry.name) : instance.integration}
                          </span>
                        </td>
                        <td>
                          <span className={`badge ${instance.enabled ? 'badge-active' : 'integration-off'}`}>
                            {format(instance.enabled ? 'integrations.enabled' : 'integrations.disabled')}
                          </span>
                        </td>
                        <td>
                          {instance.lastRunDate ? (
                            <>
                              {instance.lastStatus ? <StatusBadge status={instance.lastStatus} /> : null} <span className="muted">{formatDateTime(instance.lastRunDate)}</span>
                              {instance.lastError ? <div className="integration-error">{instance.lastError}</div> : null}
                            </>
                          ) : (
                            <span className="muted">{format('integrations.instances.never')}</span>
                          )}
                        </td>
                      </tr>
                    );
                  })}
                </tbody>
              </table>
            </div>
          )}

          <h3 id={`${id}-catalogue`}>{format('integrations.catalogue.title')}</h3>
          <ul className="card-grid integration-catalogue" aria-labelledby={`${id}-catalogue`}>
            {integrations.map((entry) => (
              <li key={entry.id}>
                <div className="card-link integration-card" data-catalogue={entry.id}>
                  <span className="card-title integration-heading">
                    <IntegrationIcon name={entry.icon} />
                    {format(entry.name)}
                  </span>
                  <span className="card-text">{format(entry.description)}</span>
                  <Link
                    className="button button-small integration-card-add"
                    to={{ search: `?add=${encodeURIComponent(entry.id)}` }}
                    aria-label={format('integrations.catalogue.addNamed', { name: format(entry.name) })}
                  >
                    {format('integrations.catalogue.add')}
                  </Link>
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
