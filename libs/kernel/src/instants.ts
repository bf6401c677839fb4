// [0-9] rather than \d: the OpenAPI document shows these patterns, and in some regex dialects \d matches any script's digits.
const DATE = '[0-9]{4}-[0-9]{2}-[0-9]{2}';
const TIME_WITH_ZONE = 'T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]{1,9})?(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])';

/** A moment with its time zone: `2026-06-01T00:00:00Z`, `2026-06-01T02:00:00.000+02:00`. Without one it would be the server's local time. */
export const TIMESTAMP = new RegExp(`^${DATE}${TIME_WITH_ZONE}$`);
/** A date, read as midnight UTC where a moment is expected. */
export const DATE_ONLY = new RegExp(`^${DATE}$`);

/** The UTC form with milliseconds that events and read models store, so text order is time order. */
export const toUtcTimestamp = (timestamp: string): string => new Date(timestamp).toISOString();

/**
 * A query parameter's moment: a date (midnight UTC) or a TIMESTAMP. `Date` would roll February 30
 * over to March 2, so the date is checked against the calendar first.
 */
export function parseInstant(value: string): Date | undefined {
  if (!DATE_ONLY.test(value) && !TIMESTAMP.test(value)) return undefined;
  const [year, month, day] = value.slice(0, 10).split('-').map(Number);
  return month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month) ? new Date(value) : undefined;
}

/** `Date.UTC` would read the years 0–99 as 1900–1999, so the year is set on its own. */
function daysIn(year: number, month: number): number {
  const lastDay = new Date(0);
  lastDay.setUTCFullYear(year, month, 0);
  return lastDay.getUTCDate();
}
