import Big from 'big.js';
import { compilePricing, priceComponent } from './price-component';
import type { Pricing } from './pricing';
import { withPricingDefaults, type StoredPricing } from './stored-pricing';

/** A usage pricing as plan events stored it before tiers_mode, usage_cycle and unique_property existed. */
const storedBefore: StoredPricing = {
  model: 'usage',
  meter: 'api_calls',
  aggregation: 'sum',
  tiers: [
    { up_to: 100, unit_amount: '1', flat_amount: null },
    { up_to: null, unit_amount: '0.5', flat_amount: null },
  ],
  late_events: 'rebill',
};

describe('withPricingDefaults', () => {
  it('gives a usage pricing stored before the fields existed graduated tiers, a reset every period and no unique property', () => {
    expect(withPricingDefaults(storedBefore)).toEqual({ ...storedBefore, tiers_mode: 'graduated', usage_cycle: 'period', unique_property: null });
  });

  it('prices it as before: graduated', () => {
    const line = priceComponent(compilePricing(withPricingDefaults(storedBefore)), new Big(150), 'USD');
    expect(line.amount.toFixed()).toBe('125');
  });

  it('keeps the fields a pricing was stored with', () => {
    const current: Pricing = { ...storedBefore, aggregation: 'unique_count', tiers_mode: 'volume', usage_cycle: 'never', unique_property: 'user_id' };
    expect(withPricingDefaults(current)).toEqual(current);
  });

  it('leaves the other models as they are', () => {
    const flat: Pricing = { model: 'flat', amount: '49.00' };
    expect(withPricingDefaults(flat)).toBe(flat);
  });
});
