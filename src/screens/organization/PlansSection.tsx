/**
 * Organization settings › Plan & Usage (admins; docs/console.md "Plan & Usage"): the plan cards,
 * this month's usage against the plan's limits, Contact Us, Confirm Free Plan, and the
 * upgrade-complete thank-you when the page opens with `billingComplete`. A paid plan is bought
 * with the card on file (ChangePlanDialog) or, without one, through Setup Credit Card with that
 * plan; the Free Plan waits for the next billing date.
 */
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import type { BillingDetails, Plan } from '../../api/billing.ts';
import { useBillingDetails, usePlans } from '../../api/billing-queries.ts';
import type { Organization } from '../../api/platform.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';
import { ChangePlanDialog } from './ChangePlanDialog.tsx';
import { ConfirmFreePlanDialog } from './ConfirmFreePlanDialog.tsx';
import { ContactUsDialog } from './ContactUsDialog.tsx';
import { PlanCards } from './PlanCards.tsx';
import { SetupCreditCardDialog } from './SetupCreditCardDialog.tsx';
import { UpgradeCompleteDialog } from './UpgradeCompleteDialog.tsx';
import { UsageTable } from './UsageTable.tsx';
import './plans.css';

type Open =
  | { kind: 'free'; plan: Plan }
  | { kind: 'change'; plan: Plan }
  | { kind: 'card'; plan: Plan }
  | { kind: 'contact' }
  | { kind: 'thanks'; planName: string }
  | null;

/** The query the card flow returns with (BillingCompleteScreen). */
const completeParam = 'billingComplete';

export function PlansSection({ organization }: { organization: Organization }) {
  const format = useFormat();
  const problemMessage = useProblemMessage();
  const details = useBillingDetails(organization.id);
  const plans = usePlans();
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);
  useThanksFromUrl(details.data, details.isFetching, (planName) => setOpen({ kind: 'thanks', planName }));
  const [, setSearch] = useSearchParams();

  const choose = (plan: Plan) => {
    if (plan.free) setOpen({ kind: 'free', plan });
    else if (details.data?.creditCardDetails) setOpen({ kind: 'change', plan });
    else setOpen({ kind: 'card', plan });
  };
  const closeThanks = () => {
    close();
    setSearch(
      (search) => {
        const next = new URLSearchParams(search);
        next.delete(completeParam);
        return next;
      },
      { replace: true },
    );
  };

  const failure = details.error ?? plans.error;
  return (
    <section className="panel plans-section" id="plans" aria-labelledby="settings-plans" tabIndex={-1}>
      <div className="section-header">
        <h2 id="settings-plans">{format('settings.plans')}</h2>
        <p className="muted">{format('plans.contactIntro')}</p>
        <div className="section-actions">
          <button type="button" className="button" onClick={() => setOpen({ kind: 'contact' })}>
            {format('plans.contactUs')}
          </button>
        </div>
      </div>
      {failure ? (
        <div role="alert" className="callout-error">
          <strong>{format('billing.readFailed')}</strong> {problemMessage(failure)}
        </div>
      ) : !details.data || !plans.data ? (
        <p className="muted" role="status">
          {format('plans.loading')}
        </p>
      ) : (
        <>
          <h3 className="plans-subheading">{format('plans.heading')}</h3>
          <PlanCards plans={plans.data} details={details.data} onChoose={choose} />
          <h3 className="plans-subheading" id="plans-usage">
            {format('usage.heading')}
          </h3>
          <UsageTable details={details.data} />
        </>
      )}
      {details.data && open?.kind === 'free' ? (
        <ConfirmFreePlanDialog organizationID={organization.id} plan={open.plan} details={details.data} open onOpenChange={(value) => (value ? null : close())} />
      ) : null}
      {details.data && open?.kind === 'change' ? (
        <ChangePlanDialog
          organizationID={organization.id}
          plan={open.plan}
          details={details.data}
          open
          onOpenChange={(value) => (value ? null : close())}
          onChanged={(updated) => setOpen({ kind: 'thanks', planName: updated.plan.name })}
        />
      ) : null}
      {open?.kind === 'card' ? (
        <SetupCreditCardDialog organizationID={organization.id} planID={open.plan.id} open onOpenChange={(value) => (value ? null : close())} />
      ) : null}
      <ContactUsDialog organizationID={organization.id} open={open?.kind === 'contact'} onOpenChange={(value) => (value ? null : close())} />
      <UpgradeCompleteDialog
        organizationName={organization.name}
        planName={open?.kind === 'thanks' ? open.planName : ''}
        open={open?.kind === 'thanks'}
        onOpenChange={(value) => (value ? null : closeThanks())}
      />
    </section>
  );
}

/**
 * Opens the thank-you once when the page was reached with `billingComplete`, after the account has
 * been read afresh (the card flow changed its plan), so the dialog names the new plan.
 */
function useThanksFromUrl(details: BillingDetails | undefined, fetching: boolean, show: (planName: string) => void) {
  const [search] = useSearchParams();
  const wanted = search.has(completeParam);
  const shown = useRef(false);
  useEffect(() => {
    if (!wanted) shown.current = false;
    else if (!shown.current && details && !fetching) {
      shown.current = true;
      show(details.plan.name);
    }
  }, [wanted, details, fetching, show]);
}
