import Big from 'big.js';
import { AMOUNT_FRACTION_DIGITS, AMOUNT_MAX_DIGITS } from '@tally/kernel';
import type { Pricing } from './pricing';
import { compilePricing, type CompiledTier } from './price-component';

/**
 * What a usage line may hold within the money limits (20 digits, 8 of them after the point): a
 * quantity of 8 decimal places below 10¹², and an amount of at most 12 digits before the point, as
 * a line added by hand, so that 250 lines with their tax still sum within 20 digits.
 */
const WHOLE_DIGITS = AMOUNT_MAX_DIGITS - AMOUNT_FRACTION_DIGITS;
export const USAGE_QUANTITY_LIMIT = new Big(10).pow(WHOLE_DIGITS).minus(new Big(10).pow(-AMOUNT_FRACTION_DIGITS));
export const USAGE_AMOUNT_LIMIT = new Big(10).pow(WHOLE_DIGITS).minus(1);

const ZERO = new Big(0);

/**
 * The largest quantity (to 8 places, at most USAGE_QUANTITY_LIMIT) up to which the usage pricing
 * prices every quantity at no more than USAGE_AMOUNT_LIMIT: what one of its lines can bill. A band
 * whose flat fee alone goes beyond it is never entered (0 when it is the first, reached at 0).
 */
export function maxBillableUsage(pricing: Extract<Pricing, { model: 'usage' }>): Big {
  const compiled = compilePricing(pricing);
  if (compiled.model !== 'graduated' && compiled.model !== 'volume') throw new TypeError(`a usage pricing compiles to tiers, not ${compiled.model}`);
  const reach = compiled.model === 'graduated' ? graduatedReach(compiled.tiers) : volumeReach(compiled.tiers);
  return reach.gt(USAGE_QUANTITY_LIMIT) ? USAGE_QUANTITY_LIMIT : reach;
}

/** Each unit at its band's price, each band's flat fee once reached: the amount only grows, so the reach is where it passes the limit. */
function graduatedReach(tiers: readonly CompiledTier[]): Big {
  let charged = ZERO;
  for (const tier of tiers) {
    charged = charged.plus(tier.flatAmount);
    if (charged.gt(USAGE_AMOUNT_LIMIT)) return tier.lowerBound;
    const within = unitsWithin(USAGE_AMOUNT_LIMIT.minus(charged), tier.unitAmount);
    if (within !== null && (tier.width === null || within.lt(tier.width))) return tier.lowerBound.plus(within);
    if (tier.width === null) return USAGE_QUANTITY_LIMIT;
    charged = charged.plus(tier.width.times(tier.unitAmount));
  }
  return USAGE_QUANTITY_LIMIT;
}

/** The whole quantity at the price of its band: the reach is in the first band whose price passes the limit within it. */
function volumeReach(tiers: readonly CompiledTier[]): Big {
  for (const tier of tiers) {
    if (tier.lowerBound.times(tier.unitAmount).plus(tier.flatAmount).gt(USAGE_AMOUNT_LIMIT)) return tier.lowerBound;
    const within = unitsWithin(USAGE_AMOUNT_LIMIT.minus(tier.flatAmount), tier.unitAmount);
    if (within !== null && (tier.upperBound === null || within.lt(tier.upperBound))) return within;
  }
  return USAGE_QUANTITY_LIMIT;
}

/** How many units at `unitAmount` fit in `room`, to 8 places, rounded down; null when any number does (a free unit). */
function unitsWithin(room: Big, unitAmount: Big): Big | null {
  return unitAmount.eq(ZERO) ? null : room.div(unitAmount).round(AMOUNT_FRACTION_DIGITS, Big.roundDown);
}
