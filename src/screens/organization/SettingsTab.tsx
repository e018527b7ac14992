/**
 * Organization settings: General (name editable by admins), Users, Billing and
 * Plan & Usage (admins; none with BILLING=0), Danger Zone (admins). Non-admins see only
 * General and the user list. `?view=plans` scrolls to the plans for admins.
 */
import { useEffect, useRef } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import organizationNameForm from '../../../definitions/forms/organization-name.ts';
import validateOrganizationName from '../../../definitions/forms/organization-name.ts?validator';
import { formatDateTime } from '../../../definitions/format-date-time.ts';
import { routePath } from '../../../definitions/route-path.ts';
import { FormRenderer } from '../../../renderers/forms/FormRenderer.tsx';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { notify } from '../../../renderers/toasts/notify.ts';
import type { Me } from '../../api/auth.ts';
import { isApiError } from '../../api/errors.ts';
import type { Organization } from '../../api/platform.ts';
import { useDeleteOrganization, useRenameOrganization } from '../../api/platform-queries.ts';
import { problemText } from '../../hooks/problem-text.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';
import { DeleteByNameSection } from '../../shell/DeleteByNameSection.tsx';
import { problemFieldErrors } from '../../shell/problem-field-errors.ts';
import { UsersSection } from './UsersSection.tsx';
import { BillingSection } from './BillingSection.tsx';
import { PlansSection } from './PlansSection.tsx';
import { useConfig } from '../../api/queries.ts';

/** How long the page must stay the same size before `?view=plans` stops following the plans. */
const SETTLE_MS = 1500;

export interface SettingsTabProps {
  organization: Organization;
  me: Me;
  isAdmin: boolean;
}

export function SettingsTab({ organization, me, isAdmin }: SettingsTabProps) {
  const format = useFormat();
  const [search] = useSearchParams();
  const wantsPlans = search.get('view') === 'plans';
  // BILLING=0 installations show no billing at all (docs/billing.md "Self-hosting without billing").
  const billing = useConfig().data?.billing !== false;

  // Keep the plans at the top while the sections above them load (their lists push the plans
  // down after the first scroll), until the page has been still for a moment or the person
  // scrolls, types or clicks; as a browser does with a #fragment on a page that is still loading.
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = container.current;
    if (!isAdmin || !wantsPlans || !element) return;
    let settle: ReturnType<typeof setTimeout> | undefined;
    const place = () => {
      document.getElementById('plans')?.scrollIntoView({ block: 'start' });
      clearTimeout(settle);
      settle = setTimeout(stop, SETTLE_MS);
    };
    // Every browser has ResizeObserver; a DOM without it (jsdom) scrolls once.
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(place);
    const events = ['wheel', 'keydown', 'pointerdown', 'touchstart'] as const;
    function stop() {
      clearTimeout(settle);
      observer?.disconnect();
      for (const name of events) window.removeEventListener(name, stop);
    }
    for (const name of events) window.addEventListener(name, stop, { passive: true });
    observer?.observe(element);
    place();
    return stop;
  }, [isAdmin, wantsPlans]);

  return (
    <div className="settings" ref={container}>
      <section className="panel" aria-labelledby="settings-general">
        <h2 id="settings-general">{format('settings.general')}</h2>
        <GeneralSection organization={organization} isAdmin={isAdmin} />
      </section>
      <UsersSection organization={organization} me={me} isAdmin={isAdmin} />
      {isAdmin ? (
        <>
          {billing ? (
            <>
              <BillingSection organization={organization} />
              <PlansSection organization={organization} />
            </>
          ) : null}
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
  const remove = useDeleteOrganization(organization.id);
  return (
    <DeleteByNameSection
      headingLevel={2}
      headingId="settings-danger"
      heading={format('settings.dangerZone')}
      explain={format('organization.delete.explain')}
      buttonLabel={format('organization.delete.button')}
      dialogName="deleteOrganization"
      title={format('organization.delete.title')}
      body={format('organization.delete.body', { name: organization.name })}
      inputLabel={format('organization.delete.label')}
      expected={organization.name}
      mismatchMessage={format('organization.nameMismatch')}
      confirmLabel={format('organization.delete.confirm')}
      busy={remove.isPending}
      onConfirm={(close) =>
        remove.mutate(undefined, {
          onSuccess: () => {
            void notify({ kind: 'success', title: format('organization.deleted') });
            close();
            navigate(routePath('home'), { replace: true });
          },
          onError: (error) => {
            const reason = isApiError(error) && error.detail ? problemText(error, format) : 'none';
            void notify({ kind: 'error', title: format('organization.deleteFailed', { reason }) });
          },
        })
      }
    />
  );
}
