import Big from 'big.js';
import fc from 'fast-check';
import { minorUnits } from '@tally/kernel';
import type { ComponentInForce, Pricing, Tier } from '@tally/catalog/published';
import { calculateTax, type TaxBehavior, type TaxCode, type TaxCustomer } from '@tally/tax/published';
import { applyDiscounts, DISCOUNT_LEVELS, type Discount } from './discounts';
import { totalInvoice } from './invoice-calculator';
import { priceLines } from './invoice-lines';

const PERIOD = { start: '2026-05-01T00:00:00.000Z', end: '2026-06-01T00:00:00.000Z' };

const amount = fc.integer({ min: 0, max: 5_000_000 }).chain((units) => fc.integer({ min: 0, max: 8 }).map((digits) => new Big(units).div(new Big(10).pow(digits)).toFixed()));
const tiers: fc.Arbitrary<Tier[]> = fc
  .uniqueArray(fc.integer({ min: 1, max: 1000 }), { minLength: 0, maxLength: 3 })
  .chain((bounds) =>
    fc.tuple(...[...bounds.sort((a, b) => a - b), null].map((up_to) => fc.record({ up_to: fc.constant(up_to), unit_amount: amount, flat_amount: fc.option(amount, { nil: null }) }))),
  );

/** Every pricing model; each component has its own meter, named after its code. */
const pricing = (meter: string): fc.Arbitrary<Pricing> =>
  fc.oneof(
    amount.map((a): Pricing => ({ model: 'flat', amount: a })),
    fc.record({ unit_amount: amount, included_units: fc.integer({ min: 0, max: 20 }) }).map((p): Pricing => ({ model: 'per_unit', ...p, meter })),
    tiers.map((t): Pricing => ({ model: 'tiered', tiers: t, meter })),
    tiers.map((t): Pricing => ({ model: 'volume', tiers: t, meter })),
    fc.record({ package_size: fc.integer({ min: 1, max: 50 }), package_price: amount, rounding: fc.constantFrom('up' as const, 'down' as const) }).map((p): Pricing => ({ model: 'package', ...p, meter })),
    tiers.map((t): Pricing => ({ model: 'usage', meter, aggregation: 'sum', tiers: t, tiers_mode: 'graduated', late_events: 'next_period', usage_cycle: 'period', unique_property: null })),
  );

const components: fc.Arbitrary<ComponentInForce[]> = fc.integer({ min: 1, max: 5 }).chain((n) =>
  fc.tuple(
    ...Array.from({ length: n }, (_, i) =>
      fc.record({ pricing: pricing(`c${i}`), tax_code: fc.constantFrom<TaxCode | null>(null, 'standard', 'reduced', 'exempt') }).map(
        ({ pricing: p, tax_code }): ComponentInForce => ({ code: `c${i}`, pricing: p, tax_code, price_version: i + 1, effective_at: PERIOD.start }),
      ),
    ),
  ),
);

/** Amounts off in whole units, which every currency can pay (minor units are tested in discounts.spec). */
const discount: fc.Arbitrary<Discount> = fc.record({
  coupon_id: fc.constantFrom('a', 'b', 'c'),
  level: fc.constantFrom(...DISCOUNT_LEVELS),
  percent_off: fc.option(fc.integer({ min: 1, max: 10_000 }).map((bp) => new Big(bp).div(100)), { nil: null }),
  amount_off: fc.integer({ min: 1, max: 100_000 }).map((units) => new Big(units)),
  components: fc.option(fc.subarray(['c0', 'c1', 'c2', 'c3', 'c4'], { minLength: 1 }), { nil: null }),
}).map((d) => (d.percent_off === null ? d : { ...d, amount_off: null }));

const customer: fc.Arbitrary<TaxCustomer> = fc.constantFrom<TaxCustomer>(
  { location: { country: 'DE', region: null }, tax_ids: [], tax_id_invalid: false },
  { location: { country: 'FR', region: null }, tax_ids: [{ type: 'eu_vat', value: 'FR40303265045', status: 'verified' }], tax_id_invalid: false },
  { location: { country: 'CA', region: 'BC' }, tax_ids: [], tax_id_invalid: false },
  { location: { country: 'CA', region: 'QC' }, tax_ids: [], tax_id_invalid: false },
  { location: { country: 'US', region: null }, tax_ids: [], tax_id_invalid: false },
  { location: null, tax_ids: [], tax_id_invalid: false },
);

const invoiceCase = fc.record({
  components,
  quantities: fc.array(fc.integer({ min: 0, max: 2000 }), { minLength: 5, maxLength: 5 }),
  usage: fc.array(fc.integer({ min: 0, max: 10_000_000 }).map((n) => new Big(n).div(1000)), { minLength: 5, maxLength: 5 }),
  discounts: fc.uniqueArray(discount, { maxLength: 3, selector: (d) => d.coupon_id }),
  behavior: fc.constantFrom<TaxBehavior>('exclusive', 'inclusive'),
  customer,
  currency: fc.constantFrom('EUR', 'JPY', 'KWD'),
});

type InvoiceCase = typeof invoiceCase extends fc.Arbitrary<infer T> ? T : never;

function calculate({ components: parts, quantities, usage, discounts, behavior, customer: buyer, currency }: InvoiceCase) {
  const given = {
    quantities: new Map(parts.filter((p) => p.pricing.model !== 'usage' && p.pricing.model !== 'flat').map((p, i) => [p.code, quantities[i]])),
    usage: new Map(parts.filter((p) => p.pricing.model === 'usage').map((p, i) => [p.code, usage[i]])),
  };
  const lines = priceLines(parts, given, currency, PERIOD);
  const discounted = applyDiscounts(lines, discounts, currency);
  const taxOf = (amounts: Big[]) =>
    calculateTax({ currency, date: PERIOD.start, behavior, seller: { country: 'DE', region: null }, customer: buyer, lines: lines.map((l, i) => ({ key: l.code, amount: amounts[i], tax_code: l.tax_code })) });
  const tax = taxOf(discounted.lines.map((l) => l.amount_after));
  const taxBeforeDiscounts = behavior === 'inclusive' ? taxOf(lines.map((l) => l.amount)) : null;
  return { lines, discounted, totals: totalInvoice({ behavior, lines, discounted, tax, taxBeforeDiscounts }), currency };
}

const digitsOf = (b: Big): number => (b.toFixed().split('.')[1] ?? '').length;

describe('invoice totals (properties)', () => {
  it('total = subtotal − discount + tax, and the lines sum to each of them', () => {
    fc.assert(
      fc.property(invoiceCase, (c) => {
        const { totals } = calculate(c);
        const sum = (pick: (l: (typeof totals.lines)[number]) => Big) => totals.lines.reduce((s, l) => s.plus(pick(l)), new Big(0));
        expect(totals.total.eq(totals.subtotal.minus(totals.discount).plus(totals.tax))).toBe(true);
        expect(sum((l) => l.total).eq(totals.total)).toBe(true);
        expect(sum((l) => l.amount_excluding_tax).eq(totals.subtotal)).toBe(true);
        expect(sum((l) => l.discount_amount).eq(totals.discount)).toBe(true);
        expect(totals.tax_breakdown.reduce((s, b) => s.plus(b.tax_amount), new Big(0)).eq(totals.tax)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('never takes a line below zero, and every amount is in the currency’s minor units', () => {
    fc.assert(
      fc.property(invoiceCase, (c) => {
        const { totals, discounted, currency } = calculate(c);
        for (const l of totals.lines) {
          expect(l.discount_amount.gte(0) && l.discount_amount.lte(l.amount_excluding_tax)).toBe(true);
          expect(l.total.gte(0)).toBe(true);
          for (const value of [l.amount, l.amount_excluding_tax, l.discount_amount, l.tax_amount, l.total]) expect(digitsOf(value)).toBeLessThanOrEqual(minorUnits(currency));
        }
        for (const l of discounted.lines) expect(l.amount_after.gte(0)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('spreads each discount exactly: its line shares sum to what it took, and an amount off never takes more than offered', () => {
    fc.assert(
      fc.property(invoiceCase, (c) => {
        const { discounted } = calculate(c);
        for (const applied of discounted.applied) {
          const shares = discounted.lines.flatMap((l) => l.discounts.filter((d) => d.coupon_id === applied.coupon_id).map((d) => d.amount));
          expect(shares.reduce((s, a) => s.plus(a), new Big(0)).eq(applied.amount)).toBe(true);
        }
        const ordered = [...c.discounts].sort((a, b) => DISCOUNT_LEVELS.indexOf(a.level) - DISCOUNT_LEVELS.indexOf(b.level));
        ordered.forEach((d, i) => {
          if (d.amount_off) expect(discounted.applied[i].amount.lte(d.amount_off)).toBe(true);
        });
      }),
      { numRuns: 300 },
    );
  });
});

