import { periodAt, type Cadence, type Period } from '@tally/subscriptions/published';

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
