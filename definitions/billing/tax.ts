/**
 * Tax rules as data, by billing country (ISO 3166-1 alpha-2). A rate is in basis points (1/100 of a
 * percent) so tax is integer arithmetic: `mulDiv(net, rate, 10_000)`. Countries not listed pay no
 * tax through Larder (the operator's tax adviser decides; docs/billing.md "Tax").
 */
import { mulDiv } from './money.ts';

export interface TaxRule {
  /** What invoices and the billing summary call it. */
  name: string;
  rateBasisPoints: number;
}

export const taxRules: Readonly<Record<string, TaxRule>> = {
  // Israel's VAT: 18 % from 1 January 2025.
  IL: { name: 'VAT', rateBasisPoints: 1_800 },
};

/** The tax on a net amount for a country (0 where no rule applies). */
export function taxFor(country: string, net: number): { rule: TaxRule | null; amount: number } {
  const rule = taxRules[country.toUpperCase()] ?? null;
  return { rule, amount: rule && net > 0 ? mulDiv(net, rule.rateBasisPoints, 10_000) : 0 };
}
