import type { RecordedEvent } from '@tally/eventstore';
import type { Doc } from '@tally/readstore';
import type { Projection, ProjectionWriter } from '@tally/runtime';
import type { SubscriptionEvent } from '@tally/subscriptions';
import { addUsage, countValues, emptyBucket, type UsageBucket } from './domain/usage-bucket';
import type { UsageEvent, UsageRecord } from './domain/usage.events';
import { placeUsage, type UsagePeriods } from './domain/usage-placement';
import { USAGE_INGEST_PREFIX } from './usage-ingest-stream';

export const USAGE_PROJECTION = 'usage';
export const USAGE_BUCKETS = 'usage_buckets';
const PERIODS = 'usage_periods';
/** The dedupe index: one document per (subscription, meter, external id) ever counted. */
const KEYS = 'usage_keys';
/** Which property values a period has seen, and in which period the subscription first saw each. */
const VALUES = 'usage_values';
const FIRST_SEEN = 'usage_first_seen';

export type UsageBucketDoc = Doc & UsageBucket & { period_start: string };
type PeriodsDoc = Doc & UsagePeriods;

export const bucketId = (subscriptionId: string, meter: string, periodStart: string): string => JSON.stringify([subscriptionId, meter, periodStart]);

/**
 * The usage aggregates: each accepted event counted once in the period it counts in. It follows
 * the subscriptions too, so an event is placed by the periods as the log had them when it arrived:
 * the same on every replay, and the same on a rebuild.
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
  ],
  async handle(event: RecordedEvent, writer: ProjectionWriter): Promise<void> {
    const { type, data } = event as unknown as SubscriptionEvent | UsageEvent;
    switch (type) {
      case 'SubscriptionCreated':
        writer.upsert(PERIODS, { id: data.subscription_id, anchor: data.billing_cycle_anchor, cadence: data.cadence, open: { start: data.period_start, end: data.period_end } } satisfies PeriodsDoc);
        return;
      case 'SubscriptionActivated':
      case 'SubscriptionRenewed':
      case 'SubscriptionAwaitingPayment': {
        const periods = await writer.get<PeriodsDoc>(PERIODS, data.subscription_id);
        if (periods) writer.upsert(PERIODS, { ...periods, open: { start: data.period_start, end: data.period_end } });
        return;
      }
      case 'UsageBatchAccepted':
        for (const record of data.events) await count(record, writer);
        return;
    }
  },
};

async function count(record: UsageRecord, writer: ProjectionWriter): Promise<void> {
  const key = JSON.stringify([record.subscription_id, record.meter, record.external_id]);
  if (await writer.get(KEYS, key)) return;
  const periods = await writer.get<PeriodsDoc>(PERIODS, record.subscription_id);
  if (!periods) return;
  writer.upsert(KEYS, { id: key, received_at: record.received_at });
  const { period, late } = placeUsage(periods, record.timestamp);
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
