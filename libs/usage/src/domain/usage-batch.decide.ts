import Big from 'big.js';
import { DomainError, type ErrorKind, type FieldError } from '@tally/kernel';
import { USAGE_QUANTITY_LIMIT, type Pricing } from '@tally/catalog/published';
import type { UsageRecord } from './usage.events';
import type { UsageDraft } from './usage-event.parse';

const DAY_MS = 86_400_000;
/** How far back an event may be dated, and so how long a duplicate is certain to be recognised: Stripe's 35 days. */
export const USAGE_BACKDATE_MS = 35 * DAY_MS;
/** How far ahead of the subscription's clock an event may be dated (Stripe's 5 minutes). */
export const USAGE_FUTURE_MS = 5 * 60_000;

/**
 * What accepting usage for one subscription depends on, read by the handler: its usage meters,
 * each with the largest quantity, either way, one event of it may carry (eventQuantityBound);
 * `clockId` is the sandbox test clock it lives on.
 */
export type MeteredSubscription =
  | { exists: false }
  | { exists: true; ended: boolean; meters: ReadonlyMap<string, Big>; rebillMeters: ReadonlySet<string>; now: Date; clockId?: string };

/** The aggregations an event's quantity counts in; `count` and `unique_count` count events. */
const QUANTITY_AGGREGATIONS: ReadonlySet<string> = new Set(['sum', 'max', 'last_during_period', 'weighted_sum']);

/**
 * The largest quantity, either way, one event of a meter may carry: what its components can bill
 * within the money limits (`billableMax`) when the aggregation counts the quantity, else what a
 * line can hold. Their sums may still go beyond: a period's aggregate is billed up to the bound.
 */
export const eventQuantityBound = (aggregation: Extract<Pricing, { model: 'usage' }>['aggregation'], billableMax: Big): Big =>
  QUANTITY_AGGREGATIONS.has(aggregation) ? billableMax : USAGE_QUANTITY_LIMIT;

/**
 * The failures that depend on what the events name, in the order in which they choose a batch's
 * status; any other failure is a field that is not valid, which comes first.
 */
const SEVERITY: readonly string[] = [
  'usage.subscription_not_found',
  'track.no_subscription',
  'track.ambiguous_subscription',
  'usage.subscription_canceled',
  'usage.meter_not_on_subscription',
  'usage.timestamp_out_of_range',
  'usage.quantity_out_of_range',
];

/** Where a problem of the event at `index` is named: `events[3].meter`, or `meter` for a body that is the event itself. */
export type EventField = (index: number, field: string) => string;

/** Names the fields of the event at `index` under `at(index)` (`events[3]`, or '' for a body that is the event itself). */
export const eventField =
  (at: (index: number) => string): EventField =>
  (index, field) =>
    at(index) === '' ? field : `${at(index)}.${field}`;

/**
 * Accepts a whole batch or nothing: every event must name a subscription of the tenant that still
 * bills, a meter of one of its plan's usage components, and a moment within the backdating window
 * of the subscription's clock. `drafts` holds a hole for each event that failed before (its
 * problems in `earlier`); the refusal names every failing event, those included.
 */
export function acceptUsageBatch(
  drafts: readonly ((UsageDraft & { external_id: string }) | undefined)[],
  subscriptions: ReadonlyMap<string, MeteredSubscription>,
  fieldOf: EventField,
  earlier: readonly FieldError[] = [],
): UsageRecord[] {
  const problems: FieldError[] = [...earlier];
  const windows = new Map<MeteredSubscription, UsageWindow>();
  const records: UsageRecord[] = [];
  for (const [index, draft] of drafts.entries()) {
    if (draft === undefined) continue;
    const subscription = subscriptions.get(draft.subscription_id) ?? { exists: false };
    let window = windows.get(subscription);
    if (window === undefined) windows.set(subscription, (window = usageWindowOf(subscription)));
    const ofMeter = meterProblems(subscription, draft.subscription_id, draft.meter);
    const ofTime = timestampProblems(subscription, window, draft.timestamp);
    const ofQuantity = quantityProblems(subscription, draft.meter, draft.quantity);
    for (const problem of [...ofMeter, ...ofTime, ...ofQuantity]) problems.push({ ...problem, field: fieldOf(index, problem.field) });
    records.push(record(draft, subscription, window.receivedAt));
  }
  if (problems.length > 0) throw usageRefused(problems);
  return records;
}

/** What a batch works out once per subscription: its now in the stored form, and the moments it takes usage at (epoch ms). */
interface UsageWindow {
  receivedAt: string;
  earliest: number;
  latest: number;
}

function usageWindowOf(subscription: MeteredSubscription): UsageWindow {
  const now = subscription.exists ? subscription.now : new Date(0);
  return { receivedAt: now.toISOString(), earliest: now.getTime() - USAGE_BACKDATE_MS, latest: now.getTime() + USAGE_FUTURE_MS };
}

function isWithin(window: UsageWindow, timestamp: string): boolean {
  const time = Date.parse(timestamp);
  return time >= window.earliest && time <= window.latest;
}

/** What an event that passes a check answers: one shared empty list, since nearly every event passes and a batch checks a thousand. */
const NONE: readonly FieldError[] = Object.freeze([]);

/** Why the subscription takes no usage of `meter`: it does not exist (for the tenant), it ended, or its plan does not meter it. */
export function meterProblems(subscription: MeteredSubscription, subscriptionId: string, meter: string): readonly FieldError[] {
  if (!subscription.exists) return [{ field: 'subscription_id', code: 'usage.subscription_not_found', message: `no subscription ${subscriptionId}` }];
  if (subscription.ended) return [{ field: 'subscription_id', code: 'usage.subscription_canceled', message: `subscription ${subscriptionId} is canceled or ended: it takes no more usage` }];
  if (!subscription.meters.has(meter)) return [{ field: 'meter', code: 'usage.meter_not_on_subscription', message: `no usage component of the subscription's plan has the meter ${meter}` }];
  return NONE;
}

function timestampProblems(subscription: MeteredSubscription, window: UsageWindow, timestamp: string): readonly FieldError[] {
  if (!subscription.exists || subscription.ended || isWithin(window, timestamp)) return NONE;
  return [{ field: 'timestamp', code: 'usage.timestamp_out_of_range', message: `must be at most 35 days before and 5 minutes after the subscription's now (${subscription.now.toISOString()})` }];
}

function quantityProblems(subscription: MeteredSubscription, meter: string, quantity: string): readonly FieldError[] {
  const bound = subscription.exists ? subscription.meters.get(meter) : undefined;
  if (bound === undefined || new Big(quantity).abs().lte(bound)) return NONE;
  return [{ field: 'quantity', code: 'usage.quantity_out_of_range', message: `must be at most ${bound.toFixed()} either way for meter ${meter}: more could not be billed within the money limits` }];
}

/** `receivedAt`: the subscription's now, in the stored form. */
function record(draft: UsageDraft & { external_id: string }, subscription: MeteredSubscription, receivedAt: string): UsageRecord {
  return {
    subscription_id: draft.subscription_id,
    meter: draft.meter,
    quantity: draft.quantity,
    timestamp: draft.timestamp,
    external_id: draft.external_id,
    properties: draft.properties,
    received_at: receivedAt,
    ...(subscription.exists && subscription.rebillMeters.has(draft.meter) && { rebill: true as const }),
  };
}

/**
 * The refusal of usage with these problems, none of it stored: its code (and status) is that of
 * the first field that is not valid (a field the edge refuses is its usual `request.invalid_body`),
 * else the first kind in SEVERITY order. `errors` lists every problem, event by event.
 */
export function usageRefused(problems: readonly FieldError[]): DomainError {
  const invalid = problems.find((problem) => !SEVERITY.includes(problem.code));
  const code = invalid ? (invalid.code.startsWith('field.') ? 'request.invalid_body' : invalid.code) : SEVERITY.find((candidate) => problems.some((p) => p.code === candidate))!;
  const byEvent = [...problems].sort((a, b) => eventIndex(a.field) - eventIndex(b.field));
  const detail = `The usage was refused and nothing was stored: ${byEvent.map((p) => `${p.field} ${p.message}`).join('; ')}`;
  return new DomainError(code, KIND[code] ?? 'invalid', detail, byEvent);
}

/** The index of the batch event a field names (`events[3].meter`: 3), -1 for a body that is the event itself. */
const eventIndex = (field: string): number => Number(/^\w+\[(\d+)\]/.exec(field)?.[1] ?? -1);

const KIND: Readonly<Record<string, ErrorKind>> = {
  'usage.subscription_not_found': 'not_found',
  'usage.subscription_canceled': 'conflict',
  'usage.meter_not_on_subscription': 'unprocessable',
  'track.no_subscription': 'conflict',
  'track.ambiguous_subscription': 'conflict',
};
