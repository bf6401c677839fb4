import { Injectable } from '@nestjs/common';
import type Big from 'big.js';
import type { RequestContext } from '@tally/cells';
import type { Period } from '../domain/billing-cycle';

/** What a subscription used of each meter in a period: the usage issue fills it from its aggregates. */
export interface UsageReadings {
  totals(context: RequestContext, subscriptionId: string, meters: readonly string[], period: Period): Promise<ReadonlyMap<string, Big>>;
}

export const USAGE_READINGS = Symbol('UsageReadings');

/** Until usage is metered, every meter reads zero: a usage line bills nothing. */
@Injectable()
export class NoUsageMetered implements UsageReadings {
  async totals(): Promise<ReadonlyMap<string, Big>> {
    return new Map();
  }
}
