import Big from 'big.js';
import type { Discount } from './discounts';
import type { DiscountTerms } from './invoice.events';

/** A coupon's terms as an invoice keeps them (decimal strings), ready to apply. */
export function discountOf(terms: DiscountTerms): Discount {
  return {
    coupon_id: terms.coupon_id,
    level: terms.level,
    percent_off: terms.percent_off === null ? null : new Big(terms.percent_off),
    amount_off: terms.amount_off === null ? null : new Big(terms.amount_off),
    components: terms.components,
  };
}
