/**
 * Setup Credit Card: the billing summary of the plan being paid for (recalculated when the dialog
 * opens and when the country changes), then the card provider's page: in a frame when the
 * provider allows it (sandbox), else a button that opens it whole (Stripe). The page returns to
 * /billingComplete. The card page goes through the loading states INIT, LOADING, ERROR, LOADED and
 * CREATED (the card is saved: the terms text is hidden). Without a city it warns "Billing Address
 * must be set before setting up credit card details" and offers the billing info form in place.
 *
 * Helper for other screens: `<SetupCreditCardDialog organizationID planID? open onOpenChange />`
 * (the plan an upgrade buys; without one, the account's plan, or the default upgrade on the Free Plan).
 */
import { useState } from 'react';
import { defaultUpgradePlan, planById } from '../../../definitions/billing/plans.ts';
import { currencyOfNumber, formatMoney } from '../../../definitions/billing/money.ts';
import { ModalDialog } from '../../../renderers/dialogs/ModalDialog.tsx';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import type { BillingDetails, BillingSummary } from '../../api/billing.ts';
import { useBillingDetails, useBillingSummary, useCardLink, useCardSession } from '../../api/billing-queries.ts';
import { useProblemMessage } from '../../hooks/use-problem-message.ts';
import { BillingInfoForm } from './EditBillingInfoDialog.tsx';
import { countryName } from './billing-countries.ts';
import './billing.css';

/** The card page's loading states (numbers as the console has always counted them). */
export const cardPageStates = { INIT: 0, LOADING: 1, ERROR: 2, LOADED: 3, CREATED: 4 } as const;
export type CardPageState = keyof typeof cardPageStates;

/** How often an open card page's session is asked whether the card was saved. */
const SESSION_POLL_MS = 3000;

export interface SetupCreditCardDialogProps {
  organizationID: string;
  /** The plan being bought (an upgrade); without it, the account's plan or the default upgrade. */
  planID?: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** The plan the card pays for: the one being bought, else the account's paid plan, else the default upgrade. */
export function cardPlanID(details: BillingDetails | undefined, planID?: string): string | undefined {
  if (planID) return planID;
  if (!details) return undefined;
  return planById(details.plan.id)?.free ? defaultUpgradePlan.id : details.plan.id;
}

export function SetupCreditCardDialog({ organizationID, planID, open, onOpenChange }: SetupCreditCardDialogProps) {
  const format = useFormat();
  return (
    <ModalDialog open={open} onOpenChange={onOpenChange} name="setupCreditCard" title={format('billing.card.title')} widthPx={640}>
      {({ titleId }) => (open ? <CardSetup organizationID={organizationID} planID={planID} titleId={titleId} onClose={() => onOpenChange(false)} /> : null)}
    </ModalDialog>
  );
}

function CardSetup({ organizationID, planID, titleId, onClose }: { organizationID: string; planID?: string; titleId: string; onClose: () => void }) {
  const format = useFormat();
  const problemMessage = useProblemMessage();
  const details = useBillingDetails(organizationID);
  const [editing, setEditing] = useState(false);

  if (details.isError) {
    return (
      <p role="alert" className="callout-error">
        {format('billing.readFailed')} {problemMessage(details.error)}
      </p>
    );
  }
  if (!details.data) {
    return (
      <p className="muted" role="status">
        {format('app.loading')}
      </p>
    );
  }
  if (editing) {
    return (
      <BillingInfoForm
        organizationID={organizationID}
        details={details.data}
        labelledBy={titleId}
        offerCard={false}
        onCancel={() => setEditing(false)}
        onSaved={() => setEditing(false)}
      />
    );
  }
  const address = details.data.billingAddress;
  if (address.city.trim() === '' || !details.data.billingEmail) {
    return (
      <div className="card-setup">
        <p role="alert" className="callout-warning">
          {format('billing.addressRequired')}
        </p>
        <div className="form-actions">
          <button type="button" className="button" onClick={onClose}>
            {format('form.cancel')}
          </button>
          <button type="button" className="button button-primary" onClick={() => setEditing(true)}>
            {format('billing.card.editAddress')}
          </button>
        </div>
      </div>
    );
  }
  return <CardSetupReady organizationID={organizationID} details={details.data} planID={cardPlanID(details.data, planID)} explicitPlanID={planID} />;
}

function CardSetupReady({ organizationID, details, planID, explicitPlanID }: { organizationID: string; details: BillingDetails; planID?: string; explicitPlanID?: string }) {
  const format = useFormat();
  const problemMessage = useProblemMessage();
  const country = details.billingAddress.country;
  const summary = useBillingSummary(organizationID, { country, planID });
  const link = useCardLink(organizationID, explicitPlanID);
  const session = useCardSession(link.data?.sessionID, { refetchInterval: (link.data?.framed ?? false) ? SESSION_POLL_MS : false });
  const created = session.data?.status === 'completed';
  const state: CardPageState = created ? 'CREATED' : link.isError ? 'ERROR' : link.data ? 'LOADED' : link.isFetching ? 'LOADING' : 'INIT';

  return (
    <div className="card-setup" data-card-state={state}>
      <p className="muted">{format('billing.card.intro')}</p>
      <SummaryTable summary={summary.data} loading={summary.isPending} failed={summary.isError} country={country} planID={planID} />
      {state === 'CREATED' ? (
        <p role="status" className="form-success">
          {format('billing.card.created')}
        </p>
      ) : (
        <p className="card-terms">{format('billing.card.terms')}</p>
      )}
      {state === 'LOADING' || state === 'INIT' ? (
        <p className="muted" role="status">
          {format('billing.card.loading')}
        </p>
      ) : null}
      {state === 'ERROR' ? (
        <div role="alert" className="callout-error card-error">
          <span>{format('billing.card.linkFailed', { reason: problemMessage(link.error) })}</span>
          <button type="button" className="button button-small" onClick={() => void link.refetch()}>
            {format('billing.card.retry')}
          </button>
        </div>
      ) : null}
      {state === 'LOADED' && link.data ? (
        link.data.framed ? (
          <iframe className="card-frame" title={format('billing.card.frameTitle')} src={link.data.url} />
        ) : (
          <div className="card-whole">
            <p className="muted">{format('billing.card.openPageHint')}</p>
            <a className="button button-primary" href={link.data.url} target="_top" rel="noopener">
              {format('billing.card.openPage')}
            </a>
          </div>
        )
      ) : null}
    </div>
  );
}

function SummaryTable({ summary, loading, failed, country, planID }: { summary?: BillingSummary; loading: boolean; failed: boolean; country: string; planID?: string }) {
  const format = useFormat();
  if (failed) {
    return (
      <p role="alert" className="callout-error">
        {format('billing.card.summaryFailed')}
      </p>
    );
  }
  if (!summary) {
    return loading ? (
      <p className="muted" role="status">
        {format('billing.card.summaryLoading')}
      </p>
    ) : null;
  }
  const currency = currencyOfNumber(summary.currency) ?? 'USD';
  const money = (amount: number) => formatMoney(amount, currency);
  const planName = (planID && planById(planID)?.name) || summary.planID;
  return (
    <div className="table-scroll">
      <table className="table billing-summary">
        <caption>
          <span className="billing-summary-title">{format('billing.card.summary')}</span>{' '}
          <span className="muted">{format('billing.card.summaryFor', { plan: planName, currency: format(summary.currency === 1 ? 'billing.currency.1' : 'billing.currency.2'), country: countryName(summary.country) })}</span>
        </caption>
        <thead>
          <tr>
            <th scope="col">{format('billing.card.line')}</th>
            <th scope="col" className="cell-amount">
              {format('billing.card.amount')}
            </th>
          </tr>
        </thead>
        <tbody>
          {summary.lineItems.map((line, index) => (
            <tr key={`${line.name}-${index}`}>
              <th scope="row">{line.name}</th>
              <td className="cell-amount">{money(line.amount)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">{format('billing.card.subtotal')}</th>
            <td className="cell-amount">{money(summary.subtotal)}</td>
          </tr>
          {summary.credit !== 0 ? (
            <tr>
              <th scope="row">{format('billing.card.credit')}</th>
              <td className="cell-amount">{money(-Math.abs(summary.credit))}</td>
            </tr>
          ) : null}
          <tr>
            <th scope="row">{summary.taxName ? format('billing.card.taxNamed', { name: summary.taxName }) : format('billing.card.tax')}</th>
            <td className="cell-amount">{money(summary.tax)}</td>
          </tr>
          <tr className="billing-summary-total">
            <th scope="row">{format('billing.card.total')}</th>
            <td className="cell-amount">{money(summary.total)}</td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
