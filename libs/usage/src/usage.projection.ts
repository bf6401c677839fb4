import { countedRef, usageDedupeKey } from './usage-dedupe-key';
import type { RecordedEvent } from '@tally/eventstore';
import type { Doc } from '@tally/readstore';
import { asEventOf, type Projection, type ProjectionWriter } from '@tally/runtime';
import type { SubscriptionEvent } from '@tally/subscriptions';
import { emptyBucket, RunningBucket, type UsageBucket } from './domain/usage-bucket';
import type { Period } from '@tally/subscriptions/published';
import type { LateUsageSettled, UsageBatchAccepted, UsageEvent, UsageRecord } from './domain/usage.events';
import { mayRebill, placeUsage, type ClosedPeriod, type UsagePeriods } from './domain/usage-placement';
import { USAGE_INGEST_PREFIX } from './usage-ingest-stream';

export const USAGE_PROJECTION = 'usage';
export const USAGE_BUCKETS = 'usage_buckets';
const PERIODS = 'usage_periods';
/** The dedupe index: a key set, one key per (subscription, meter, external id) counted within the window, with where the event that counted it is (countedRef). */
export const USAGE_DEDUPE = 'usage_dedupe';
/**
 * How long a counted event's key dedupes, in hours of the log's time (when its batch was
 * accepted): more than the 35 days promised. Measured on the log, not the wall clock, so a replay
 * or a rebuild decides exactly as the first run did. Keys carry their hour (a small number, cheap
 * to store), so a key dedupes for 40 days and up to an hour more.
 */
export const DEDUPE_WINDOW_HOURS = 40 * 24;
export const HOUR_MS = 3_600_000;
/** Keys are dropped a day after they stop counting: batches of concurrent requests reach the log up to moments out of time order. */
const DROP_AFTER_HOURS = DEDUPE_WINDOW_HOURS + 24;
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
    { name: VALUES, indexes: [] },
    { name: FIRST_SEEN, indexes: [] },
    { name: LATE_USAGE, indexes: [{ fields: ['batch_id'] }] },
  ],
  keySets: [USAGE_DEDUPE],
  // Every batch adds its keys all over the dedupe index: a commit every quarter second writes
  // each page touched once for many batches, at the cost of that much more lag for the summary.
  pacing: { idleMs: 25, maxMs: 250, maxEvents: 500 },
  async handle(event: RecordedEvent, writer: ProjectionWriter): Promise<void> {
    const { type, data } = asEventOf<SubscriptionEvent | UsageEvent>(event);
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
        await countBatch(data, event.position, Math.floor(Date.parse(event.metadata.occurred_at) / HOUR_MS), writer);
        return;
      case 'LateUsageSettled':
        await settle(data, writer);
        return;
    }
  },
};

/**
 * Counts a batch's events in one pass: the dedupe index and the periods are read for the whole
 * batch at once, and each bucket is read once and written once, whatever the batch's size.
 */
async function countBatch({ batch_id: batchId, events }: UsageBatchAccepted['data'], position: bigint, acceptedHour: number, writer: ProjectionWriter): Promise<void> {
  const keys = events.map(usageDedupeKey);
  const counted = await writer.hasKeys(USAGE_DEDUPE, keys, acceptedHour - DEDUPE_WINDOW_HOURS);
  writer.forgetKeys(USAGE_DEDUPE, acceptedHour - DROP_AFTER_HOURS);
  const periodsOf = await writer.getMany<PeriodsDoc>(PERIODS, [...new Set(events.map((record) => record.subscription_id))]);
  const tally = new BucketTally(writer);
  for (const [index, record] of events.entries()) {
    const periods = periodsOf.get(record.subscription_id);
    if (counted.has(keys[index]) || !periods) continue;
    counted.add(keys[index]);
    writer.addKey(USAGE_DEDUPE, keys[index], acceptedHour, countedRef({ position, index }));
    const { period, late } = placeUsage(periods, record.timestamp);
    const closed = periods.closed;
    if (late && record.rebill && closed && mayRebill(record, closed)) {
      await awaitRebill(record, closed, batchId, writer);
      continue;
    }
    // Most events count into a bucket the batch has read already and have no property to look up: no await.
    const bucket = record.properties ? undefined : tally.held(record.subscription_id, record.meter, period.start);
    if (bucket) bucket.add(record, late);
    else await countIn(record, period, late, tally, writer);
  }
  tally.write();
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
  const tally = new BucketTally(writer);
  for (const record of held.records) await countIn(record, outcome === 'rebilled' ? held.period : periods.open, outcome === 'deferred', tally, writer);
  tally.write();
  writer.upsert(LATE_USAGE, { ...held, status: outcome });
}

/** The buckets one entry of the log counts into: each read once, counted into in memory, written once. */
class BucketTally {
  /** By tallyKey (cheaper to make than the bucket's id). */
  private readonly running = new Map<string, RunningBucket>();

  constructor(private readonly writer: ProjectionWriter) {}

  /** The bucket of a period, empty if nothing was counted in it yet. */
  async of(subscriptionId: string, meter: string, period: Period): Promise<RunningBucket> {
    return (await this.stored(subscriptionId, meter, period.start)) ?? this.start(emptyBucket(subscriptionId, meter, period));
  }

  /** The bucket of the period that starts at `periodStart`, if this tally has read it already. */
  held(subscriptionId: string, meter: string, periodStart: string): RunningBucket | undefined {
    return this.running.get(tallyKey(subscriptionId, meter, periodStart));
  }

  /** The bucket of the period that starts at `periodStart`, if anything was counted in it. */
  async stored(subscriptionId: string, meter: string, periodStart: string): Promise<RunningBucket | undefined> {
    const running = this.held(subscriptionId, meter, periodStart);
    if (running) return running;
    const stored = await this.writer.get<UsageBucketDoc>(USAGE_BUCKETS, bucketId(subscriptionId, meter, periodStart));
    return stored && this.start(stored);
  }

  write(): void {
    for (const running of this.running.values()) {
      const bucket = running.toBucket();
      const periodStart = bucket.period.start;
      this.writer.upsert(USAGE_BUCKETS, { ...bucket, id: bucketId(bucket.subscription_id, bucket.meter, periodStart), period_start: periodStart } satisfies UsageBucketDoc);
    }
  }

  private start(bucket: UsageBucket): RunningBucket {
    const running = new RunningBucket(bucket);
    this.running.set(tallyKey(bucket.subscription_id, bucket.meter, bucket.period.start), running);
    return running;
  }
}

const tallyKey = (subscriptionId: string, meter: string, periodStart: string): string => `${subscriptionId}\u0000${meter}\u0000${periodStart}`;

async function countIn(record: UsageRecord, period: Period, late: boolean, tally: BucketTally, writer: ProjectionWriter): Promise<void> {
  const bucket = await tally.of(record.subscription_id, record.meter, period);
  bucket.add(record, late);
  if (!record.properties) return;
  for (const [property, value] of Object.entries(record.properties)) await countValue(record, period, property, value, bucket, tally, writer);
}

/** Counts a property's value as distinct in the bucket's period, and as first seen in the earliest period that has it. */
async function countValue(
  { subscription_id: subscriptionId, meter }: UsageRecord,
  period: Period,
  property: string,
  value: string,
  bucket: RunningBucket,
  tally: BucketTally,
  writer: ProjectionWriter,
): Promise<void> {
  const inPeriod = JSON.stringify([subscriptionId, meter, period.start, property, value]);
  if (!(await writer.get(VALUES, inPeriod))) {
    writer.upsert(VALUES, { id: inPeriod });
    bucket.countValues('distinct', property, 1);
  }
  const everId = JSON.stringify([subscriptionId, meter, property, value]);
  const ever = await writer.get<{ id: string; period_start: string }>(FIRST_SEEN, everId);
  if (ever && ever.period_start <= period.start) return;
  // An earlier period has it now: it was first seen there, not where it was counted before.
  if (ever) (await tally.stored(subscriptionId, meter, ever.period_start))?.countValues('first_seen', property, -1);
  writer.upsert(FIRST_SEEN, { id: everId, period_start: period.start });
  bucket.countValues('first_seen', property, 1);
}
