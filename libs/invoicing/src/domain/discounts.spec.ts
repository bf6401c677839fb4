import Big from 'big.js';
import { applyDiscounts, type Discount } from './discounts';

const lines = (...amounts: [string, string][]) => amounts.map(([code, amount]) => ({ code, amount: new Big(amount) }));
const percent = (coupon_id: string, p: string, extra: Partial<Discount> = {}): Discount => ({ coupon_id, level: 'subscription', percent_off: new Big(p), amount_off: null, components: null, ...extra });
const amountOff = (coupon_id: string, a: string, extra: Partial<Discount> = {}): Discount => ({ coupon_id, level: 'subscription', percent_off: null, amount_off: new Big(a), components: null, ...extra });
const shares = (result: ReturnType<typeof applyDiscounts>) => result.lines.map((line) => [line.code, line.discount_amount.toFixed(2), line.amount_after.toFixed(2)]);

describe('applyDiscounts', () => {
  it('takes a percentage from each line, rounded per line (half-even)', () => {
    // 10 % of 10.05 is 1.005 → 1.00 (half-even); 10 % of 10.15 is 1.015 → 1.02.
    const result = applyDiscounts(lines(['a', '10.05'], ['b', '10.15']), [percent('c1', '10')], 'EUR');
    expect(shares(result)).toEqual([['a', '1.00', '9.05'], ['b', '1.02', '9.13']]);
    expect(result.applied.map((d) => d.amount.toFixed(2))).toEqual(['2.02']);
  });

  it('spreads an amount off in proportion to the lines, the shares summing exactly to it', () => {
    // 10.00 over 3 equal lines: 3.34, 3.33, 3.33 (the earliest line takes the leftover cent).
    const result = applyDiscounts(lines(['a', '20.00'], ['b', '20.00'], ['c', '20.00']), [amountOff('c1', '10.00')], 'EUR');
    expect(shares(result)).toEqual([['a', '3.34', '16.66'], ['b', '3.33', '16.67'], ['c', '3.33', '16.67']]);
    expect(result.applied[0].amount.toFixed(2)).toBe('10.00');
  });

  it('never takes a line below zero: an amount off larger than the lines is capped', () => {
    const result = applyDiscounts(lines(['a', '3.00'], ['b', '1.00']), [amountOff('big', '50.00')], 'EUR');
    expect(shares(result)).toEqual([['a', '3.00', '0.00'], ['b', '1.00', '0.00']]);
    expect(result.applied[0].amount.toFixed(2)).toBe('4.00');
  });

  it('applies subscription-level, then plan-level, then promotional discounts, each to what is left', () => {
    const promo = amountOff('promo', '5.00', { level: 'promotional' });
    const planLevel = percent('plan', '50', { level: 'plan' });
    const subscription = percent('sub', '10');
    const result = applyDiscounts(lines(['a', '100.00']), [promo, planLevel, subscription], 'EUR');
    // 100 − 10 % = 90; − 50 % = 45; − 5.00 = 40.
    expect(result.applied.map((d) => [d.coupon_id, d.amount.toFixed(2)])).toEqual([['sub', '10.00'], ['plan', '45.00'], ['promo', '5.00']]);
    expect(shares(result)).toEqual([['a', '60.00', '40.00']]);
  });

  it('discounts only the components a coupon is restricted to', () => {
    const result = applyDiscounts(lines(['base', '49.00'], ['seats', '15.00']), [amountOff('seats-only', '20.00', { components: ['seats'] })], 'EUR');
    expect(shares(result)).toEqual([['base', '0.00', '49.00'], ['seats', '15.00', '0.00']]);
  });

  it('works in currencies without minor units', () => {
    const result = applyDiscounts(lines(['a', '1000'], ['b', '2000']), [amountOff('yen', '1000')], 'JPY');
    expect(result.lines.map((line) => line.discount_amount.toFixed(0))).toEqual(['333', '667']);
  });
});
