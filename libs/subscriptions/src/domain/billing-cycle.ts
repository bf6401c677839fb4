import { periodEnd } from '@tally/catalog/published';

export type Interval = 'day' | 'week' | 'month' | 'year';

/** How often a subscription bills: every `count` intervals. */
export interface Cadence {
  interval: Interval;
  count: number;
}

/** A billing period, from its start (inclusive) to its end (exclusive), ISO 8601 UTC with milliseconds. */
export interface Period {
  start: string;
  end: string;
}

/**
 * The n-th boundary of a cycle anchored at `anchor`: the anchor moved n × cadence. Months count
 * from the anchor itself, never from the previous boundary, so a cycle anchored on 31 January
 * renews on 28 (or 29) February, 31 March and 30 April, as Stripe's does; time of day is kept.
 */
export function boundary(anchor: string, cadence: Cadence, n: number): string {
  return periodEnd(anchor, cadence.interval, cadence.count * n);
}

/**
 * The period of the cycle that holds `at` (at or after the anchor), and its place: period 0 starts
 * at the anchor.
 */
export function periodAt(anchor: string, cadence: Cadence, at: string): Period & { index: number } {
  const time = Date.parse(at);
  if (time < Date.parse(anchor)) throw new RangeError(`${at} is before the cycle's anchor ${anchor}`);
  let index = estimateIndex(anchor, cadence, at);
  while (Date.parse(boundary(anchor, cadence, index)) > time) index -= 1;
  while (Date.parse(boundary(anchor, cadence, index + 1)) <= time) index += 1;
  return { index, start: boundary(anchor, cadence, index), end: boundary(anchor, cadence, index + 1) };
}

/**
 * The whole cycle period that a first period is part of when it is shorter than the cycle's (a
 * stub: from creation or a trial's end up to the anchor, or up to the boundary after it); null
 * when the period is a whole one. A stub longer than a cycle period (an anchor further away than
 * one interval, as older subscriptions may have) has none either.
 */
export function wholePeriodOf(period: Period, anchor: string, cadence: Cadence): Period | null {
  const whole = Date.parse(period.end) <= Date.parse(anchor) ? { start: boundary(anchor, cadence, -1), end: anchor } : periodAt(anchor, cadence, period.start);
  return Date.parse(whole.start) < Date.parse(period.start) ? { start: whole.start, end: whole.end } : null;
}

const DAY_MS = 86_400_000;
const INTERVAL_DAYS: Record<Interval, number> = { day: 1, week: 7, month: 28, year: 365 };

/** A first guess at most a few periods off, so periodAt walks a step or two rather than from the anchor. */
function estimateIndex(anchor: string, cadence: Cadence, at: string): number {
  const from = new Date(anchor);
  const to = new Date(at);
  if (cadence.interval === 'month' || cadence.interval === 'year') {
    const months = (to.getUTCFullYear() - from.getUTCFullYear()) * 12 + (to.getUTCMonth() - from.getUTCMonth());
    return Math.max(0, Math.floor(months / (cadence.count * (cadence.interval === 'year' ? 12 : 1))));
  }
  return Math.floor((to.getTime() - from.getTime()) / (INTERVAL_DAYS[cadence.interval] * cadence.count * DAY_MS));
}
