import Big from 'big.js';
import fc from 'fast-check';
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

  it('spreads an amount off over the lines above zero only: a proration’s credit takes no share (the 10 → 100 upgrade with 5.00 off)', () => {
    // The renewal after an upgrade from 10.00 to 100.00 halfway: the new period, the credit for the old price, the charge for the new one.
    const result = applyDiscounts(lines(['base', '100.00'], ['base', '-5.00'], ['base', '50.00']), [amountOff('five', '5.00')], 'USD');
    expect(shares(result)).toEqual([['base', '3.33', '96.67'], ['base', '0.00', '-5.00'], ['base', '1.67', '48.33']]);
    expect(result.applied[0].amount.toFixed(2)).toBe('5.00');
  });

  it('takes nothing off an invoice of credits alone (a cancellation’s), and caps an amount off at the lines above zero', () => {
    expect(shares(applyDiscounts(lines(['base', '-23.42']), [amountOff('five', '5.00')], 'EUR'))).toEqual([['base', '0.00', '-23.42']]);
    const capped = applyDiscounts(lines(['base', '3.00'], ['base', '-10.00']), [amountOff('big', '50.00')], 'EUR');
    expect(shares(capped)).toEqual([['base', '3.00', '0.00'], ['base', '0.00', '-10.00']]);
    expect(capped.applied[0].amount.toFixed(2)).toBe('3.00');
  });

  it('takes a percentage off a credit line too: the time it credits was paid at that discount', () => {
    const result = applyDiscounts(lines(['base', '20.00'], ['base', '-5.00']), [percent('half', '50')], 'USD');
    expect(shares(result)).toEqual([['base', '10.00', '10.00'], ['base', '-2.50', '-2.50']]);
  });

  it('allocates any amount off over lines of either sign: credit lines take no share, the others never go below zero (property)', () => {
    const cents = fc.integer({ min: -1_000_000, max: 1_000_000 }).map((units) => new Big(units).div(100));
    fc.assert(
      fc.property(fc.array(cents, { minLength: 1, maxLength: 6 }), fc.integer({ min: 1, max: 2_000_000 }), (amounts, off) => {
        const given = amounts.map((amount, i) => ({ code: `c${i}`, amount }));
        const result = applyDiscounts(given, [amountOff('off', new Big(off).div(100).toFixed(2))], 'EUR');
        const positive = amounts.filter((amount) => amount.gt(0)).reduce((sum, amount) => sum.plus(amount), new Big(0));
        expect(result.applied[0].amount.eq(positive.lt(new Big(off).div(100)) ? positive : new Big(off).div(100))).toBe(true);
        result.lines.forEach((line, i) => {
          if (amounts[i].lte(0)) expect(line.discount_amount.eq(0)).toBe(true);
          else expect(line.amount_after.gte(0) && line.discount_amount.gte(0)).toBe(true);
        });
      }),
      { numRuns: 300 },
    );
  });

  it('works in currencies without minor units', () => {
    const result = applyDiscounts(lines(['a', '1000'], ['b', '2000']), [amountOff('yen', '1000')], 'JPY');
    expect(result.lines.map((line) => line.discount_amount.toFixed(0))).toEqual(['333', '667']);
  });
});
