/**
 * New Project: name (trimmed; empty disables Create), description, and "Use a
 * template?" with the organization's projects. "Project Created", then the new project opens.
 */
import { useNavigate } from 'react-router';
import newProjectForm from '../../../definitions/forms/new-project.ts';
import validateNewProject from '../../../definitions/forms/new-project.ts?validator';
import { routePath } from '../../../definitions/route-path.ts';
import { ModalDialog } from '../../../renderers/dialogs/ModalDialog.tsx';
import { FormRenderer } from '../../../renderers/forms/FormRenderer.tsx';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { notify } from '../../../renderers/toasts/notify.ts';
import type { Organization } from '../../api/platform.ts';
import { useCreateProject } from '../../api/platform-queries.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';
import { problemFieldErrors } from '../../shell/problem-field-errors.ts';

export interface NewProjectDialogProps {
  organization: Organization;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function NewProjectDialog({ organization, open, onOpenChange }: NewProjectDialogProps) {
  const format = useFormat();
  const navigate = useNavigate();
  const create = useCreateProject(organization.id);
  const problemMessage = useProblemMessage();
  const templates = organization.projects.map((project) => ({ value: project.id, text: project.name }));
  const close = (next: boolean) => {
    if (!next) create.reset();
    onOpenChange(next);
  };
  return (
    <ModalDialog open={open} onOpenChange={close} title={format('project.new.title')} name="newProject" widthPx={480}>
      {({ titleId }) => (
        <FormRenderer
          definition={newProjectForm}
          validate={validateNewProject}
          labelledBy={titleId}
          busy={create.isPending}
          error={create.error ? problemMessage(create.error) : null}
          fieldErrors={problemFieldErrors(create.error, newProjectForm)}
          defaultValues={templates[0] ? { templateID: templates[0].value } : undefined}
          fieldStates={{
            useTemplate: templates.length ? {} : { disabled: true, help: format('project.noTemplates') },
            templateID: { options: templates },
          }}
          onCancel={() => close(false)}
          onSubmit={async (values) => {
            try {
              const project = await create.mutateAsync({
                name: String(values.name),
                ...(values.description ? { description: String(values.description) } : {}),
                ...(values.useTemplate === true && values.templateID ? { templateID: String(values.templateID) } : {}),
              });
              void notify({ kind: 'success', title: format('project.created') });
              close(false);
              navigate(routePath('viewProject', { organizationID: organization.id, projectID: project.id }));
            } catch {
              // shown by the form
            }
          }}
        />
      )}
    </ModalDialog>
  );
}
