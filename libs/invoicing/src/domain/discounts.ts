import Big from 'big.js';
import { allocate, roundToCurrency } from '@tally/kernel';

/** Where a discount comes from; discounts apply in this order. */
export type DiscountLevel = 'subscription' | 'plan' | 'promotional';
export const DISCOUNT_LEVELS: readonly DiscountLevel[] = ['subscription', 'plan', 'promotional'];

export interface Discount {
  coupon_id: string;
  level: DiscountLevel;
  /** Percent (25 for 25 %), or null for an amount off. */
  percent_off: Big | null;
  /** In the invoice's currency, or null for a percentage. */
  amount_off: Big | null;
  /** null: every line; otherwise the lines of these component codes only. */
  components: readonly string[] | null;
}

export interface AppliedDiscount {
  coupon_id: string;
  level: DiscountLevel;
  /** What the discount took off the lines, in all; the sum of its line shares. */
  amount: Big;
}

export interface DiscountedLine {
  code: string;
  /** Each discount's share of this line, in the order they applied. */
  discounts: { coupon_id: string; amount: Big }[];
  discount_amount: Big;
  /** The line's amount less its discounts; a line above zero never goes below it. */
  amount_after: Big;
}

/**
 * Applies the discounts level by level (subscription, plan, promotional; in the given order within
 * a level), each to what the earlier ones left of the lines it covers:
 *  - a percentage is taken from each covered line and rounded on that line, half-even; from a
 *    credit line too, since the time it credits was paid at that percentage off;
 *  - an amount off is capped at what the covered lines above zero have left, then split over them
 *    in proportion to what each has left, by the largest remainder (kernel `allocate`), so the
 *    shares sum exactly to it and no share exceeds its line. A credit line (a proration's unused
 *    time) takes no share, as Stripe applies no coupon to a negative line.
 * Every amount is in the currency's minor units; no line above zero goes below it.
 */
export function applyDiscounts(
  lines: readonly { code: string; amount: Big }[],
  discounts: readonly Discount[],
  currency: string,
): { lines: DiscountedLine[]; applied: AppliedDiscount[] } {
  const discounted: DiscountedLine[] = lines.map((line) => ({ code: line.code, discounts: [], discount_amount: new Big(0), amount_after: line.amount }));
  const ordered = [...discounts].sort((a, b) => DISCOUNT_LEVELS.indexOf(a.level) - DISCOUNT_LEVELS.indexOf(b.level));
  const applied = ordered.map((discount): AppliedDiscount => {
    const covered = discounted.filter((line) => discount.components === null || discount.components.includes(line.code));
    const shares = sharesOf(discount, covered.map((line) => line.amount_after), currency);
    covered.forEach((line, i) => {
      line.discounts.push({ coupon_id: discount.coupon_id, amount: shares[i] });
      line.discount_amount = line.discount_amount.plus(shares[i]);
      line.amount_after = line.amount_after.minus(shares[i]);
    });
    return { coupon_id: discount.coupon_id, level: discount.level, amount: shares.reduce((sum, share) => sum.plus(share), new Big(0)) };
  });
  return { lines: discounted, applied };
}

const ZERO = new Big(0);

function sharesOf(discount: Discount, remaining: readonly Big[], currency: string): Big[] {
  if (remaining.length === 0) return [];
  if (discount.percent_off !== null) {
    const percent = discount.percent_off;
    return remaining.map((amount) => roundToCurrency(amount.times(percent).div(100), currency));
  }
  const weights = remaining.map((amount) => (amount.gt(0) ? amount : ZERO));
  const left = weights.reduce((sum, amount) => sum.plus(amount), ZERO);
  const wanted = roundToCurrency(discount.amount_off ?? ZERO, currency);
  return allocate(wanted.gt(left) ? left : wanted, weights, currency);
}
