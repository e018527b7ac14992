/**
 * Money of an organization row as the admin tables show it: in the account's currency (the
 * balance's), and the other currency's credit too when there is any. Minor units throughout.
 */
import { currencyOfNumber, formatMoney, type CurrencyCode } from '../../../../definitions/billing/money.ts';
import type { AdminOrganization } from '../../../../definitions/schemas/admin.ts';

export const accountCurrency = (organization: AdminOrganization): CurrencyCode => currencyOfNumber(organization.balance.currency) ?? 'USD';

export const balanceText = (organization: AdminOrganization): string => formatMoney(organization.balance.amount, accountCurrency(organization));

export function creditText(organization: AdminOrganization): string {
  const usd = formatMoney(organization.credit.amount, 'USD');
  const nis = formatMoney(organization.credit.nisAmount, 'NIS');
  if (accountCurrency(organization) === 'NIS') return organization.credit.amount > 0 ? `${nis} · ${usd}` : nis;
  return organization.credit.nisAmount > 0 ? `${usd} · ${nis}` : usd;
}
