import type { LineTax, TaxBreakdownEntry } from './tax';

/**
 * The lines' taxes summed by jurisdiction, tax type, rate and taxability reason, ordered by
 * jurisdiction, tax type, rate, then reason. Only sums of already rounded amounts: the breakdown's
 * tax equals the lines' tax exactly.
 */
export function breakdownOf(lines: readonly LineTax[]): TaxBreakdownEntry[] {
  const entries = new Map<string, TaxBreakdownEntry>();
  for (const line of lines) {
    for (const tax of line.jurisdictions) {
      const key = [tax.jurisdiction, tax.tax_type, tax.rate.toFixed(), line.taxability_reason].join('|');
      const entry = entries.get(key);
      entries.set(key, {
        jurisdiction: tax.jurisdiction,
        country: tax.country,
        region: tax.region,
        tax_type: tax.tax_type,
        rate: tax.rate,
        taxability_reason: line.taxability_reason,
        taxable_amount: entry ? entry.taxable_amount.plus(tax.taxable_amount) : tax.taxable_amount,
        tax_amount: entry ? entry.tax_amount.plus(tax.tax_amount) : tax.tax_amount,
      });
    }
  }
  return [...entries.values()].sort(inBreakdownOrder);
}

function inBreakdownOrder(a: TaxBreakdownEntry, b: TaxBreakdownEntry): number {
  return (
    compareStrings(a.jurisdiction, b.jurisdiction) ||
    compareStrings(a.tax_type, b.tax_type) ||
    a.rate.cmp(b.rate) ||
    compareStrings(a.taxability_reason, b.taxability_reason)
  );
}

/** Code-unit order, the same on every machine (localeCompare is not). */
function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
