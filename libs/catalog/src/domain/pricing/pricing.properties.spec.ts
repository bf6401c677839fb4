import Big from 'big.js';
import fc from 'fast-check';
import { minorUnits, roundToCurrency } from '@tally/kernel';
import { parsePricing } from './parse-pricing';
import { compilePricing, priceComponent } from './price-component';
import type { Pricing, Tier } from './pricing';

/** A wire amount: up to 8 fractional digits, up to a million. */
const amountArb = fc
  .tuple(fc.bigInt({ min: 0n, max: 100_000_000_000_000n }), fc.integer({ min: 0, max: 8 }))
  .map(([digits, scale]) => new Big(`${digits}e-${scale}`).toFixed());

/** A quantity: whole, or with up to 4 fractional digits as usage meters report. */
const quantityArb = fc
  .tuple(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 0, max: 4 }))
  .map(([digits, scale]) => new Big(`${digits}e-${scale}`));

const currencyArb = fc.constantFrom('USD', 'EUR', 'JPY', 'KWD', 'CLF');

const tiersArb: fc.Arbitrary<Tier[]> = fc
  .uniqueArray(fc.integer({ min: 1, max: 1_000_000 }), { maxLength: 5 })
  .chain((bounds) => {
    const upTos = [...bounds.sort((a, b) => a - b), null];
    return fc.tuple(...upTos.map((up_to) => fc.record({ up_to: fc.constant(up_to), unit_amount: amountArb, flat_amount: fc.option(amountArb) })));
  });

const pricingArb: fc.Arbitrary<Pricing> = fc.oneof(
  fc.record({ model: fc.constant('flat' as const), amount: amountArb }),
  fc.record({ model: fc.constant('per_unit' as const), unit_amount: amountArb, included_units: fc.nat(1000), meter: fc.constant('seats') }),
  fc.record({ model: fc.constant('tiered' as const), tiers: tiersArb, meter: fc.constant('seats') }),
  fc.record({ model: fc.constant('volume' as const), tiers: tiersArb, meter: fc.constant('seats') }),
  fc.record({
    model: fc.constant('package' as const),
    package_size: fc.integer({ min: 1, max: 1000 }),
    package_price: amountArb,
    rounding: fc.constantFrom('up' as const, 'down' as const),
    meter: fc.constant('seats'),
  }),
  fc.record({
    model: fc.constant('usage' as const),
    meter: fc.constant('api_calls'),
    aggregation: fc.constantFrom('sum' as const, 'max' as const, 'last_during_period' as const, 'unique_count' as const),
    tiers: tiersArb,
    late_events: fc.constantFrom('next_period' as const, 'rebill' as const),
  }),
);

/** Two quantities, smaller first. */
const orderedPair = (quantity: fc.Arbitrary<Big>) => fc.tuple(quantity, quantity).map(([a, b]): [Big, Big] => (a.lte(b) ? [a, b] : [b, a]));

const amountOf = (pricing: Pricing, quantity: Big, currency = 'USD'): Big => priceComponent(compilePricing(pricing), quantity, currency).amount;

describe('pricing properties', () => {
  it('parsePricing accepts every well-formed pricing as it is', () => {
    fc.assert(
      fc.property(pricingArb, (pricing) => {
        expect(parsePricing(pricing, { field: 'pricing', defaultMeter: 'other' })).toEqual(pricing);
      }),
    );
  });

  it('per_unit, graduated and package prices never fall as the quantity rises', () => {
    const risingArb = pricingArb.filter((p) => p.model === 'per_unit' || p.model === 'tiered' || p.model === 'usage' || p.model === 'package');
    fc.assert(
      fc.property(risingArb, orderedPair(quantityArb), currencyArb, (pricing, [less, more], currency) => {
        expect(amountOf(pricing, less, currency).lte(amountOf(pricing, more, currency))).toBe(true);
      }),
    );
  });

  it('a package price rounded up is never below the same one rounded down', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }), amountArb, quantityArb, (package_size, package_price, quantity) => {
        const up = amountOf({ model: 'package', package_size, package_price, rounding: 'up', meter: 'seats' }, quantity);
        const down = amountOf({ model: 'package', package_size, package_price, rounding: 'down', meter: 'seats' }, quantity);
        expect(up.gte(down)).toBe(true);
      }),
    );
  });

  it('volume can fall at a band edge when the next band is cheaper (as documented)', () => {
    // Whole cents in USD, so rounding cannot hide the drop: (edge + 1) × cheaper < edge × dearer.
    const edgeArb = fc.record({ edge: fc.integer({ min: 2, max: 100_000 }), cheaperCents: fc.nat(10_000), extraCents: fc.integer({ min: 1, max: 10_000 }) });
    fc.assert(
      fc.property(edgeArb, ({ edge, cheaperCents, extraCents }) => {
        const cheaper = new Big(cheaperCents).div(100);
        const dearer = new Big(2 * cheaperCents + extraCents).div(100);
        const pricing: Pricing = {
          model: 'volume',
          meter: 'seats',
          tiers: [
            { up_to: edge, unit_amount: dearer.toFixed(), flat_amount: null },
            { up_to: null, unit_amount: cheaper.toFixed(), flat_amount: null },
          ],
        };
        expect(amountOf(pricing, new Big(edge + 1)).lt(amountOf(pricing, new Big(edge)))).toBe(true);
      }),
    );
  });

  it('within one band, volume never falls', () => {
    // Two quantities in one band (lower, upper], to 4 decimal places; the top band is taken a million wide.
    const inOneBandArb = tiersArb.chain((tiers) =>
      fc.nat(tiers.length - 1).chain((band) => {
        const lower = band === 0 ? 0 : (tiers[band - 1].up_to as number);
        const upper = tiers[band].up_to ?? lower + 1_000_000;
        const quantity = fc.integer({ min: 1, max: (upper - lower) * 10_000 }).map((offset) => new Big(lower).plus(new Big(`${offset}e-4`)));
        return fc.tuple(fc.constant(tiers), orderedPair(quantity));
      }),
    );
    fc.assert(
      fc.property(inOneBandArb, currencyArb, ([tiers, [less, more]], currency) => {
        const pricing: Pricing = { model: 'volume', tiers, meter: 'seats' };
        expect(amountOf(pricing, less, currency).lte(amountOf(pricing, more, currency))).toBe(true);
      }),
    );
  });

  it('every amount has at most the minor-unit digits of its currency', () => {
    fc.assert(
      fc.property(pricingArb, quantityArb, currencyArb, (pricing, quantity, currency) => {
        const fraction = amountOf(pricing, quantity, currency).toFixed().split('.')[1] ?? '';
        expect(fraction.length).toBeLessThanOrEqual(minorUnits(currency));
      }),
    );
  });

  it('a graduated amount is the exact sum of its bands, rounded once', () => {
    const graduatedArb = fc.record({ tiers: tiersArb, usage: fc.boolean() }).map(
      ({ tiers, usage }): Pricing =>
        usage
          ? { model: 'usage', meter: 'api_calls', aggregation: 'sum', tiers, late_events: 'next_period' }
          : { model: 'tiered', tiers, meter: 'seats' },
    );
    fc.assert(
      fc.property(graduatedArb, quantityArb, currencyArb, (pricing, quantity, currency) => {
        const line = priceComponent(compilePricing(pricing), quantity, currency);
        const exact = line.tiers.reduce((sum, t) => sum.plus(t.amount), new Big(0));
        expect(line.amount.eq(roundToCurrency(exact, currency))).toBe(true);
        expect(line.tiers.reduce((sum, t) => sum.plus(t.quantity), new Big(0)).eq(quantity)).toBe(true);
        for (const t of line.tiers) expect(t.amount.eq(t.quantity.times(t.unit_amount).plus(t.flat_amount))).toBe(true);
      }),
    );
  });

  it('at quantity 0, tiered, volume and usage cost the first band’s flat fee; per_unit and package nothing', () => {
    fc.assert(
      fc.property(pricingArb, currencyArb, (pricing, currency) => {
        const firstFlatFee = 'tiers' in pricing ? new Big(pricing.tiers[0].flat_amount ?? 0) : new Big(0);
        const expected = pricing.model === 'flat' ? new Big(pricing.amount) : firstFlatFee;
        expect(amountOf(pricing, new Big(0), currency).eq(roundToCurrency(expected, currency))).toBe(true);
      }),
    );
  });

  it('flat ignores the quantity', () => {
    fc.assert(
      fc.property(amountArb, quantityArb, quantityArb, currencyArb, (amount, one, other, currency) => {
        const pricing: Pricing = { model: 'flat', amount };
        expect(amountOf(pricing, one, currency).eq(amountOf(pricing, other, currency))).toBe(true);
        expect(amountOf(pricing, one, currency).eq(roundToCurrency(new Big(amount), currency))).toBe(true);
      }),
    );
  });
});
