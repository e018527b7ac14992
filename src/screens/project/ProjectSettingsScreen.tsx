/**
 * Project Settings: General (name, ProjectID with copy, description), Api
 * Tokens (saved tokens and "+ New API Token"), Rich text editor (switches), Restricted view (admins: which members see only
 * which collections), Danger Zone (Delete Project, confirmed by typing
 * the project's name exactly in a 500 px dialog; on success the organization is loaded again and
 * the organization page opens).
 */
import { Link, useNavigate } from 'react-router';
import projectGeneralForm from '../../../definitions/forms/project-general.ts';
import validateProjectGeneral from '../../../definitions/forms/project-general.ts?validator';
import { routePath } from '../../../definitions/route-path.ts';
import { FormRenderer } from '../../../renderers/forms/FormRenderer.tsx';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { notify } from '../../../renderers/toasts/notify.ts';
import type { Project } from '../../api/platform.ts';
import { useApiTokens, useDeleteProject, useProject, useUpdateProject } from '../../api/platform-queries.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';
import { CopyButton } from '../../shell/CopyButton.tsx';
import { DeleteByNameSection } from '../../shell/DeleteByNameSection.tsx';
import { useMyPermissions, useProjectActions, useProjectIds, useProjectPath } from './project-context.ts';
import { RestrictedViewSection } from './RestrictedViewSection.tsx';
import { RichTextSettingsSection } from './RichTextSettingsSection.tsx';
import { SavedToken } from './tokens/SavedToken.tsx';

export default function ProjectSettingsScreen() {
  const format = useFormat();
  const { organizationID, projectID } = useProjectIds();
  const { data: project } = useProject(organizationID, projectID);
  const actions = useProjectActions();
  if (!project) return null;
  return (
    <div className="settings">
      <h2 className="visually-hidden">{format('project.section.settings')}</h2>
      <GeneralSection project={project} canUpdate={actions.update} />
      <TokensSection project={project} />
      <RichTextSettingsSection project={project} canUpdate={actions.update} isAdmin={actions.admin} />
      {actions.admin ? <RestrictedViewSection organizationID={project.organizationID} projectID={project.id} /> : null}
      {actions.delete ? <DangerZone project={project} /> : null}
    </div>
  );
}

function GeneralSection({ project, canUpdate }: { project: Project; canUpdate: boolean }) {
  const format = useFormat();
  const update = useUpdateProject(project.organizationID, project.id);
  const problemMessage = useProblemMessage();
  return (
    <section className="panel" aria-labelledby="project-general">
      <h3 id="project-general">{format('projectSettings.general')}</h3>
      <dl className="facts">
        <dt>{format('form.project.id')}</dt>
        <dd className="fact-with-action">
          <code>{project.id}</code>
          <CopyButton value={project.id} label={format('projectSettings.copyId')} />
        </dd>
      </dl>
      {canUpdate ? (
        <FormRenderer
          key={`${project.name}\u0000${project.description}`}
          definition={projectGeneralForm}
          validate={validateProjectGeneral}
          labelledBy="project-general"
          defaultValues={{ name: project.name, description: project.description }}
          busy={update.isPending}
          error={update.error ? problemMessage(update.error) : null}
          onSubmit={async (values) => {
            try {
              await update.mutateAsync({ name: String(values.name), description: String(values.description ?? '') });
              void notify({ kind: 'success', title: format('project.updated') });
            } catch {
              // shown by the form
            }
          }}
        />
      ) : (
        <>
          <dl className="facts">
            <dt>{format('form.project.name')}</dt>
            <dd>{project.name}</dd>
            <dt>{format('form.project.description')}</dt>
            <dd>{project.description || format('project.noDescription')}</dd>
          </dl>
          <p className="muted">{format('projectSettings.readOnly')}</p>
        </>
      )}
    </section>
  );
}

function TokensSection({ project }: { project: Project }) {
  const format = useFormat();
  const path = useProjectPath();
  const actions = useProjectActions();
  const minter = useMyPermissions();
  const { data: tokens } = useApiTokens(project.organizationID, project.id);
  return (
    <section className="panel" aria-labelledby="project-tokens">
      <div className="section-header">
        <h3 id="project-tokens">{format('projectSettings.tokens')}</h3>
        {actions.create ? (
          <Link className="button button-primary button-small" to={path('newAPIKey')}>
            {format('projectSettings.newToken')}
          </Link>
        ) : null}
      </div>
      {tokens && tokens.length === 0 ? <p className="muted">{format('projectSettings.noTokens')}</p> : null}
      <div className="token-list">
        {tokens?.map((token) => (
          <SavedToken key={token.id} token={token} collections={project.collections} minter={minter} canUpdate={actions.update} canDelete={actions.delete} />
        ))}
      </div>
    </section>
  );
}

function DangerZone({ project }: { project: Project }) {
  const format = useFormat();
  const navigate = useNavigate();
  const remove = useDeleteProject(project.organizationID, project.id);
  return (
    <DeleteByNameSection
      headingLevel={3}
      headingId="project-danger"
      heading={format('projectSettings.dangerZone')}
      explain={format('projectSettings.deleteExplain')}
      buttonLabel={format('project.delete.button')}
      dialogName="deleteProject"
      title={format('project.delete.title')}
      body={format('project.delete.body', { name: project.name })}
      inputLabel={format('project.delete.label')}
      expected={project.name}
      mismatchMessage={format('project.nameMismatch')}
      confirmLabel={format('project.delete.confirm')}
      busy={remove.isPending}
      onConfirm={(close) =>
        remove.mutate(undefined, {
          onSuccess: () => {
            void notify({ kind: 'success', title: format('project.deleted') });
            close();
            navigate(routePath('organization', { organizationID: project.organizationID }), { replace: true });
          },
          onError: () => void notify({ kind: 'error', title: format('project.deleteFailed') }),
        })
      }
    />
  );
}
