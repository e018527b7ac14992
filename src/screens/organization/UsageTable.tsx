/**
 * This month's usage against the plan's limits (Plan & Usage): every metric in the fixed order of
 * definitions/usage.ts, its amount and limit in its unit (sizes 1000-based) with a meter, the
 * overage cost so far in the account's currency, and whether the limit is hard (the API refuses
 * past it) or billed (docs/billing.md "Usage limits").
 */
import { formatMoney } from '../../../definitions/billing/money.ts';
import { usageMetrics } from '../../../definitions/usage.ts';
import { useFormat } from '../../../renderers/messages/use-format.ts';
import type { BillingDetails } from '../../api/billing.ts';
import { accountTerms, formatUsageValue, percentUsed } from './plan-format.ts';

/** From this share of a limit the meter shows a warning, as the API's warning header does. */
const warnPercent = 80;

export function UsageTable({ details }: { details: BillingDetails }) {
  const format = useFormat();
  const { currency } = accountTerms(details);
  const rows = usageMetrics.flatMap((name) => details.usage.filter((entry) => entry.name === name));
  if (rows.length === 0) return <p className="empty-state">{format('usage.none')}</p>;
  const overageTotal = rows.reduce((sum, row) => sum + row.overageAmount, 0);
  return (
    <div className="table-scroll">
      <table className="table usage-table" aria-labelledby="plans-usage">
        <thead>
          <tr>
            <th scope="col">{format('usage.metric')}</th>
            <th scope="col">{format('usage.used')}</th>
            <th scope="col">{format('usage.limitKind')}</th>
            <th scope="col" className="numeric">
              {format('usage.overage')}
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => {
            const metric = format(`usage.metric.${row.name}`);
            const percent = percentUsed(row.amount, row.limit);
            const over = row.amount > row.limit;
            const reached = row.hardLimit && row.amount >= row.limit;
            const level = reached || over ? 'over' : percent >= warnPercent ? 'high' : 'ok';
            return (
              <tr key={row.name} data-metric={row.name} data-level={level}>
                <th scope="row">{metric}</th>
                <td>
                  <div className="usage-figure">
                    <span>
                      {format('usage.amountOfLimit', {
                        amount: formatUsageValue(row.amount, row.unitOfMeasure),
                        limit: formatUsageValue(row.limit, row.unitOfMeasure),
                      })}
                    </span>
                    <span className="usage-percent">{format('usage.percent', { percent })}</span>
                  </div>
                  <meter
                    className="usage-meter"
                    min={0}
                    max={Math.max(row.limit, 1)}
                    low={Math.max(row.limit, 1) * (warnPercent / 100)}
                    high={Math.max(row.limit, 1) * (warnPercent / 100)}
                    optimum={0}
                    value={Math.min(Math.max(row.amount, 0), Math.max(row.limit, 1))}
                    aria-label={format('usage.meter', { metric })}
                  />
                </td>
                <td>
                  {row.hardLimit ? (
                    <span className={`badge ${reached ? 'badge-limit' : 'badge-hard'}`}>{format(reached ? 'usage.hardLimitReached' : 'usage.hardLimit')}</span>
                  ) : (
                    <span className={`badge ${over ? 'badge-over' : ''}`}>{format(over ? 'usage.billedOver' : 'usage.billed')}</span>
                  )}
                </td>
                <td className="numeric">{row.hardLimit ? '—' : formatMoney(row.overageAmount, currency)}</td>
              </tr>
            );
          })}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row" colSpan={3}>
              {format('usage.overageTotal')}
            </th>
            <td className="numeric">{formatMoney(overageTotal, currency)}</td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
