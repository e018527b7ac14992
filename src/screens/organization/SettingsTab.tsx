/**
 * Organization settings (platform §2): General (name editable by admins), Users, Billing and
 * Plan & Usage (admins; empty until the billing issue), Danger Zone (admins). Non-admins see only
 * General and the user list. `?view=plans` scrolls to the plans for admins.
 */
import { useEffect, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import organizationNameForm from '../../../definitions/forms/organization-name.ts';
import validateOrganizationName from '../../../definitions/forms/organization-name.ts?validator';
import { formatDateTime } from '../../../definitions/format-date-time.ts';
import { ui } from '../../../definitions/constants.ts';
import { routePath } from '../../../definitions/route-path.ts';
import { ConfirmNameDialog } from '../../../renderers/dialogs/ConfirmNameDialog.tsx';
import { FormRenderer } from '../../../renderers/forms/FormRenderer.tsx';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { notify } from '../../../renderers/toasts/notify.ts';
import type { Me } from '../../api/auth.ts';
import { isApiError } from '../../api/errors.ts';
import type { Organization } from '../../api/platform.ts';
import { useDeleteOrganization, useRenameOrganization } from '../../api/platform-queries.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';
import { problemFieldErrors } from '../../shell/problem-field-errors.ts';
import { UsersSection } from './UsersSection.tsx';

export interface SettingsTabProps {
  organization: Organization;
  me: Me;
  isAdmin: boolean;
}

export function SettingsTab({ organization, me, isAdmin }: SettingsTabProps) {
  const format = useFormat();
  const [search] = useSearchParams();
  const wantsPlans = search.get('view') === 'plans';

  useEffect(() => {
    if (isAdmin && wantsPlans) document.getElementById('plans')?.scrollIntoView({ block: 'start' });
  }, [isAdmin, wantsPlans]);

  return (
    <div className="settings">
      <section className="panel" aria-labelledby="settings-general">
        <h2 id="settings-general">{format('settings.general')}</h2>
        <GeneralSection organization={organization} isAdmin={isAdmin} />
      </section>
      <UsersSection organization={organization} me={me} isAdmin={isAdmin} />
      {isAdmin ? (
        <>
          <section className="panel" aria-labelledby="settings-billing">
            <h2 id="settings-billing">{format('settings.billing')}</h2>
            <p className="empty-state">{format('settings.billingSoon')}</p>
          </section>
          <section className="panel" id="plans" aria-labelledby="settings-plans" tabIndex={-1}>
            <h2 id="settings-plans">{format('settings.plans')}</h2>
            <p className="empty-state">{format('settings.plansSoon')}</p>
          </section>
          <DangerZone organization={organization} />
        </>
      ) : null}
    </div>
  );
}

function GeneralSection({ organization, isAdmin }: { organization: Organization; isAdmin: boolean }) {
  const format = useFormat();
  const rename = useRenameOrganization(organization.id);
  const problemMessage = useProblemMessage();
  const created = <p className="muted">{format('organization.createdOn', { date: formatDateTime(organization.createdDate) })}</p>;
  if (!isAdmin) {
    return (
      <>
        <dl className="facts">
          <dt>{format('form.organization.name')}</dt>
          <dd>{organization.name}</dd>
        </dl>
        <p className="muted">{format('organization.nameReadOnly')}</p>
        {created}
      </>
    );
  }
  return (
    <>
      <FormRenderer
        // A new name from the server starts the form afresh.
        key={organization.name}
        definition={organizationNameForm}
        validate={validateOrganizationName}
        labelledBy="settings-general"
        defaultValues={{ name: organization.name }}
        busy={rename.isPending}
        error={rename.error ? problemMessage(rename.error) : null}
        fieldErrors={problemFieldErrors(rename.error, organizationNameForm)}
        onSubmit={async (values) => {
          try {
            await rename.mutateAsync(String(values.name));
            void notify({ kind: 'success', title: format('organization.updated') });
          } catch {
            // shown by the form
          }
        }}
      />
      {created}
    </>
  );
}

function DangerZone({ organization }: { organization: Organization }) {
  const format = useFormat();
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const remove = useDeleteOrganization(organization.id);
  return (
    <section className="panel panel-danger" aria-labelledby="settings-danger">
      <h2 id="settings-danger">{format('settings.dangerZone')}</h2>
      <p>{format('organization.delete.explain')}</p>
      <button type="button" className="button button-danger" onClick={() => setOpen(true)}>
        {format('organization.delete.button')}
      </button>
      <ConfirmNameDialog
        open={open}
        onOpenChange={setOpen}
        name="deleteOrganization"
        widthPx={ui.deleteDialogWidthPx}
        title={format('organization.delete.title')}
        body={format('organization.delete.body', { name: organization.name })}
        inputLabel={format('organization.delete.label')}
        expected={organization.name}
        mismatchMessage={format('organization.nameMismatch')}
        confirmLabel={format('organization.delete.confirm')}
        busyLabel={format('form.deleting')}
        cancelLabel={format('form.cancel')}
        busy={remove.isPending}
        onConfirm={() =>
          remove.mutate(undefined, {
            onSuccess: () => {
              void notify({ kind: 'success', title: format('organization.deleted') });
              setOpen(false);
              navigate(routePath('home'), { replace: true });
            },
            onError: (error) => {
              const reason = isApiError(error) && error.detail ? error.detail : 'none';
              void notify({ kind: 'error', title: format('organization.deleteFailed', { reason }) });
            },
          })
        }
      />
    </section>
  );
}
