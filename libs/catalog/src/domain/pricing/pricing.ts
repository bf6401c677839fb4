/**
 * The pricing of one plan component, as stored in events and shown by the API. Amounts are
 * decimal strings in major units, as sent: unit amounts with up to 12 fractional digits, amounts
 * charged as they are (flat, flat fees, package prices) in whole minor units of the plan's
 * currency. Quantities come from the subscription (flat, per_unit, tiered, volume, package) or
 * from the usage meter (usage).
 */

/**
 * One band of a tiered, volume or usage price. `up_to: null` is the unbounded top band, always
 * last; otherwise a whole number, or for usage (whose quantities are decimal) any number above 0.
 */
export interface Tier {
  up_to: number | null;
  unit_amount: string;
  /** Charged once for the band (graduated: when the quantity reaches it; volume: when the quantity falls in it). Quantity 0 is in the first band. */
  flat_amount: string | null;
}

export type UsageAggregation = 'sum' | 'max' | 'last_during_period' | 'unique_count' | 'count' | 'weighted_sum';
export type LateEvents = 'next_period' | 'rebill';
/** `period`: the aggregate starts again every billing period; `never`: a counter that never resets. */
export type UsageCycle = 'period' | 'never';
/** `graduated`: each unit at the price of the band it falls in; `volume`: the whole aggregate at the price of its band. */
export type TiersMode = 'graduated' | 'volume';
export type PackageRounding = 'up' | 'down';

/**
 * `meter` names the subscription quantity (or usage meter) the component is priced by. A usage
 * pricing's `unique_property` is the key of a usage event's `properties` whose distinct values a
 * `unique_count` aggregation counts (null: it counts distinct events, by `external_id`); null for
 * every other aggregation.
 */
export type Pricing =
  | { model: 'flat'; amount: string }
  | { model: 'per_unit'; unit_amount: string; included_units: number; meter: string }
  | { model: 'tiered'; tiers: Tier[]; meter: string }
  | { model: 'volume'; tiers: Tier[]; meter: string }
  | { model: 'package'; package_size: number; package_price: string; rounding: PackageRounding; meter: string }
  | {
      model: 'usage';
      meter: string;
      aggregation: UsageAggregation;
      tiers: Tier[];
      tiers_mode: TiersMode;
      late_events: LateEvents;
      usage_cycle: UsageCycle;
      unique_property: string | null;
    };

export type PricingModel = Pricing['model'];

export const PRICING_MODELS: readonly PricingModel[] = ['flat', 'per_unit', 'tiered', 'volume', 'package', 'usage'];
