import Big from 'big.js';
import { AMOUNT_FRACTION_DIGITS, keyedObject } from '@tally/kernel';
import type { Pricing } from '@tally/catalog/published';
import type { Period } from '@tally/subscriptions/published';
import type { UsageRecord } from './usage.events';
import { fromScaled, toScaled } from './scaled-quantity';

/** How a usage component reads its meter: the aggregation, whether it resets each period, and for unique_count the property. */
export type MeterSpec = Pick<Extract<Pricing, { model: 'usage' }>, 'aggregation' | 'usage_cycle' | 'unique_property'>;

/**
 * The running aggregates of one meter of one subscription over one period: every aggregation at
 * once, so a plan may price any of them and a change of plan needs no recount. Each is
 * independent of the order its events arrive in.
 */
export interface UsageBucket {
  subscription_id: string;
  meter: string;
  period: Period;
  /** Events counted (duplicates never are). */
  count: number;
  sum: string;
  max: string | null;
  /** The latest event by timestamp, ties broken by external id. */
  last: { timestamp: string; external_id: string; quantity: string } | null;
  /** Σ quantity × (period end − timestamp) in milliseconds: each quantity weighted by how long it was in use. */
  weighted_ms: string;
  /** Per property: distinct values seen in this period (user-keyed). */
  distinct: Record<string, number>;
  /** Per property: values seen for the first time in the subscription's life in this period (user-keyed). */
  first_seen: Record<string, number>;
  /** Events that arrived after their own period closed and count here instead. */
  late_events: number;
}

export function emptyBucket(subscriptionId: string, meter: string, period: Period): UsageBucket {
  return { subscription_id: subscriptionId, meter, period, count: 0, sum: '0', max: null, last: null, weighted_ms: '0', distinct: keyedObject(), first_seen: keyedObject(), late_events: 0 };
}

/**
 * A bucket taking events. Its decimals are held as exact integers while it takes them and are
 * written out once, by `toBucket`, however many events it took: the usage projection counts a
 * whole batch of events into its buckets, then stores each bucket once.
 */
export class RunningBucket {
  private count: number;
  private sum: bigint;
  private max: bigint | null;
  private last: UsageBucket['last'];
  private weighted: bigint;
  private lateEvents: number;
  private readonly distinct: Record<string, number>;
  private readonly firstSeen: Record<string, number>;
  private readonly start: number;
  private readonly end: number;

  constructor(private readonly bucket: UsageBucket) {
    this.count = bucket.count;
    this.sum = toScaled(bucket.sum);
    this.max = bucket.max === null ? null : toScaled(bucket.max);
    this.last = bucket.last;
    this.weighted = toScaled(bucket.weighted_ms);
    this.lateEvents = bucket.late_events;
    this.distinct = keyedObject(Object.entries(bucket.distinct));
    this.firstSeen = keyedObject(Object.entries(bucket.first_seen));
    this.start = Date.parse(bucket.period.start);
    this.end = Date.parse(bucket.period.end);
  }

  /** One more event (not a duplicate). */
  add(record: UsageRecord, late: boolean): void {
    const quantity = toScaled(record.quantity);
    const inUse = Math.max(0, this.end - Math.max(Date.parse(record.timestamp), this.start));
    this.count += 1;
    this.sum += quantity;
    if (this.max === null || quantity > this.max) this.max = quantity;
    if (isLater(record, this.last)) this.last = { timestamp: record.timestamp, external_id: record.external_id, quantity: record.quantity };
    if (inUse > 0) this.weighted += quantity * BigInt(inUse);
    if (late) this.lateEvents += 1;
  }

  /** `by` more (or fewer) values of `property` under `counter`. */
  countValues(counter: 'distinct' | 'first_seen', property: string, by: number): void {
    const counts = counter === 'distinct' ? this.distinct : this.firstSeen;
    counts[property] = countOf(counts, property) + by;
  }

  toBucket(): UsageBucket {
    return {
      ...this.bucket,
      count: this.count,
      sum: fromScaled(this.sum),
      max: this.max === null ? null : fromScaled(this.max),
      last: this.last,
      weighted_ms: fromScaled(this.weighted),
      distinct: keyedObject(Object.entries(this.distinct)),
      first_seen: keyedObject(Object.entries(this.firstSeen)),
      late_events: this.lateEvents,
    };
  }
}

type Dated = { timestamp: string; external_id: string };

const isLater = (candidate: Dated, last: Dated | null): boolean =>
  last === null || candidate.timestamp > last.timestamp || (candidate.timestamp === last.timestamp && candidate.external_id > last.external_id);

/** A user-keyed count; buckets read back from a store are plain objects, where `__proto__` is not a count. */
const countOf = (counts: Record<string, number>, property: string): number => (Object.hasOwn(counts, property) ? counts[property] : 0);

/** What a meter reads for a period: the quantity its component prices, the events behind it, and how many of them came late. */
export interface MeterReading {
  quantity: Big;
  events: number;
  late_events: number;
}

/**
 * The bucket's Σ quantity × (end − timestamp) with `end` the end of the period read: a period cut
 * short (closed by a cancellation, or read as if it closed now) holds each level only up to its own
 * end, not the bucket's.
 */
function weightedUpTo(bucket: UsageBucket | undefined, end: string): Big {
  if (!bucket) return new Big(0);
  const cut = Date.parse(bucket.period.end) - Date.parse(end);
  return cut > 0 ? new Big(bucket.weighted_ms).minus(new Big(bucket.sum).times(cut)) : new Big(bucket.weighted_ms);
}

/**
 * What a reading bills, and so what the usage summary shows: to 8 decimal places (half-even), the
 * money limits' own, and at most `max`, what the meter's components can bill within those limits.
 * Usage accepted beyond it (each event within its bound, their sum not) is billed at the bound.
 */
export function billable(reading: MeterReading, max: Big): MeterReading {
  const quantity = reading.quantity.round(AMOUNT_FRACTION_DIGITS, Big.roundHalfEven);
  return { ...reading, quantity: quantity.gt(max) ? max : quantity };
}

/** A weighted sum is exact until divided by the period's length, then kept to 12 decimal places. */
const WEIGHTED_PLACES = 12;

/**
 * Reads `spec` for `period` from the subscription's buckets of that meter: for a usage cycle
 * `period`, the period's own; for `never` (a counter that does not reset), every bucket up to the
 * period's. Buckets after the period are ignored.
 */
export function readMeter(spec: MeterSpec, buckets: readonly UsageBucket[], period: Period): MeterReading {
  const own = buckets.find((bucket) => bucket.period.start === period.start);
  const counted = spec.usage_cycle === 'never' ? buckets.filter((bucket) => bucket.period.start <= period.start) : own ? [own] : [];
  const events = counted.reduce((total, bucket) => total + bucket.count, 0);
  const late = own?.late_events ?? 0;
  return { quantity: quantityOf(spec, counted, own, period), events, late_events: late };
}

function quantityOf(spec: MeterSpec, counted: readonly UsageBucket[], own: UsageBucket | undefined, period: Period): Big {
  const total = (read: (bucket: UsageBucket) => Big.BigSource) => counted.reduce((sum, bucket) => sum.plus(read(bucket)), new Big(0));
  switch (spec.aggregation) {
    case 'sum':
      return total((bucket) => bucket.sum);
    case 'count':
      return total((bucket) => bucket.count);
    case 'max':
      return counted.reduce<Big | null>((max, bucket) => (bucket.max !== null && (max === null || max.lt(bucket.max)) ? new Big(bucket.max) : max), null) ?? new Big(0);
    case 'last_during_period': {
      const last = counted.reduce<UsageBucket['last']>((latest, bucket) => (bucket.last && isLater(bucket.last, latest) ? bucket.last : latest), null);
      return new Big(last?.quantity ?? 0);
    }
    case 'unique_count': {
      // Without a property: distinct events, each external id once, as dedupe merges copies.
      if (spec.unique_property === null) return total((bucket) => bucket.count);
      const property = spec.unique_property;
      return spec.usage_cycle === 'never' ? total((bucket) => countOf(bucket.first_seen, property)) : new Big(own ? countOf(own.distinct, property) : 0);
    }
    case 'weighted_sum': {
      const length = Date.parse(period.end) - Date.parse(period.start);
      const inPeriod = length > 0 ? weightedUpTo(own, period.end).div(length).round(WEIGHTED_PLACES, Big.roundHalfEven) : new Big(0);
      // A level that does not reset carries what earlier periods left in use through the whole period.
      const carried = spec.usage_cycle === 'never' ? total((bucket) => (bucket.period.start < period.start ? bucket.sum : 0)) : new Big(0);
      return inPeriod.plus(carried);
    }
  }
}
