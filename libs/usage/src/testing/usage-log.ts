import type { RecordedEvent } from '@tally/eventstore';
import { testMetadata } from '@tally/cells/testing/temp-cells';
import type { UsageRecord } from '../domain/usage.events';

/** The log the usage projection follows, as its specs write it: one subscription, June and July. */
export const SUB = 'sub_1';
export const JUNE = { start: '2026-06-01T00:00:00.000Z', end: '2026-07-01T00:00:00.000Z' };
export const JULY = { start: '2026-07-01T00:00:00.000Z', end: '2026-08-01T00:00:00.000Z' };
let position = 0n;

export const recorded = (type: string, data: object, occurred_at = JULY.start): RecordedEvent => ({ id: `${position}`, type, data, stream: 'x', revision: 0, position: ++position, metadata: testMetadata(occurred_at) });

export const created = () =>
  recorded('SubscriptionCreated', { subscription_id: SUB, billing_cycle_anchor: JUNE.start, cadence: { interval: 'month', count: 1 }, period_start: JUNE.start, period_end: JUNE.end });
export const renewed = () => recorded('SubscriptionRenewed', { subscription_id: SUB, period_start: JULY.start, period_end: JULY.end });
/** `accepted_at`: when the log took the batch (its event's `occurred_at`). */
export const batch = (events: UsageRecord[], batch_id = 'ubat_1', accepted_at = JULY.start) => recorded('UsageBatchAccepted', { batch_id, events }, accepted_at);
export const settled = (outcome: 'rebilled' | 'deferred', batch_id = 'ubat_1') =>
  recorded('LateUsageSettled', { subscription_id: SUB, period_start: JUNE.start, period_end: JUNE.end, batch_id, outcome, voided_invoice_id: outcome === 'rebilled' ? 'in_1' : null });

export const usage = (external_id: string, quantity: string, timestamp: string, properties: Record<string, string> | null = null, received_at = timestamp): UsageRecord => ({
  subscription_id: SUB,
  meter: 'calls',
  quantity,
  timestamp,
  external_id,
  properties,
  received_at,
});
export const rebillable = (external_id: string, received_at: string): UsageRecord => ({ ...usage(external_id, '3', '2026-06-30T00:00:00.000Z', null, received_at), rebill: true });
