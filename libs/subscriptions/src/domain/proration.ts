import Big from 'big.js';
import { roundToCurrency } from '@tally/kernel';
import type { Period } from './billing-cycle';

const SECOND_MS = 1_000;

/** Whole seconds from `from` to `to`: prorations count time by the second, as Stripe's do. */
const secondsBetween = (from: string, to: string): number => Math.floor((Date.parse(to) - Date.parse(from)) / SECOND_MS);

/**
 * The share of `amount` (the price of the whole period) for the time from `from` to the period's
 * end, by the second, rounded half-even to the currency's minor unit: what a change at `from`
 * credits for the old price and charges for the new one.
 */
export function prorateRest(amount: Big, period: Period, from: string, currency: string): Big {
  const whole = secondsBetween(period.start, period.end);
  const rest = secondsBetween(from, period.end);
  if (whole <= 0 || rest < 0 || rest > whole) throw new RangeError(`${from} is not within the period ${period.start} to ${period.end}`);
  return roundToCurrency(amount.times(rest).div(whole), currency);
}

/** A change at `from`: the unused time of the old price credited, the rest of the period charged at the new one. */
export function prorateChange(oldAmount: Big, newAmount: Big, period: Period, from: string, currency: string): { credit: Big; charge: Big } {
  return { credit: prorateRest(oldAmount, period, from, currency).times(-1), charge: prorateRest(newAmount, period, from, currency) };
}

export { Big };
