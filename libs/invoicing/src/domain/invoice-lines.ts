import Big from 'big.js';
import { DomainError, type FieldError } from '@tally/kernel';
import { type ComponentInForce, compilePricing, meterOf, priceComponent, type PricedTier } from '@tally/catalog/published';
import type { TaxCode } from '@tally/tax/published';

/** One priced line of an invoice, before discounts and tax. */
export interface InvoiceLine {
  /** The component's code (a proration line repeats the code of the component it prorates). */
  code: string;
  description: string;
  quantity: Big;
  /** The one price of the line, as the pricing states it; null for graduated lines (see `tiers`). */
  unit_amount: string | null;
  /** Rounded to the currency's minor unit. */
  amount: Big;
  /** Tiered, volume and usage lines: the bands reached, with their quantities and exact amounts. */
  tiers: PricedTier[];
  tax_code: TaxCode;
  /** The price-book entry the line was priced with. */
  price_version: number;
  period_start: string;
  period_end: string;
}

/** By meter, in Maps: a meter is a client's name, and `constructor` is a valid one. */
export interface Quantities {
  /** Subscription quantities by meter: whole numbers for flat, per_unit, tiered, volume and package components. */
  quantities: ReadonlyMap<string, number>;
  /** Usage aggregates by meter, for usage components; decimals allowed. */
  usage: ReadonlyMap<string, Big>;
}

/** Stripe's default: a licensed item without a quantity counts one. Usage without events counts zero. */
const DEFAULT_QUANTITY = 1;

/**
 * Prices each component in force on its own and rounds each line to the currency, once. Every
 * given meter must belong to a component of the right kind, so a typo never prices as nothing.
 */
export function priceLines(components: readonly ComponentInForce[], given: Quantities, currency: string, period: { start: string; end: string }): InvoiceLine[] {
  checkMeters(components, given);
  return components.map((component) => {
    const meter = meterOf(component.pricing);
    const quantity =
      component.pricing.model === 'usage' ? (given.usage.get(meter!) ?? new Big(0)) : new Big(meter === null ? 1 : (given.quantities.get(meter) ?? DEFAULT_QUANTITY));
    const priced = priceComponent(compilePricing(component.pricing), quantity, currency);
    return {
      code: component.code,
      description: meter === null || meter === component.code ? component.code : `${component.code} (${meter})`,
      quantity: priced.quantity,
      unit_amount: priced.unit_amount,
      amount: priced.amount,
      tiers: priced.tiers,
      tax_code: component.tax_code ?? 'standard',
      price_version: component.price_version,
      period_start: period.start,
      period_end: period.end,
    };
  });
}

function checkMeters(components: readonly ComponentInForce[], given: Quantities): void {
  const usageMeters = new Set(components.filter((c) => c.pricing.model === 'usage').map((c) => meterOf(c.pricing)));
  const quantityMeters = new Set(components.filter((c) => c.pricing.model !== 'usage').map((c) => meterOf(c.pricing)));
  const errors: FieldError[] = [
    ...[...given.quantities.keys()]
      .filter((meter) => !quantityMeters.has(meter))
      .map((meter) => ({ field: `quantities.${meter}`, code: 'invoice_preview.unknown_meter', message: 'no flat, per_unit, tiered, volume or package component of the plan uses this meter' })),
    ...[...given.usage.keys()]
      .filter((meter) => !usageMeters.has(meter))
      .map((meter) => ({ field: `usage.${meter}`, code: 'invoice_preview.unknown_meter', message: 'no usage component of the plan uses this meter' })),
  ];
  if (errors.length > 0) throw DomainError.invalid('invoice_preview.unknown_meter', 'Some meters belong to no component of the plan in force', errors);
}
