import type Big from 'big.js';
import type { Pricing } from '@tally/catalog/published';
import type { RequestContext } from '@tally/cells';
import type { Period } from '../domain/billing-cycle';

/**
 * A meter as a usage component reads it: by which aggregation, reset each period or never, for
 * unique_count of which property; how it bills late events; and the largest quantity every usage
 * component of the meter can bill within the money limits.
 */
export type UsageMeter = Pick<Extract<Pricing, { model: 'usage' }>, 'meter' | 'aggregation' | 'usage_cycle' | 'unique_property' | 'late_events'> & { billable_max: Big };

/**
 * What a subscription used of a meter in a period: the aggregate its component prices, how many
 * events made it, and how many of those arrived after their own period had closed.
 */
export interface MeterReading {
  quantity: Big;
  events: number;
  late_events: number;
}

/** The usage of a subscription's meters, as the usage context aggregates it. */
export interface UsageReadings {
  /** Readings of the given meters in the period; a meter without usage may be left out. */
  read(context: RequestContext, subscriptionId: string, meters: readonly UsageMeter[], period: Period): Promise<ReadonlyMap<string, MeterReading>>;
}

export const USAGE_READINGS = Symbol('UsageReadings');
