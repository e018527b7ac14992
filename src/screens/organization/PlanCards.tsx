/**
 * The plan cards of Plan & Usage: each listed plan's name, price for the account's frequency and
 * currency, description and main limits; the current plan marked (aria-current) and a change that
 * waits for the next billing date (the Free Plan) shown on both cards it concerns.
 */
import { formatMoney } from '../../../definitions/billing/money.ts';
import { usageUnits, type UsageMetric } from '../../../definitions/usage.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import type { BillingDetails, Plan } from '../../api/billing.ts';
import { accountTerms, formatBillingDate, formatUsageValue, periodPrice } from './plan-format.ts';

/** The limits a card lists; the usage table shows every metric. */
const cardMetrics: readonly UsageMetric[] = ['Users', 'ApiCalls', 'ItemCount', 'TotalStore', 'BandWidth'];

export interface PlanCardsProps {
  plans: readonly Plan[];
  details: BillingDetails;
  /** A plan was chosen. */
  onChoose: (plan: Plan) => void;
  /** Keep the current plan: cancels the change waiting for the next billing date. */
  onKeep: (plan: Plan) => void;
  /** A plan request is under way: the buttons wait. */
  busy?: boolean;
}

export function PlanCards({ plans, details, onChoose, onKeep, busy = false }: PlanCardsProps) {
  const format = useFormat();
  const { currency, frequency } = accountTerms(details);
  const pending = details.pendingPlan;
  return (
    <ul className="plan-cards" aria-label={format('plans.heading')}>
      {plans.map((plan) => {
        const current = plan.id === details.plan.id;
        const upcoming = pending?.id === plan.id;
        const price = periodPrice(plan, frequency, currency);
        const titleId = `plan-${plan.id}-name`;
        const overage = plan.usageLimits.some((limit) => limit.additionalCost !== null);
        return (
          <li key={plan.id} className="plan-card" aria-current={current ? 'true' : undefined} aria-labelledby={titleId} data-plan={plan.id}>
            <div className="plan-card-header">
              <h4 id={titleId}>{plan.name}</h4>
              {current ? <span className="badge badge-active">{format('plans.current')}</span> : null}
            </div>
            <p className="plan-price">
              {plan.free
                ? format('plans.priceFree')
                : format(frequency === 'yearly' ? 'plans.priceYearly' : 'plans.priceMonthly', { price: formatMoney(price, currency) })}
            </p>
            <p className="plan-description">{plan.description}</p>
            <p className="plan-limits-heading">{format('plans.limitsHeading')}</p>
            <dl className="plan-limits">
              {cardMetrics.map((metric) => {
                const limit = plan.usageLimits.find((entry) => entry.name === metric);
                if (!limit) return null;
                return (
                  <div key={metric}>
                    <dt>{format(`usage.metric.${metric}`)}</dt>
                    <dd>{formatUsageValue(limit.limit, usageUnits[metric])}</dd>
                  </div>
                );
              })}
            </dl>
            <p className="muted plan-overage">{format(overage ? 'plans.overageBilled' : 'plans.hardLimits')}</p>
            {pending && upcoming ? (
              <p className="callout-info plan-pending">{format('plans.pendingFrom', { plan: pending.name, date: formatBillingDate(pending.effectiveDate) })}</p>
            ) : null}
            {pending && current ? (
              <>
                <p className="callout-info plan-pending">{format('plans.pendingUntil', { date: formatBillingDate(pending.effectiveDate) })}</p>
                <button type="button" className="button" disabled={busy} onClick={() => onKeep(plan)}>
                  {format('plans.keep', { plan: plan.name })}
                </button>
              </>
            ) : null}
            {current || upcoming ? null : (
              <button type="button" className={`button${plan.free ? '' : ' button-primary'}`} disabled={busy} onClick={() => onChoose(plan)}>
                {format('plans.choose', { plan: plan.name })}
              </button>
            )}
          </li>
        );
      })}
    </ul>
  );
}
