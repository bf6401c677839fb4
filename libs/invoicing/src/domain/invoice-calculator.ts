import Big from 'big.js';
import type { TaxabilityReason, TaxBehavior, TaxBreakdownEntry, TaxCalculation } from '@tally/tax/published';
import type { AppliedDiscount, DiscountedLine } from './discounts';
import type { InvoiceLine } from './invoice-lines';

export interface CalculatedLine extends InvoiceLine {
  /** The line's amount without tax, before discounts: `amount` itself when prices exclude tax. */
  amount_excluding_tax: Big;
  /** The line's discounts, without tax, so that total = amount_excluding_tax − discount_amount + tax_amount. */
  discount_amount: Big;
  discounts: DiscountedLine['discounts'];
  tax_amount: Big;
  /** Percent. */
  tax_rate: Big;
  /** null when no tax was calculated (the tenant set no tax origin). */
  taxability_reason: TaxabilityReason | null;
  total: Big;
}

export interface InvoiceTotals {
  lines: CalculatedLine[];
  subtotal: Big;
  discount: Big;
  tax: Big;
  /** subtotal − discount + tax, exactly. */
  total: Big;
  tax_breakdown: TaxBreakdownEntry[];
  /** What each discount took off the prices (tax included when prices include it). */
  discounts: AppliedDiscount[];
}

export interface InvoiceParts {
  behavior: TaxBehavior;
  lines: readonly InvoiceLine[];
  /** applyDiscounts of the lines, in the same order. */
  discounted: { lines: readonly DiscountedLine[]; applied: readonly AppliedDiscount[] };
  /** The tax of the discounted lines; null when no tax is calculated. */
  tax: TaxCalculation | null;
  /**
   * The tax of the lines before discounts. Only inclusive prices need it: it says how much of
   * each price is tax, so the subtotal and the discount can be stated without tax. null: the
   * same as `tax` (nothing was discounted, or prices exclude tax).
   */
  taxBeforeDiscounts: TaxCalculation | null;
}

const ZERO = new Big(0);
const sum = (amounts: readonly Big[]): Big => amounts.reduce((total, amount) => total.plus(amount), ZERO);

/**
 * Sums an invoice from its priced lines, their discounts and their tax, every line already rounded:
 * subtotal and discount exclude tax, so total = subtotal − discount + tax holds exactly for both
 * tax behaviours. With inclusive prices a line's tax comes out of its discounted price, and its
 * discount without tax is what the discount took off the price's part without tax.
 */
export function totalInvoice({ behavior, lines, discounted, tax, taxBeforeDiscounts }: InvoiceParts): InvoiceTotals {
  const calculated = lines.map((line, i): CalculatedLine => {
    const { discounts, discount_amount, amount_after } = discounted.lines[i];
    const lineTax = tax?.lines[i];
    const taxAmount = lineTax?.tax_amount ?? ZERO;
    const inclusive = behavior === 'inclusive' && lineTax !== undefined;
    const excludingTax = inclusive ? (taxBeforeDiscounts ?? tax)!.lines[i].taxable_amount : line.amount;
    return {
      ...line,
      amount_excluding_tax: excludingTax,
      discount_amount: inclusive ? excludingTax.minus(lineTax.taxable_amount) : discount_amount,
      discounts,
      tax_amount: taxAmount,
      tax_rate: lineTax?.rate ?? ZERO,
      taxability_reason: lineTax?.taxability_reason ?? null,
      total: inclusive ? amount_after : amount_after.plus(taxAmount),
    };
  });
  const subtotal = sum(calculated.map((line) => line.amount_excluding_tax));
  const discount = sum(calculated.map((line) => line.discount_amount));
  const taxTotal = sum(calculated.map((line) => line.tax_amount));
  return {
    lines: calculated,
    subtotal,
    discount,
    tax: taxTotal,
    total: subtotal.minus(discount).plus(taxTotal),
    tax_breakdown: tax?.breakdown ?? [],
    discounts: [...discounted.applied],
  };
}
