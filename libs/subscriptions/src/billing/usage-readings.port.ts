import { Injectable } from '@nestjs/common';
import type Big from 'big.js';
import type { RequestContext } from '@tally/cells';
import type { Period } from '../domain/billing-cycle';

/** What a subscription used of a meter in a period: the aggregate its component prices, and how many events made it. */
export interface MeterReading {
  quantity: Big;
  events: number;
}

/** The usage of a subscription's meters: the usage issue fills it from its aggregates. */
export interface UsageReadings {
  /** Readings of the given meters in the period; a meter without usage may be left out. */
  read(context: RequestContext, subscriptionId: string, meters: readonly string[], period: Period): Promise<ReadonlyMap<string, MeterReading>>;
}

export const USAGE_READINGS = Symbol('UsageReadings');

/** Until usage is metered, no meter has a reading: a usage line bills nothing. */
@Injectable()
export class NoUsageMetered implements UsageReadings {
  async read(): Promise<ReadonlyMap<string, MeterReading>> {
    return new Map();
  }
}
