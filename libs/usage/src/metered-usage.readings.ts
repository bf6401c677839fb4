import { Injectable } from '@nestjs/common';
import type { RequestContext } from '@tally/cells';
import { CommandRuntime } from '@tally/runtime';
import type { MeterReading, UsageMeter, UsageReadings } from '@tally/subscriptions';
import type { Period } from '@tally/subscriptions/published';
import { billable, readMeter } from './domain/usage-bucket';
import { UsageProjectionProgress } from './usage-projection-progress';
import { bucketId, USAGE_BUCKETS, type UsageBucketDoc } from './usage.projection';

/**
 * The usage port of the billing cycle and the usage summary, read from the usage projection once
 * it has counted every batch accepted before the read: a period's invoice bills what was accepted
 * before it closed, and a caller sees its own accepted events.
 */
@Injectable()
export class MeteredUsageReadings implements UsageReadings {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly progress: UsageProjectionProgress,
  ) {}

  async read(context: RequestContext, subscriptionId: string, meters: readonly UsageMeter[], period: Period): Promise<ReadonlyMap<string, MeterReading>> {
    const cell = this.runtime.cellOf(context);
    await this.progress.caughtUp(cell, context);
    const readings = new Map<string, MeterReading>();
    for (const meter of meters) {
      const buckets =
        meter.usage_cycle === 'never'
          ? await this.bucketsUpTo(context, subscriptionId, meter.meter, period.start)
          : [await cell.readModels.get<UsageBucketDoc>(USAGE_BUCKETS, bucketId(subscriptionId, meter.meter, period.start))].filter((bucket) => bucket !== undefined);
      readings.set(meter.meter, billable(readMeter(meter, buckets, period), meter.billable_max));
    }
    return readings;
  }

  /** Every bucket of the meter up to the period starting at `start`, for a counter that never resets. */
  private async bucketsUpTo(context: RequestContext, subscriptionId: string, meter: string, start: string): Promise<UsageBucketDoc[]> {
    const store = this.runtime.cellOf(context).readModels;
    const where = [
      { field: 'subscription_id', op: 'eq', value: subscriptionId },
      { field: 'meter', op: 'eq', value: meter },
      { field: 'period_start', op: 'lte', value: start },
    ] as const;
    const buckets: UsageBucketDoc[] = [];
    for (let after: { value: string; id: string } | undefined; ; ) {
      const page = await store.find<UsageBucketDoc>(USAGE_BUCKETS, { where, sort: { field: 'period_start', direction: 'asc' }, after, limit: 100 });
      buckets.push(...page.items);
      if (!page.hasMore) return buckets;
      const last = page.items[page.items.length - 1];
      after = { value: last.period_start, id: last.id };
    }
  }
}
