import type { Pricing } from './pricing';

type UsagePricing = Extract<Pricing, { model: 'usage' }>;

/** The fields usage pricings gained after plans had been stored without them. */
type LaterUsageFields = 'tiers_mode' | 'usage_cycle' | 'unique_property';

/**
 * A pricing as a plan event holds it. Stored events never change, so a usage pricing stored
 * before `tiers_mode`, `usage_cycle` and `unique_property` existed lacks them.
 */
export type StoredPricing = Exclude<Pricing, UsagePricing> | (Omit<UsagePricing, LaterUsageFields> & Partial<Pick<UsagePricing, LaterUsageFields>>);

/** The pricing with every field it was stored without, at the value that prices it as before: graduated, reset each period, no unique property. */
export function withPricingDefaults(pricing: StoredPricing): Pricing {
  if (pricing.model !== 'usage') return pricing;
  return {
    ...pricing,
    tiers_mode: pricing.tiers_mode ?? 'graduated',
    usage_cycle: pricing.usage_cycle ?? 'period',
    unique_property: pricing.unique_property ?? null,
  };
}
