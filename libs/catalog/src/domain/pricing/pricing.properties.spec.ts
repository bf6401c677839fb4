import Big from 'big.js';
import fc from 'fast-check';
import { minorUnits, roundToCurrency } from '@tally/kernel';
import { parsePricing, UNIQUE_PROPERTY } from './parse-pricing';
import { compilePricing, priceComponent } from './price-component';
import type { Pricing, Tier } from './pricing';

/** A decimal string of `digits` (a whole number) scaled down by up to `maxScale` places: as a client writes it, trailing zeros and all. */
const decimalArb = (maxDigits: bigint, maxScale: number) =>
  fc.tuple(fc.bigInt({ min: 0n, max: maxDigits }), fc.integer({ min: 0, max: maxScale })).map(([digits, scale]) => {
    const text = digits.toString().padStart(scale + 1, '0');
    return scale === 0 ? text : `${text.slice(0, -scale)}.${text.slice(-scale)}`;
  });

/** A price per unit: up to 12 fractional digits, as Stripe's unit_amount_decimal. */
const unitAmountArb = decimalArb(100_000_000_000_000n, 12);

/** An amount charged as it is (flat fee, package price): whole minor units of the currency. */
const chargedAmountArb = (currency: string) => decimalArb(100_000_000_000n, minorUnits(currency));

/** A quantity: whole, or with up to 4 fractional digits as usage meters report. */
const quantityArb = fc
  .tuple(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 0, max: 4 }))
  .map(([digits, scale]) => new Big(`${digits}e-${scale}`));

const CURRENCIES = ['USD', 'EUR', 'JPY', 'KWD', 'CLF'];
const currencyArb = fc.constantFrom(...CURRENCIES);

/** Bands in ascending order of their bounds, the last unbounded. */
const bandsArb = (currency: string, boundArb: fc.Arbitrary<number>): fc.Arbitrary<Tier[]> =>
  fc.uniqueArray(boundArb, { maxLength: 5 }).chain((bounds) => {
    const upTos = [...bounds.sort((a, b) => a - b), null];
    return fc.tuple(...upTos.map((up_to) => fc.record({ up_to: fc.constant(up_to), unit_amount: unitAmountArb, flat_amount: fc.option(chargedAmountArb(currency)) })));
  });

/** Bands with whole bounds, as tiered and volume take them. */
const tiersArb = (currency: string): fc.Arbitrary<Tier[]> => bandsArb(currency, fc.integer({ min: 1, max: 1_000_000 }));

/** Bands with bounds of up to 4 decimals, as usage takes them (whole ones too). */
const usageTiersArb = (currency: string): fc.Arbitrary<Tier[]> =>
  bandsArb(
    currency,
    fc.tuple(fc.integer({ min: 1, max: 10_000_000 }), fc.integer({ min: 0, max: 4 })).map(([digits, scale]) => Number(`${digits}e-${scale}`)),
  );

/** unique_count may name the property it counts (without one it counts distinct events); the other aggregations none. */
const aggregationArb = fc.oneof(
  fc.record({ aggregation: fc.constantFrom('sum' as const, 'max' as const, 'last_during_period' as const, 'count' as const, 'weighted_sum' as const), unique_property: fc.constant(null) }),
  fc.record({ aggregation: fc.constant('unique_count' as const), unique_property: fc.option(fc.stringMatching(UNIQUE_PROPERTY), { nil: null }) }),
);

const usageArb = (currency: string) =>
  fc
    .record({
      tiers: usageTiersArb(currency),
      tiers_mode: fc.constantFrom('graduated' as const, 'volume' as const),
      late_events: fc.constantFrom('next_period' as const, 'rebill' as const),
      usage_cycle: fc.constantFrom('period' as const, 'never' as const),
      reading: aggregationArb,
    })
    .map(({ tiers, tiers_mode, late_events, usage_cycle, reading }): Pricing => ({ model: 'usage', meter: 'api_calls', ...reading, tiers, tiers_mode, late_events, usage_cycle }));

const pricingArb = (currency: string): fc.Arbitrary<Pricing> =>
  fc.oneof(
    fc.record({ model: fc.constant('flat' as const), amount: chargedAmountArb(currency) }),
    fc.record({ model: fc.constant('per_unit' as const), unit_amount: unitAmountArb, included_units: fc.nat(1000), meter: fc.constant('seats') }),
    fc.record({ model: fc.constant('tiered' as const), tiers: tiersArb(currency), meter: fc.constant('seats') }),
    fc.record({ model: fc.constant('volume' as const), tiers: tiersArb(currency), meter: fc.constant('seats') }),
    fc.record({
      model: fc.constant('package' as const),
      package_size: fc.integer({ min: 1, max: 1000 }),
      package_price: chargedAmountArb(currency),
      rounding: fc.constantFrom('up' as const, 'down' as const),
      meter: fc.constant('seats'),
    }),
    usageArb(currency),
  );

/** A currency and a well-formed pricing in it. */
const pricedArb = currencyArb.chain((currency) => fc.record({ currency: fc.constant(currency), pricing: pricingArb(currency) }));

/** Two quantities, smaller first. */
const orderedPair = (quantity: fc.Arbitrary<Big>) => fc.tuple(quantity, quantity).map(([a, b]): [Big, Big] => (a.lte(b) ? [a, b] : [b, a]));

const amountOf = (pricing: Pricing, quantity: Big, currency = 'USD'): Big => priceComponent(compilePricing(pricing), quantity, currency).amount;

describe('pricing properties', () => {
  it('parsePricing accepts every well-formed pricing as it is', () => {
    fc.assert(
      fc.property(pricedArb, ({ currency, pricing }) => {
        expect(parsePricing(pricing, { field: 'pricing', defaultMeter: 'other', currency })).toEqual(pricing);
      }),
    );
  });

  it('per_unit, graduated and package prices never fall as the quantity rises', () => {
    const graduated = (p: Pricing) => p.model === 'tiered' || (p.model === 'usage' && p.tiers_mode === 'graduated');
    const risingArb = pricedArb.filter(({ pricing: p }) => p.model === 'per_unit' || graduated(p) || p.model === 'package');
    fc.assert(
      fc.property(risingArb, orderedPair(quantityArb), ({ currency, pricing }, [less, more]) => {
        expect(amountOf(pricing, less, currency).lte(amountOf(pricing, more, currency))).toBe(true);
      }),
    );
  });

  it('a package price rounded up is never below the same one rounded down', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1000 }), chargedAmountArb('USD'), quantityArb, (package_size, package_price, quantity) => {
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
    const inOneBandArb = currencyArb.chain((currency) =>
      tiersArb(currency).chain((tiers) =>
        fc.nat(tiers.length - 1).chain((band) => {
          const lower = band === 0 ? 0 : (tiers[band - 1].up_to as number);
          const upper = tiers[band].up_to ?? lower + 1_000_000;
          const quantity = fc.integer({ min: 1, max: (upper - lower) * 10_000 }).map((offset) => new Big(lower).plus(new Big(`${offset}e-4`)));
          return fc.tuple(fc.constant(currency), fc.constant(tiers), orderedPair(quantity));
        }),
      ),
    );
    fc.assert(
      fc.property(inOneBandArb, ([currency, tiers, [less, more]]) => {
        const pricing: Pricing = { model: 'volume', tiers, meter: 'seats' };
        expect(amountOf(pricing, less, currency).lte(amountOf(pricing, more, currency))).toBe(true);
      }),
    );
  });

  it('every amount has at most the minor-unit digits of its currency', () => {
    fc.assert(
      fc.property(pricedArb, quantityArb, ({ currency, pricing }, quantity) => {
        const fraction = amountOf(pricing, quantity, currency).toFixed().split('.')[1] ?? '';
        expect(fraction.length).toBeLessThanOrEqual(minorUnits(currency));
      }),
    );
  });

  it('a graduated amount is the exact sum of its bands, rounded once', () => {
    const graduatedArb = currencyArb.chain((currency) =>
      fc.boolean().chain((usage) =>
        (usage ? usageTiersArb(currency) : tiersArb(currency)).map((tiers) => ({
          currency,
          pricing: usage
            ? ({ model: 'usage', meter: 'api_calls', aggregation: 'sum', tiers, tiers_mode: 'graduated', late_events: 'next_period', usage_cycle: 'period', unique_property: null } as const)
            : ({ model: 'tiered', tiers, meter: 'seats' } as const),
        })),
      ),
    );
    fc.assert(
      fc.property(graduatedArb, quantityArb, ({ currency, pricing }, quantity) => {
        const line = priceComponent(compilePricing(pricing), quantity, currency);
        const exact = line.tiers.reduce((sum, t) => sum.plus(t.amount), new Big(0));
        expect(line.amount.eq(roundToCurrency(exact, currency))).toBe(true);
        expect(line.tiers.reduce((sum, t) => sum.plus(t.quantity), new Big(0)).eq(quantity)).toBe(true);
        for (const t of line.tiers) expect(t.amount.eq(t.quantity.times(t.unit_amount).plus(t.flat_amount))).toBe(true);
      }),
    );
  });

  it('a volume line lists the one band its whole quantity falls in, and is that band’s amount rounded once', () => {
    const volumeArb = currencyArb.chain((currency) =>
      fc.boolean().chain((usage) =>
        (usage ? usageTiersArb(currency) : tiersArb(currency)).map((tiers) => ({
          currency,
          tiers,
          pricing: usage
            ? ({ model: 'usage', meter: 'api_calls', aggregation: 'sum', tiers, tiers_mode: 'volume', late_events: 'next_period', usage_cycle: 'period', unique_property: null } as const)
            : ({ model: 'volume', tiers, meter: 'seats' } as const),
        })),
      ),
    );
    fc.assert(
      fc.property(volumeArb, quantityArb, ({ currency, tiers, pricing }, quantity) => {
        const line = priceComponent(compilePricing(pricing), quantity, currency);
        expect(line.tiers).toHaveLength(1);
        const [band] = line.tiers;
        const stated = tiers.find((tier) => tier.up_to === band.up_to)!;
        expect(band.quantity.eq(quantity)).toBe(true);
        expect([band.unit_amount, band.flat_amount, line.unit_amount]).toEqual([stated.unit_amount, stated.flat_amount ?? '0', stated.unit_amount]);
        expect(band.amount.eq(quantity.times(band.unit_amount).plus(band.flat_amount))).toBe(true);
        expect(line.amount.eq(roundToCurrency(band.amount, currency))).toBe(true);
      }),
    );
  });

  it('a line’s unit amount and its bands’ prices are the strings the pricing states, never normalised', () => {
    const singlePrice = (pricing: Pricing): string | undefined =>
      pricing.model === 'flat' ? pricing.amount : pricing.model === 'per_unit' ? pricing.unit_amount : pricing.model === 'package' ? pricing.package_price : undefined;
    fc.assert(
      fc.property(pricedArb, quantityArb, ({ currency, pricing }, quantity) => {
        const line = priceComponent(compilePricing(pricing), quantity, currency);
        const price = singlePrice(pricing);
        if (price !== undefined) expect(line.unit_amount).toBe(price);
        const bandPrices = 'tiers' in pricing ? pricing.tiers.map((tier) => tier.unit_amount) : [];
        for (const band of line.tiers) expect(bandPrices).toContain(band.unit_amount);
      }),
    );
  });

  it('at quantity 0, tiered, volume and usage cost the first band’s flat fee; per_unit and package nothing', () => {
    fc.assert(
      fc.property(pricedArb, ({ currency, pricing }) => {
        const firstFlatFee = 'tiers' in pricing ? new Big(pricing.tiers[0].flat_amount ?? 0) : new Big(0);
        const expected = pricing.model === 'flat' ? new Big(pricing.amount) : firstFlatFee;
        // Flat fees are whole minor units, so nothing is rounded away.
        expect(amountOf(pricing, new Big(0), currency).eq(expected)).toBe(true);
      }),
    );
  });

  it('parsePricing refuses a flat fee or package price finer than the currency’s minor unit, as it refuses a coupon amount', () => {
    const tooFineArb = currencyArb.chain((currency) =>
      fc.record({
        currency: fc.constant(currency),
        amount: fc.integer({ min: 1, max: 9 }).map((digit) => `1.${'0'.repeat(minorUnits(currency))}${digit}`),
        model: fc.constantFrom('flat', 'package', 'tiered'),
      }),
    );
    fc.assert(
      fc.property(tooFineArb, ({ currency, amount, model }) => {
        const pricing =
          model === 'flat'
            ? { model, amount }
            : model === 'package'
              ? { model, package_size: 5, package_price: amount }
              : { model, tiers: [{ up_to: null, unit_amount: amount, flat_amount: amount }] };
        const field = model === 'flat' ? 'pricing.amount' : model === 'package' ? 'pricing.package_price' : 'pricing.tiers[0].flat_amount';
        expect(() => parsePricing(pricing, { field: 'pricing', defaultMeter: 'seats', currency })).toThrow(
          expect.objectContaining({ code: 'pricing.invalid', fields: [expect.objectContaining({ field, code: 'pricing.invalid_amount' })] }),
        );
      }),
    );
  });

  it('flat ignores the quantity', () => {
    fc.assert(
      fc.property(currencyArb.chain((currency) => fc.tuple(fc.constant(currency), chargedAmountArb(currency))), quantityArb, quantityArb, ([currency, amount], one, other) => {
        const pricing: Pricing = { model: 'flat', amount };
        expect(amountOf(pricing, one, currency).eq(amountOf(pricing, other, currency))).toBe(true);
        expect(amountOf(pricing, one, currency).eq(roundToCurrency(new Big(amount), currency))).toBe(true);
      }),
    );
  });
});
