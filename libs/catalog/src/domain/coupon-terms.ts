import { DomainError, isCurrency, isWholeMinorUnits, parseAmount, type FieldError } from '@tally/kernel';
import type { CouponTerms } from './coupon.events';

/**
 * Above 0 and at most 100, with at most 2 decimals (`25`, `12.5`, `100.00`): 1–99 with any
 * decimals, 0 with some that are not all zero, or 100 with none that are not zero.
 */
export const PERCENT_OFF_PATTERN = /^((0{0,2}[1-9]|0?[1-9][0-9])(\.[0-9]{1,2})?|0{1,3}\.([1-9][0-9]?|0[1-9])|100(\.0{1,2})?)$/;

/** Every rule of a coupon's terms, checked together so the answer names every bad field. */
export function checkCouponTerms(terms: CouponTerms, at: string): void {
  const errors: FieldError[] = [];
  const error = (field: string, code: string, message: string) => errors.push({ field, code, message });

  if ((terms.percent_off === null) === (terms.amount_off === null)) {
    error('percent_off', 'coupon.percent_or_amount', 'set exactly one of percent_off and amount_off');
  }
  if (terms.percent_off !== null && !PERCENT_OFF_PATTERN.test(terms.percent_off)) {
    error('percent_off', 'coupon.invalid_percent', 'a decimal string above 0 and at most 100, with at most 2 decimals');
  }
  if (terms.amount_off !== null) {
    const currency = terms.currency !== null && isCurrency(terms.currency) ? terms.currency : undefined;
    if (!currency) error('currency', 'money.unknown_currency', 'amount_off needs an uppercase ISO 4217 currency');
    if (!isPositiveAmount(terms.amount_off, currency)) {
      error('amount_off', 'coupon.invalid_amount', `a decimal string above 0 in major units of ${currency ?? 'the currency'} ("5.00"), in whole minor units`);
    }
  } else if (terms.currency !== null) {
    error('currency', 'coupon.currency_without_amount', 'only amount_off coupons have a currency');
  }
  if ((terms.duration === 'repeating') !== (terms.duration_in_periods !== null)) {
    error('duration_in_periods', 'coupon.invalid_duration', 'set duration_in_periods exactly when duration is repeating');
  }
  if (terms.redeem_by !== null && terms.redeem_by <= at) error('redeem_by', 'coupon.redeem_by_in_past', 'a moment in the future');
  if (terms.applies_to && new Set(terms.applies_to.components).size !== terms.applies_to.components.length) {
    error('applies_to.components', 'coupon.duplicate_component', 'each component code once');
  }
  if (errors.length > 0) throw DomainError.invalid('coupon.invalid', 'The coupon terms are not valid', errors);
}

/** Above zero and payable: whole minor units of the currency (no 0.5 JPY), as flat fees and package prices. */
function isPositiveAmount(value: string, currency: string | undefined): boolean {
  try {
    const amount = parseAmount(value);
    return amount.gt(0) && (currency === undefined || isWholeMinorUnits(amount, currency));
  } catch {
    return false;
  }
}
