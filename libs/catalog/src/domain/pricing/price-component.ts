import Big from 'big.js';
import { DomainError, parseAmount, parseUnitAmount, roundToCurrency } from '@tally/kernel';
import type { Pricing, Tier } from './pricing';

/**
 * A band a tiered line reached: how much of the quantity it holds, at which prices, and what that
 * costs, unrounded. Prices are kept as the pricing states them (`"100.00"` stays `"100.00"`).
 */
export interface PricedTier {
  up_to: number | null;
  quantity: Big;
  unit_amount: string;
  /** The band's flat fee, `"0"` when it has none. */
  flat_amount: string;
  /** quantity × unit_amount + flat_amount, exact. */
  amount: Big;
}

/**
 * One priced line. `quantity` is the quantity priced (1 for flat). `unit_amount` is the one price
 * that applies to the whole line, as the pricing states it: flat, the amount; per_unit, the unit
 * amount (charged on the units beyond `included_units` only); volume (volume, usage by volume),
 * the unit amount of the band the quantity falls in (the first band for 0); package, the price of
 * ONE PACKAGE, not of one unit; graduated (tiered, usage by default), null, and `tiers` says what
 * each band reached costs.
 */
export interface PricedComponent {
  quantity: Big;
  unit_amount: string | null;
  /** The line amount, rounded once to the currency's minor unit. */
  amount: Big;
  /**
   * The bands the line reached, in order: graduated, every band up to the one the quantity ends
   * in (the first at least); volume, the one band the quantity falls in; empty for other models.
   */
  tiers: PricedTier[];
}

/** A band with its bounds and prices parsed once: it covers (lowerBound, upperBound]. */
export interface CompiledTier {
  upTo: number | null;
  lowerBound: Big;
  upperBound: Big | null;
  /** upperBound − lowerBound: what a quantity beyond the band leaves in it. */
  width: Big | null;
  unitAmount: Big;
  flatAmount: Big;
  /** The prices as stated, for the priced line: Big keeps no trailing zeros. */
  stated: { unit_amount: string; flat_amount: string };
}

/**
 * A pricing with its amounts parsed into Big once, for pricing many lines. `stated` is the line's
 * unit amount as the pricing states it.
 */
export type CompiledPricing =
  | { readonly model: 'flat'; readonly amount: Big; readonly stated: string }
  | { readonly model: 'per_unit'; readonly unitAmount: Big; readonly includedUnits: Big; readonly stated: string }
  | { readonly model: 'graduated'; readonly tiers: readonly CompiledTier[] }
  | { readonly model: 'volume'; readonly tiers: readonly CompiledTier[] }
  | { readonly model: 'package'; readonly packageSize: Big; readonly packagePrice: Big; readonly rounding: 'up' | 'down'; readonly stated: string };

const ZERO = new Big(0);
const ONE = new Big(1);

export function compilePricing(pricing: Pricing): CompiledPricing {
  switch (pricing.model) {
    case 'flat':
      return { model: 'flat', amount: parseAmount(pricing.amount), stated: pricing.amount };
    case 'per_unit':
      return { model: 'per_unit', unitAmount: parseUnitAmount(pricing.unit_amount), includedUnits: new Big(pricing.included_units), stated: pricing.unit_amount };
    case 'tiered':
      return { model: 'graduated', tiers: compileTiers(pricing.tiers) };
    case 'volume':
      return { model: 'volume', tiers: compileTiers(pricing.tiers) };
    case 'usage':
      return { model: pricing.tiers_mode === 'volume' ? 'volume' : 'graduated', tiers: compileTiers(pricing.tiers) };
    case 'package':
      return {
        model: 'package',
        packageSize: new Big(pricing.package_size),
        packagePrice: parseAmount(pricing.package_price),
        rounding: pricing.rounding,
        stated: pricing.package_price,
      };
  }
}

function compileTiers(tiers: readonly Tier[]): CompiledTier[] {
  let lowerBound = ZERO;
  return tiers.map((tier) => {
    const upperBound = tier.up_to === null ? null : new Big(tier.up_to);
    const compiled = {
      upTo: tier.up_to,
      lowerBound,
      upperBound,
      width: upperBound && upperBound.minus(lowerBound),
      unitAmount: parseUnitAmount(tier.unit_amount),
      flatAmount: tier.flat_amount === null ? ZERO : parseAmount(tier.flat_amount),
      stated: { unit_amount: tier.unit_amount, flat_amount: tier.flat_amount ?? '0' },
    };
    lowerBound = upperBound ?? lowerBound;
    return compiled;
  });
}

/**
 * Prices `quantity` units (decimal for usage, never negative). The amount is exact until the end
 * of the line, then rounded once, half-even, to the currency's minor unit. Half-up is a rule of
 * some tax jurisdictions, and the tax engine applies it to the tax, not to the price.
 */
export function priceComponent(compiled: CompiledPricing, quantity: Big, currency: string): PricedComponent {
  if (quantity.lt(ZERO)) {
    throw DomainError.invalid('pricing.negative_quantity', `A quantity cannot be negative (${quantity.toFixed()})`);
  }
  const line = (unitAmount: string | null, exact: Big, tiers: PricedTier[] = []): PricedComponent => ({
    quantity,
    unit_amount: unitAmount,
    amount: roundToCurrency(exact, currency),
    tiers,
  });
  switch (compiled.model) {
    case 'flat':
      return { quantity: ONE, unit_amount: compiled.stated, amount: roundToCurrency(compiled.amount, currency), tiers: [] };
    case 'per_unit': {
      const billable = quantity.gt(compiled.includedUnits) ? quantity.minus(compiled.includedUnits) : ZERO;
      return line(compiled.stated, billable.times(compiled.unitAmount));
    }
    case 'graduated': {
      const tiers = graduatedTiers(compiled.tiers, quantity);
      return line(null, tiers.reduce((sum, t) => sum.plus(t.amount), ZERO), tiers);
    }
    case 'volume': {
      const band = pricedBand(volumeBand(compiled.tiers, quantity), quantity);
      return line(band.unit_amount, band.amount, [band]);
    }
    case 'package': {
      const packages = packagesIn(quantity, compiled.packageSize, compiled.rounding);
      return line(compiled.stated, packages.times(compiled.packagePrice));
    }
  }
}

/**
 * Each unit at the price of the band it falls in; a band's flat fee once the quantity reaches into
 * it. The first band is always reached, so its flat fee is charged at quantity 0 too (as Stripe and
 * Lago do).
 */
function graduatedTiers(tiers: readonly CompiledTier[], quantity: Big): PricedTier[] {
  const priced: PricedTier[] = [];
  for (const tier of tiers) {
    if (priced.length > 0 && quantity.lte(tier.lowerBound)) break;
    const { upperBound, width } = tier;
    priced.push(pricedBand(tier, upperBound !== null && width !== null && quantity.gt(upperBound) ? width : quantity.minus(tier.lowerBound)));
  }
  return priced;
}

/** `quantity` units in one band, at its unit amount, plus its flat fee once. */
function pricedBand(tier: CompiledTier, quantity: Big): PricedTier {
  const amount = quantity.times(tier.unitAmount).plus(tier.flatAmount);
  return { up_to: tier.upTo, quantity, unit_amount: tier.stated.unit_amount, flat_amount: tier.stated.flat_amount, amount };
}

/** The band the whole quantity falls in (the first for 0); past every bounded band, the last (unbounded) one. */
function volumeBand(tiers: readonly CompiledTier[], quantity: Big): CompiledTier {
  const last = tiers.length - 1;
  for (let i = 0; i < last; i++) {
    const { upperBound } = tiers[i];
    if (upperBound === null || quantity.lte(upperBound)) return tiers[i];
  }
  return tiers[last];
}

/** Whole packages of `size` in `quantity`, a started package counting as one (`up`) or not at all (`down`). */
function packagesIn(quantity: Big, size: Big, rounding: 'up' | 'down'): Big {
  // div rounds to Big.DP places, which can carry a quotient just below a whole number up to it.
  let whole = quantity.div(size).round(0, Big.roundDown);
  let covered = whole.times(size);
  if (covered.gt(quantity)) {
    whole = whole.minus(ONE);
    covered = covered.minus(size);
  }
  return rounding === 'up' && covered.lt(quantity) ? whole.plus(ONE) : whole;
}

/** The meter (or subscription quantity) the component is priced by; null for flat. */
export function meterOf(pricing: Pricing): string | null {
  return pricing.model === 'flat' ? null : pricing.meter;
}
