import Big from 'big.js';
import fc from 'fast-check';
import { maxBillableUsage, USAGE_AMOUNT_LIMIT, USAGE_QUANTITY_LIMIT } from './billable-usage';
import { compilePricing, priceComponent } from './price-component';
import type { Pricing, Tier } from './pricing';

type UsagePricing = Extract<Pricing, { model: 'usage' }>;

const usage = (tiers: [number | null, string, string?][], tiers_mode: 'graduated' | 'volume' = 'graduated'): UsagePricing => ({
  model: 'usage',
  meter: 'calls',
  aggregation: 'sum',
  tiers: tiers.map(([up_to, unit_amount, flat_amount]): Tier => ({ up_to, unit_amount, flat_amount: flat_amount ?? null })),
  tiers_mode,
  late_events: 'next_period',
  usage_cycle: 'period',
  unique_property: null,
});

/** The line's amount before it is rounded to the currency: what the limit bounds. */
const amountAt = (pricing: UsagePricing, quantity: Big) => priceComponent(compilePricing(pricing), quantity, 'EUR').tiers.reduce((sum, tier) => sum.plus(tier.amount), new Big(0));

describe('the most a usage line can bill within the money limits', () => {
  it('holds a quantity below 10^12 to 8 places and an amount of at most 12 digits before the point', () => {
    expect([USAGE_QUANTITY_LIMIT.toFixed(), USAGE_AMOUNT_LIMIT.toFixed()]).toEqual(['999999999999.99999999', '999999999999']);
  });

  it.each([
    ['every unit free', usage([[null, '0']]), '999999999999.99999999'],
    ['a cent a unit past a free tier: the quantity limit comes first', usage([[1000, '0'], [null, '0.01']]), '999999999999.99999999'],
    ['a million a unit', usage([[null, '1000000']]), '999999.999999'],
    ['17,000 a unit, rounded down to 8 places', usage([[null, '17000']]), '58823529.41170588'],
    ['a flat fee that fills the limit: the next band is never entered', usage([[10, '0', '999999999999'], [null, '1', '1']]), '10'],
    ['a first band whose flat fee alone passes the limit: nothing', usage([[null, '1', '1000000000000']]), '0'],
    ['by volume, a band whose first unit already costs too much', usage([[100, '1'], [null, '10000000000']], 'volume'), '100'],
    ['by volume, a cheaper top band', usage([[100, '10'], [null, '1']], 'volume'), '999999999999'],
  ])('%s', (_name, pricing, reach) => {
    expect(maxBillableUsage(pricing).toFixed()).toBe(reach);
  });

  it('prices the quantity it answers within the limit; by graduated tiers, a hundred-millionth more passes it', () => {
    const unitArb = fc.tuple(fc.bigInt({ min: 0n, max: 10n ** 16n }), fc.integer({ min: 0, max: 12 })).map(([digits, scale]) => new Big(`${digits}e-${scale}`).toFixed());
    const tiersArb = fc.uniqueArray(fc.integer({ min: 1, max: 1_000_000_000 }), { maxLength: 4 }).chain((bounds) =>
      fc.tuple(...[...bounds.sort((a, b) => a - b), null].map((upTo) => fc.tuple(fc.constant(upTo), unitArb, fc.option(fc.bigInt({ min: 0n, max: 10n ** 12n }).map(String), { nil: undefined })))),
    );
    fc.assert(
      fc.property(tiersArb, fc.constantFrom('graduated' as const, 'volume' as const), (tiers, mode) => {
        const pricing = usage(tiers, mode);
        const reach = maxBillableUsage(pricing);
        expect(reach.lte(USAGE_QUANTITY_LIMIT)).toBe(true);
        if (reach.gt(0)) expect(amountAt(pricing, reach).lte(USAGE_AMOUNT_LIMIT)).toBe(true);
        if (mode === 'graduated' && reach.lt(USAGE_QUANTITY_LIMIT)) expect(amountAt(pricing, reach.plus('0.00000001')).gt(USAGE_AMOUNT_LIMIT)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});
