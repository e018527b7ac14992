/**
 * Organization settings › Billing (admins): Info and History tabs, Edit Billing Info, Setup
 * Credit Card. An organization without a billing account yet gets one on first open (GET
 * billingDetails answers 404, then POST billingDetails/organizationDetails); other read failures
 * say "Could not get billing info". `?setupCreditCard=true` opens Setup Credit Card (the billing
 * status dialog leads there). Amounts are minor units, shown with `formatMoney`.
 */
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { Tabs } from 'radix-ui';
import { currencyOfNumber, formatMoney } from '../../../definitions/billing/money.ts';
import { formatDateTime } from '../../../definitions/format-date-time.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import type { BillingDetails } from '../../api/billing.ts';
import { useBillingDetails } from '../../api/billing-queries.ts';
import type { Organization } from '../../api/platform.ts';
import { BillingHistory } from './BillingHistory.tsx';
import { countryName } from './billing-countries.ts';
import { EditBillingInfoDialog } from './EditBillingInfoDialog.tsx';
import { SetupCreditCardDialog } from './SetupCreditCardDialog.tsx';
import './billing.css';

type Open = 'edit' | 'card' | null;

/** The wire numbers of currency and frequency, worded. */
export const currencyKey = { 1: 'billing.currency.1', 2: 'billing.currency.2' } as const;
export const frequencyKey = { 1: 'billing.frequency.1', 2: 'billing.frequency.2' } as const;

export function BillingSection({ organization }: { organization: Organization }) {
  const format = useFormat();
  const details = useBillingDetails(organization.id);
  const [search, setSearch] = useSearchParams();
  const [open, setOpen] = useState<Open>(null);
  const [tab, setTab] = useState('info');
  const askedForCard = search.get('setupCreditCard') === 'true';
  const cardOpen = open === 'card' || (askedForCard && open === null);

  const closeCard = () => {
    setOpen(null);
    // Closed once, the request is done: a reload must not open it again.
    if (askedForCard) {
      setSearch(
        (params) => {
          const next = new URLSearchParams(params);
          next.delete('setupCreditCard');
          return next;
        },
        { replace: true },
      );
    }
  };

  return (
    <section className="panel billing-section" aria-labelledby="settings-billing" data-organization={organization.id}>
      <div className="section-header">
        <h2 id="settings-billing">{format('settings.billing')}</h2>
        <div className="section-actions">
          <button type="button" className="button" disabled={!details.data} onClick={() => setOpen('edit')}>
            {format('billing.edit.button')}
          </button>
          <button type="button" className="button button-primary" disabled={!details.data} onClick={() => setOpen('card')}>
            {format('billing.card.button')}
          </button>
        </div>
      </div>
      <Tabs.Root className="tabs billing-tabs" value={tab} onValueChange={setTab}>
        <Tabs.List className="tab-list" aria-label={format('billing.tabs')}>
          <Tabs.Trigger className="tab" value="info">
            {format('billing.tab.info')}
          </Tabs.Trigger>
          <Tabs.Trigger className="tab" value="history">
            {format('billing.tab.history')}
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content className="tab-panel" value="info">
          {details.isError ? (
            <p role="alert" className="callout-error">
              {format('billing.readFailed')}
            </p>
          ) : details.data ? (
            <BillingInfo details={details.data} />
          ) : (
            <p className="muted" role="status">
              {format('app.loading')}
            </p>
          )}
        </Tabs.Content>
        <Tabs.Content className="tab-panel" value="history">
          <BillingHistory organizationID={organization.id} />
        </Tabs.Content>
      </Tabs.Root>
      <EditBillingInfoDialog
        organizationID={organization.id}
        details={details.data}
        open={open === 'edit'}
        onOpenChange={(next) => setOpen(next ? 'edit' : null)}
        onSetupCard={() => setOpen('card')}
      />
      <SetupCreditCardDialog organizationID={organization.id} open={cardOpen && Boolean(details.data)} onOpenChange={(next) => (next ? setOpen('card') : closeCard())} />
    </section>
  );
}

/** The Info tab: what the account pays, how often, where to, and with which card. */
export function BillingInfo({ details }: { details: BillingDetails }) {
  const format = useFormat();
  const currency = currencyOfNumber(details.currency) ?? 'USD';
  const notSet = <span className="muted">{format('billing.info.notSet')}</span>;
  const text = (value: string | null | undefined) => (value && value.trim() !== '' ? value : notSet);
  const address = details.billingAddress;
  const credit = currency === 'NIS' ? details.credit.nisAmount : details.credit.amount;
  return (
    <dl className="facts billing-facts">
      <dt>{format('billing.info.plan')}</dt>
      <dd>{details.plan.name}</dd>
      <dt>{format('billing.info.amount')}</dt>
      <dd>
        <span data-testid="billing-amount">{formatMoney(details.totalBillingAmount, currency)}</span>{' '}
        <span className="muted billing-hint">{format('billing.info.amountHint')}</span>
      </dd>
      <dt>{format('billing.info.currency')}</dt>
      <dd>{format(currencyKey[details.currency])}</dd>
      <dt>{format('billing.info.frequency')}</dt>
      <dd>{format(frequencyKey[details.billingFrequency])}</dd>
      <dt>{format('billing.field.email')}</dt>
      <dd>{text(details.billingEmail)}</dd>
      <dt>{format('billing.field.address')}</dt>
      <dd>{text(address.address)}</dd>
      <dt>{format('billing.field.city')}</dt>
      <dd>{text(address.city)}</dd>
      <dt>{format('billing.field.country')}</dt>
      <dd>{address.country ? countryName(address.country) : notSet}</dd>
      <dt>{format('billing.field.postcode')}</dt>
      <dd>{text(address.postcode)}</dd>
      <dt>{format('billing.info.credit')}</dt>
      <dd>{formatMoney(credit, currency)}</dd>
      <dt>{format('billing.info.card')}</dt>
      <dd data-testid="billing-card">
        {details.creditCardDetails ? `${details.creditCardDetails.cardNumber}${details.creditCardDetails.brand ? ` (${details.creditCardDetails.brand})` : ''}` : notSet}
      </dd>
      <dt>{format('billing.info.nextBillingDate')}</dt>
      <dd>{details.nextBillingDate ? formatDateTime(details.nextBillingDate) : notSet}</dd>
    </dl>
  );
}
