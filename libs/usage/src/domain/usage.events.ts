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
  /** Set when the meter's component bills late events by `rebill`. */
  rebill?: true;
}

/** A batch accepted whole: one event on the tenant's ingest stream, so "all or none" holds on every store. */
export type UsageBatchAccepted = Event<'UsageBatchAccepted', { batch_id: string; events: UsageRecord[] }>;

/**
 * What became of a batch's late events for a closed period under `rebill`: `rebilled` (the
 * period's invoice was voided, and they count in their own period, to be billed by a corrected
 * invoice) or `deferred` (the invoice was paid or no longer open: they count in the open period).
 * Published: the subscriptions context issues the corrected invoice by reaction to a `rebilled`
 * one. `period_end` is null on events stored before it did (version 1: the handler that recorded
 * them issued the corrected invoice itself).
 */
export type LateUsageSettled = Event<
  'LateUsageSettled',
  { subscription_id: string; period_start: string; period_end: string | null; batch_id: string; outcome: 'rebilled' | 'deferred'; voided_invoice_id: string | null }
>;

export type UsageEvent = UsageBatchAccepted | LateUsageSettled;
