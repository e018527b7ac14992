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
import { notify } from '../../../renderers/toasts/notify.ts';
import type { BillingDetails, Plan } from '../../api/billing.ts';
import { useBillingDetails, useChangePlan, usePlans } from '../../api/billing-queries.ts';
import type { Organization } from '../../api/platform.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';
import { ChangePlanDialog, type PlanChangeMode } from './ChangePlanDialog.tsx';
import { ConfirmFreePlanDialog } from './ConfirmFreePlanDialog.tsx';
import { ContactUsDialog } from './ContactUsDialog.tsx';
import { PlanCards } from './PlanCards.tsx';
import { accountTerms, formatBillingDate, periodPrice } from './plan-format.ts';
import { SetupCreditCardDialog } from './SetupCreditCardDialog.tsx';
import { UpgradeCompleteDialog } from './UpgradeCompleteDialog.tsx';
import { UsageTable } from './UsageTable.tsx';
import './plans.css';

type Open =
  | { kind: 'free'; plan: Plan }
  | { kind: 'change'; plan: Plan; mode: PlanChangeMode }
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

  const keep = useChangePlan(organization.id);

  const choose = (plan: Plan) => {
    const account = details.data;
    if (!account) return;
    const mode = changeMode(plan, account, plans.data ?? []);
    if (plan.free) setOpen({ kind: 'free', plan });
    else if (mode === 'scheduled' || account.creditCardDetails) setOpen({ kind: 'change', plan, mode });
    else setOpen({ kind: 'card', plan });
  };
  const keepPlan = (plan: Plan) =>
    keep.mutate(plan.id, {
      onSuccess: () => void notify({ kind: 'success', title: format('plans.kept', { plan: plan.name }) }),
      onError: (error) => void notify({ kind: 'error', title: problemMessage(error) }),
    });
  const changed = (plan: Plan, updated: BillingDetails) => {
    if (updated.pendingPlan?.id === plan.id) {
      void notify({ kind: 'success', title: format('plans.free.scheduled', { plan: plan.name, date: formatBillingDate(updated.pendingPlan.effectiveDate) }) });
      close();
    } else setOpen({ kind: 'thanks', planName: updated.plan.name });
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
          <PlanCards plans={plans.data} details={details.data} onChoose={choose} onKeep={keepPlan} busy={keep.isPending} />
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
          mode={open.mode}
          details={details.data}
          open
          onOpenChange={(value) => (value ? null : close())}
          onChanged={(updated) => changed(open.plan, updated)}
          onCardRequired={() => setOpen({ kind: 'card', plan: open.plan })}
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

/**
 * How the server takes a change to the paid `plan` (PUT plan; docs/console.md "Plan & Usage"):
 * while a paid period runs, a plan that costs no more waits for the next billing date and a dearer
 * one starts now, charged pro rata; from the Free Plan a paid plan starts a period of its own.
 */
export function changeMode(plan: Plan, details: BillingDetails, plans: readonly Plan[]): PlanChangeMode {
  const current = plans.find((entry) => entry.id === details.plan.id);
  const periodRuns = details.nextBillingDate !== null && current?.free !== true;
  if (!periodRuns) return 'first';
  const { currency, frequency } = accountTerms(details);
  // A plan the list leaves out (assigned by the operator) is compared by the server alone: a listed paid plan is bought now.
  if (!current) return 'prorata';
  return periodPrice(plan, frequency, currency) <= periodPrice(current, frequency, currency) ? 'scheduled' : 'prorata';
}
