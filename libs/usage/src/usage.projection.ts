import type { RecordedEvent } from '@tally/eventstore';
import type { Doc } from '@tally/readstore';
import type { Projection, ProjectionWriter } from '@tally/runtime';
import type { SubscriptionEvent } from '@tally/subscriptions';
import { addUsage, countValues, emptyBucket, type UsageBucket } from './domain/usage-bucket';
import type { Period } from '@tally/subscriptions/published';
import type { LateUsageSettled, UsageEvent, UsageRecord } from './domain/usage.events';
import { mayRebill, placeUsage, type ClosedPeriod, type UsagePeriods } from './domain/usage-placement';
import { USAGE_INGEST_PREFIX } from './usage-ingest-stream';

export const USAGE_PROJECTION = 'usage';
export const USAGE_BUCKETS = 'usage_buckets';
const PERIODS = 'usage_periods';
/** The dedupe index: one document per (subscription, meter, external id) ever counted. */
const KEYS = 'usage_keys';
/** Which property values a period has seen, and in which period the subscription first saw each. */
const VALUES = 'usage_values';
const FIRST_SEEN = 'usage_first_seen';
/** Late events of a batch awaiting the rebill's decision, per (subscription, closed period, batch). */
export const LATE_USAGE = 'usage_late';

export type UsageBucketDoc = Doc & UsageBucket & { period_start: string };
/** The periods as the log has them: the open one, and the last one that closed (when, on the subscription's clock). */
type PeriodsDoc = Doc & UsagePeriods & { closed: ClosedPeriod | null };
export type LateUsageDoc = Doc & { subscription_id: string; period: Period; batch_id: string; records: UsageRecord[]; status: 'pending' | LateUsageSettled['data']['outcome'] };

export const lateUsageId = (subscriptionId: string, periodStart: string, batchId: string): string => JSON.stringify([subscriptionId, periodStart, batchId]);

export const bucketId = (subscriptionId: string, meter: string, periodStart: string): string => JSON.stringify([subscriptionId, meter, periodStart]);

/**
 * The usage aggregates: each accepted event counted once in the period it counts in. It follows
 * the subscriptions too, so an event is placed by the periods as the log had them when it arrived:
 * the same on every replay, and the same on a rebuild. A late event that may be rebilled waits for
 * the rebill's decision, which is in the log too.
 */
export const usageProjection: Projection = {
  name: USAGE_PROJECTION,
  streamPrefixes: [USAGE_INGEST_PREFIX, 'subscription-'],
  collections: [
    { name: USAGE_BUCKETS, indexes: [{ fields: ['subscription_id', 'meter', 'period_start'] }] },
    { name: PERIODS, indexes: [] },
    { name: KEYS, indexes: [] },
    { name: VALUES, indexes: [] },
    { name: FIRST_SEEN, indexes: [] },
    { name: LATE_USAGE, indexes: [{ fields: ['batch_id'] }] },
  ],
  async handle(event: RecordedEvent, writer: ProjectionWriter): Promise<void> {
    const { type, data } = event as unknown as SubscriptionEvent | UsageEvent;
    switch (type) {
      case 'SubscriptionCreated':
        writer.upsert(PERIODS, {
          id: data.subscription_id,
          started: data.period_start,
          anchor: data.billing_cycle_anchor,
          cadence: data.cadence,
          open: { start: data.period_start, end: data.period_end },
          closed: null,
        } satisfies PeriodsDoc);
        return;
      case 'SubscriptionActivated':
      case 'SubscriptionRenewed':
      case 'SubscriptionAwaitingPayment': {
        const periods = await writer.get<PeriodsDoc>(PERIODS, data.subscription_id);
        if (!periods) return;
        const closed = type === 'SubscriptionRenewed' ? { ...periods.open, closed_at: event.metadata.occurred_at } : periods.closed;
        writer.upsert(PERIODS, { ...periods, open: { start: data.period_start, end: data.period_end }, closed });
        return;
      }
      case 'UsageBatchAccepted':
        for (const record of data.events) await count(record, data.batch_id, writer);
        return;
      case 'LateUsageSettled':
        await settle(data, writer);
        return;
    }
  },
};

async function count(record: UsageRecord, batchId: string, writer: ProjectionWriter): Promise<void> {
  const key = JSON.stringify([record.subscription_id, record.meter, record.external_id]);
  if (await writer.get(KEYS, key)) return;
  const periods = await writer.get<PeriodsDoc>(PERIODS, record.subscription_id);
  if (!periods) return;
  writer.upsert(KEYS, { id: key, received_at: record.received_at });
  const { period, late } = placeUsage(periods, record.timestamp);
  const closed = periods.closed;
  if (late && record.rebill && closed && mayRebill(record, closed)) return awaitRebill(record, closed, batchId, writer);
  await countIn(record, period, late, writer);
}

/** Held, counted nowhere, until the rebill decides (LateUsageSettled) whether the period's invoice could be voided. */
async function awaitRebill(record: UsageRecord, closed: Period, batchId: string, writer: ProjectionWriter): Promise<void> {
  const id = lateUsageId(record.subscription_id, closed.start, batchId);
  const held = await writer.get<LateUsageDoc>(LATE_USAGE, id);
  const period = { start: closed.start, end: closed.end };
  writer.upsert(LATE_USAGE, { id, subscription_id: record.subscription_id, period, batch_id: batchId, records: [...(held?.records ?? []), record], status: 'pending' } satisfies LateUsageDoc);
}

/** Rebilled: the held events count in their own period; deferred: in the period open now, as late. */
async function settle({ subscription_id, period_start, batch_id, outcome }: LateUsageSettled['data'], writer: ProjectionWriter): Promise<void> {
  const held = await writer.get<LateUsageDoc>(LATE_USAGE, lateUsageId(subscription_id, period_start, batch_id));
  const periods = await writer.get<PeriodsDoc>(PERIODS, subscription_id);
  if (!held || held.status !== 'pending' || !periods) return;
  for (const record of held.records) await countIn(record, outcome === 'rebilled' ? held.period : periods.open, outcome === 'deferred', writer);
  writer.upsert(LATE_USAGE, { ...held, status: outcome });
}

async function countIn(record: UsageRecord, period: Period, late: boolean, writer: ProjectionWriter): Promise<void> {
  const id = bucketId(record.subscription_id, record.meter, period.start);
  let bucket: UsageBucket = (await writer.get<UsageBucketDoc>(USAGE_BUCKETS, id)) ?? emptyBucket(record.subscription_id, record.meter, period);
  bucket = addUsage(bucket, record, late);
  for (const [property, value] of Object.entries(record.properties ?? {})) {
    bucket = await countValue(bucket, property, value, writer);
  }
  writer.upsert(USAGE_BUCKETS, { ...bucket, id, period_start: period.start } satisfies UsageBucketDoc);
}

/** Counts a property's value as distinct in the bucket's period, and as first seen in the earliest period that has it. */
async function countValue(bucket: UsageBucket, property: string, value: string, writer: ProjectionWriter): Promise<UsageBucket> {
  const { subscription_id: subscriptionId, meter, period } = bucket;
  const inPeriod = JSON.stringify([subscriptionId, meter, period.start, property, value]);
  if (!(await writer.get(VALUES, inPeriod))) {
    writer.upsert(VALUES, { id: inPeriod });
    bucket = countValues(bucket, 'distinct', property, 1);
  }
  const everId = JSON.stringify([subscriptionId, meter, property, value]);
  const ever = await writer.get<{ id: string; period_start: string }>(FIRST_SEEN, everId);
  if (ever && ever.period_start <= period.start) return bucket;
  if (ever) {
    // An earlier period has it now: it was first seen there, not where it was counted before.
    const earlierId = bucketId(subscriptionId, meter, ever.period_start);
    const earlier = await writer.get<UsageBucketDoc>(USAGE_BUCKETS, earlierId);
    if (earlier) writer.upsert(USAGE_BUCKETS, { ...countValues(earlier, 'first_seen', property, -1), id: earlierId, period_start: ever.period_start });
  }
  writer.upsert(FIRST_SEEN, { id: everId, period_start: period.start });
  return countValues(bucket, 'first_seen', property, 1);
}
