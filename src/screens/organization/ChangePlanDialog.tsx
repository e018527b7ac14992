/**
 * Changing to a paid plan with a card on file: the change takes effect at once and the card is
 * charged the rest of the current period pro rata. Before confirming, the dialog shows what each
 * period costs on the new plan (GET billingSummary for the account's country: lines, tax, total).
 */
import { currencyOfNumber, formatMoney } from '../../../definitions/billing/money.ts';
import { ModalDialog } from '../../../renderers/dialogs/ModalDialog.tsx';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import type { BillingDetails, Plan } from '../../api/billing.ts';
import { useBillingSummary, useChangePlan } from '../../api/billing-queries.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';
import { accountTerms } from './plan-format.ts';

export interface ChangePlanDialogProps {
  organizationID: string;
  plan: Plan;
  details: BillingDetails;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The server changed the plan (and charged the card). */
  onChanged: (details: BillingDetails) => void;
}

export function ChangePlanDialog({ organizationID, plan, details, open, onOpenChange, onChanged }: ChangePlanDialogProps) {
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
  const confirm = () => change.mutate(plan.id, { onSuccess: (updated) => onChanged(updated) });
  const card = details.creditCardDetails?.cardNumber ?? '';
  return (
    <ModalDialog open={open} onOpenChange={close} name="changePlan" title={format('plans.change.title', { plan: plan.name })}>
      <p>{format('plans.change.body', { plan: plan.name, card })}</p>
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
      {change.error ? (
        <p role="alert" className="form-alert">
          {problemMessage(change.error)}
        </p>
      ) : null}
      <div className="dialog-actions">
        <button type="button" className="button" onClick={() => close(false)}>
          {format('form.cancel')}
        </button>
        <button type="button" className="button button-primary" disabled={change.isPending || !data} onClick={confirm}>
          {format(change.isPending ? 'plans.change.confirming' : 'plans.change.confirm')}
        </button>
      </div>
    </ModalDialog>
  );
}
