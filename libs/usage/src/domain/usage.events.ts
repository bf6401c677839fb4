import type { Event } from '@tally/kernel';

/**
 * One usage event as stored: validated and normalised. `quantity` is a plain decimal (negative
 * for a correction), `timestamp` the moment it measures (UTC, milliseconds), `received_at` when
 * Tally accepted it on the subscription's clock. `properties` is user-keyed: read it into a
 * null-prototype object.
 */
export interface UsageRecord {
  subscription_id: string;
  meter: string;
  quantity: string;
  timestamp: string;
  external_id: string;
  properties: Record<string, string> | null;
  received_at: string;
}

/** A batch accepted whole: one event on the tenant's ingest stream, so "all or none" holds on every store. */
export type UsageBatchAccepted = Event<'UsageBatchAccepted', { batch_id: string; events: UsageRecord[] }>;

export type UsageEvent = UsageBatchAccepted;
