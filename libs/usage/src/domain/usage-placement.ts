import { periodAt, type Cadence, type Period } from '@tally/subscriptions/published';
import type { UsageRecord } from './usage.events';

/** A late event may still be rebilled this long after its period closed (the spec's 24 hours). */
export const REBILL_WINDOW_MS = 24 * 3_600_000;

/** A period that closed, and when, on the subscription's clock. */
export type ClosedPeriod = Period & { closed_at: string };

/** What the usage projection knows of a subscription's periods: when the first began, its cycle and the period open now. */
export interface UsagePeriods {
  started: string;
  anchor: string;
  cadence: Cadence;
  open: Period;
}

/**
 * The period an event counts in, decided in log order. An event of the open period (or of a
 * later one, when its close has not been recorded yet) counts in its own period; an event dated
 * in an earlier period arrived after that period closed: it is late, and counts in the open
 * period (the `next_period` rule). One dated before the subscription began had no period: it
 * counts in the open one, not as late.
 */
export function placeUsage(periods: UsagePeriods, timestamp: string): { period: Period; late: boolean } {
  const { open } = periods;
  if (timestamp < open.start) return { period: open, late: timestamp >= periods.started };
  if (timestamp < open.end) return { period: open, late: false };
  const { start, end } = periodAt(periods.anchor, periods.cadence, timestamp);
  return { period: { start, end }, late: false };
}

/** Under `rebill`, a late event of the period that closed last, received within 24 hours of its close, may still be billed in it. */
export const mayRebill = (record: UsageRecord, closed: ClosedPeriod): boolean =>
  record.timestamp >= closed.start && record.timestamp < closed.end && Date.parse(record.received_at) - Date.parse(closed.closed_at) <= REBILL_WINDOW_MS;
