/** The new-organization form, on its own page and in the first-organization dialog of home. */
import { useNavigate } from 'react-router';
import newOrganizationForm from '../../../definitions/forms/new-organization.ts';
import validateNewOrganization from '../../../definitions/forms/new-organization.ts?validator';
import { routePath } from '../../../definitions/route-path.ts';
import { FormRenderer } from '../../../renderers/forms/FormRenderer.tsx';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { notify } from '../../../renderers/toasts/notify.ts';
import { useCreateOrganization } from '../../api/platform-queries.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';
import { problemFieldErrors } from '../../shell/problem-field-errors.ts';

export function NewOrganizationForm({ labelledBy, headingLevel = 1, showIntro = true }: { labelledBy?: string; headingLevel?: 1 | 2; showIntro?: boolean }) {
  const format = useFormat();
  const navigate = useNavigate();
  const create = useCreateOrganization();
  const problemMessage = useProblemMessage();
  return (
    <FormRenderer
      definition={newOrganizationForm}
      validate={validateNewOrganization}
      busy={create.isPending}
      error={create.error ? problemMessage(create.error) : null}
      fieldErrors={problemFieldErrors(create.error, newOrganizationForm)}
      labelledBy={labelledBy}
      headingLevel={headingLevel}
      intro={showIntro ? <p className="form-intro">{format('newOrganization.intro')}</p> : null}
      onSubmit={async (values) => {
        try {
          const organization = await create.mutateAsync(String(values.name));
          void notify({ kind: 'success', title: format('organization.created') });
          navigate(routePath('organization', { organizationID: organization.id }));
        } catch {
          // shown by the form
        }
      }}
    />
  );
}
