/**
 * Confirm Free Plan: choosing the Free Plan takes effect at the next billing date, not at once
 * (docs/console.md "Plan & Usage"); until then the organization keeps its plan.
 */
import { ModalDialog } from '../../../renderers/dialogs/ModalDialog.tsx';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import { notify } from '../../../renderers/toasts/notify.ts';
import type { BillingDetails, Plan } from '../../api/billing.ts';
import { useChangePlan } from '../../api/billing-queries.ts';
import { formatBillingDate } from './plan-format.ts';
import { PlanChangeActions } from './PlanChangeActions.tsx';

export interface ConfirmFreePlanDialogProps {
  organizationID: string;
  plan: Plan;
  details: BillingDetails;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

export function ConfirmFreePlanDialog({ organizationID, plan, details, open, onOpenChange }: ConfirmFreePlanDialogProps) {
  const format = useFormat();
  const change = useChangePlan(organizationID);
  const next = details.nextBillingDate ? formatBillingDate(details.nextBillingDate) : '';
  const close = (value: boolean) => {
    if (!value) change.reset();
    onOpenChange(value);
  };
  const confirm = () =>
    change.mutate(plan.id, {
      onSuccess: (updated) => {
        const date = updated.pendingPlan ? formatBillingDate(updated.pendingPlan.effectiveDate) : next;
        void notify({ kind: 'success', title: date ? format('plans.free.scheduled', { plan: plan.name, date }) : format('plans.free.scheduledUndated', { plan: plan.name }) });
        close(false);
      },
    });
  return (
    <ModalDialog open={open} onOpenChange={close} name="confirmFreePlan" title={format('plans.free.title')}>
      <p>
        {next
          ? format('plans.free.body', { plan: plan.name, date: next, current: details.plan.name })
          : format('plans.free.bodyUndated', { plan: plan.name, current: details.plan.name })}
      </p>
      {plan.usageLimits.every((limit) => limit.additionalCost === null) ? <p className="muted">{format('plans.free.limits', { plan: plan.name })}</p> : null}
      <PlanChangeActions
        error={change.error}
        pending={change.isPending}
        confirmLabel="plans.free.confirm"
        confirmingLabel="plans.free.confirming"
        onCancel={() => close(false)}
        onConfirm={confirm}
      />
    </ModalDialog>
  );
}
