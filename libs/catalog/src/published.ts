/**
 * What other contexts may use of the catalog: the price book in force for a period and the pricing
 * engine. Pure, so a domain folder may import it (the architecture test keeps it so).
 */
export { componentsInForce, type ComponentInForce } from './domain/price-book';
export { compilePricing, meterOf, priceComponent, type CompiledPricing, type PricedTier } from './domain/pricing/price-component';
export type { Pricing, Tier } from './domain/pricing/pricing';
export { maxBillableUsage, USAGE_QUANTITY_LIMIT } from './domain/pricing/billable-usage';
export { periodEnd } from './domain/billing-period';
export { METER, METER_MAX_LENGTH } from './domain/pricing/parse-pricing';
