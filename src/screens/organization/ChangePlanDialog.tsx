/**
 * Changing to another paid plan (docs/billing.md "Plan changes and seats"). Before confirming, the dialog
 * shows what each period costs on the new plan (GET billingSummary for the account's country:
 * lines, credit, tax, total) and when it is charged, by the server's rules for PUT plan:
 * - `prorata`: a dearer plan while a paid period runs starts now; the card is charged the price
 *   difference for the days left of the period;
 * - `first`: from the Free Plan a paid plan starts now with a period of its own, charged in full;
 * - `scheduled`: a plan that costs no more takes effect at the next billing date, charged nothing now.
 */
import { currencyOfNumber, formatMoney } from '../../../definitions/billing/money.ts';
import { ModalDialog } from '../../../renderers/dialogs/ModalDialog.tsx';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import type { BillingDetails, Plan } from '../../api/billing.ts';
import { useBillingSummary, useChangePlan } from '../../api/billing-queries.ts';
import { isApiError } from '../../api/errors.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';
import { accountTerms, formatBillingDate } from './plan-format.ts';
import { PlanChangeActions } from './PlanChangeActions.tsx';

export type PlanChangeMode = 'prorata' | 'first' | 'scheduled';

export interface ChangePlanDialogProps {
  organizationID: string;
  plan: Plan;
  mode: PlanChangeMode;
  details: BillingDetails;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The server changed the plan (and charged the card), or scheduled the change. */
  onChanged: (details: BillingDetails) => void;
  /** The server wants a card first (`card_required`: none on file any more): set one up for this plan. */
  onCardRequired: () => void;
}

export function ChangePlanDialog({ organizationID, plan, mode, details, open, onOpenChange, onChanged, onCardRequired }: ChangePlanDialogProps) {
  const format = useFormat();
  const problemMessage = useProblemMessage();
  const summary = useBillingSummary(organizationID, { country: details.billingAddress.country, planID: plan.id }, { enabled: open });
  const change = useChangePlan(organizationID);
  const data = summary.data;
  const currency = (data && currencyOfNumber(data.currency)) || accountTerms(details).currency;
  const money = (amount: number) => formatMoney(amount, currency);
  const close = (value: boolean) => {
    if (!value) change.reset();
    onOpenChange(value);
  };
  const confirm = () =>
    change.mutate(plan.id, {
      onSuccess: (updated) => onChanged(updated),
      onError: (error) => {
        if (isApiError(error) && error.code === 'card_required') onCardRequired();
      },
    });
  const card = details.creditCardDetails?.cardNumber ?? '';
  const date = details.nextBillingDate ? formatBillingDate(details.nextBillingDate) : '';
  const body =
    mode === 'scheduled'
      ? format('plans.change.bodyScheduled', { plan: plan.name, date, current: details.plan.name })
      : mode === 'prorata'
        ? format('plans.change.body', { plan: plan.name, card, date })
        : format('plans.change.bodyFirst', { plan: plan.name, card });
  return (
    <ModalDialog open={open} onOpenChange={close} name="changePlan" title={format('plans.change.title', { plan: plan.name })}>
      <p>{body}</p>
      {summary.error ? (
        <p role="alert" className="form-alert">
          {problemMessage(summary.error)}
        </p>
      ) : !data ? (
        <p className="muted" role="status">
          {format('plans.change.loading')}
        </p>
      ) : (
        <table className="table plan-summary">
          <thead>
            <tr>
              <th scope="col">{format('plans.change.line')}</th>
              <th scope="col" className="numeric">
                {format('plans.change.amount')}
              </th>
            </tr>
          </thead>
          <tbody>
            {data.lineItems.map((line, index) => (
              <tr key={`${line.usageName ?? line.name}-${index}`}>
                <th scope="row">{line.name}</th>
                <td className="numeric">{money(line.amount)}</td>
              </tr>
            ))}
            {data.credit ? (
              <tr>
                <th scope="row">{format('plans.change.credit')}</th>
                <td className="numeric">{money(-data.credit)}</td>
              </tr>
            ) : null}
            {data.tax ? (
              <tr>
                <th scope="row">{data.taxName ?? format('plans.change.tax')}</th>
                <td className="numeric">{money(data.tax)}</td>
              </tr>
            ) : null}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row">{format('plans.change.total')}</th>
              <td className="numeric" data-testid="plan-summary-total">
                {money(data.total)}
              </td>
            </tr>
          </tfoot>
        </table>
      )}
      <PlanChangeActions
        error={change.error}
        pending={change.isPending}
        disabled={!data}
        confirmLabel="plans.change.confirm"
        confirmingLabel="plans.change.confirming"
        onCancel={() => close(false)}
        onConfirm={confirm}
      />
    </ModalDialog>
  );
}
