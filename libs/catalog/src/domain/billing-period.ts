import type { PlanInterval } from './plan.events';

const DAY_MS = 86_400_000;

/**
 * The end of a billing period that starts at `start` (ISO 8601 UTC), in UTC calendar arithmetic.
 * Months and years keep the start's day of the month, clamped to the month's last day, so a period
 * from 31 January ends on 28 (or 29) February; time of day is kept.
 */
export function periodEnd(start: string, interval: PlanInterval, count: number): string {
  const from = new Date(start);
  switch (interval) {
    case 'day':
      return new Date(from.getTime() + count * DAY_MS).toISOString();
    case 'week':
      return new Date(from.getTime() + count * 7 * DAY_MS).toISOString();
    case 'month':
      return addMonths(from, count).toISOString();
    case 'year':
      return addMonths(from, 12 * count).toISOString();
  }
}

function addMonths(from: Date, months: number): Date {
  const target = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(from.getUTCDate(), lastDay));
  target.setUTCHours(from.getUTCHours(), from.getUTCMinutes(), from.getUTCSeconds(), from.getUTCMilliseconds());
  return target;
}
