import { formatAmount, parseAmount } from '@tally/kernel';
import type { Period } from './billing-cycle';
import { prorateRest } from './proration';
import type { ProrationItem } from './subscription.events';

/** What a licensed component costs for a whole period at some terms (plan and quantities), as the handler priced it. */
export interface LicensedCharge {
  code: string;
  description: string;
  /** Decimal string, rounded to the currency. */
  amount: string;
  price_version: number;
  /** The component's tax code: a proration is taxed as the component it prorates. */
  tax_code: string;
}

/**
 * The prorations of a change at `at` within `period`, as Stripe itemises them: the unused time of
 * each charge that changes is credited, the rest of the period at its new price is charged. A
 * charge the change leaves as it was (same component, price version and amount) is not itemised.
 */
export function prorationItems(before: readonly LicensedCharge[], after: readonly LicensedCharge[], period: Period, at: string, currency: string): ProrationItem[] {
  const same = (a: LicensedCharge, b: LicensedCharge) => a.code === b.code && a.price_version === b.price_version && parseAmount(a.amount).eq(parseAmount(b.amount));
  const changedBefore = before.filter((charge) => !after.some((other) => same(charge, other)));
  const changedAfter = after.filter((charge) => !before.some((other) => same(charge, other)));
  return [
    ...changedBefore.map((charge) => item(charge, `Unused time on ${charge.description}`, formatAmount(prorateRest(parseAmount(charge.amount), period, at, currency).times(-1), currency), period, at)),
    ...changedAfter.map((charge) => item(charge, `Remaining time on ${charge.description}`, formatAmount(prorateRest(parseAmount(charge.amount), period, at, currency), currency), period, at)),
  ].filter((proration) => !parseAmount(proration.amount).eq(0));
}

/** The credit for the unused time of every charge, from `at` to the period's end: a cancellation's. */
export function unusedTimeCredits(charges: readonly LicensedCharge[], period: Period, at: string, currency: string): ProrationItem[] {
  return prorationItems(charges, [], period, at, currency);
}

/** The share of every charge for the time from `at` to the period's end: what a first, shorter period (a stub) is charged. */
export function remainingTimeCharges(charges: readonly LicensedCharge[], period: Period, at: string, currency: string): ProrationItem[] {
  return prorationItems([], charges, period, at, currency);
}

function item(charge: LicensedCharge, description: string, amount: string, period: Period, at: string): ProrationItem {
  return { code: charge.code, description, amount, period_start: at, period_end: period.end, price_version: charge.price_version, tax_code: charge.tax_code };
}
