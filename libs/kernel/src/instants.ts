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
  return isCalendarDay(value) ? new Date(value) : undefined;
}

/** The form toUtcTimestamp gives, which most clients send back. */
const UTC_MILLIS = new RegExp(`^${DATE}T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]\\.[0-9]{3}Z$`);

/**
 * A TIMESTAMP (not a date alone) in the stored UTC form with milliseconds (finer digits dropped),
 * or undefined. Input already in that form, as most is, is taken as it is once its day is on the
 * calendar: no Date is made for it.
 */
export function utcTimestampOf(value: string): string | undefined {
  if (UTC_MILLIS.test(value)) return isCalendarDay(value) ? value : undefined;
  return TIMESTAMP.test(value) ? parseInstant(value)?.toISOString() : undefined;
}

/** Whether the YYYY-MM-DD that `value` begins with (digits, as the patterns check) is a day of the (proleptic Gregorian) calendar. */
function isCalendarDay(value: string): boolean {
  const year = digitsAt(value, 0, 4);
  const month = digitsAt(value, 5, 2);
  const day = digitsAt(value, 8, 2);
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return day <= (month === 2 ? (leap ? 29 : 28) : DAYS_IN_MONTH[month - 1]);
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** The number `count` ASCII digits spell from `start`; read without a substring, since every usage event's timestamp passes here. */
function digitsAt(value: string, start: number, count: number): number {
  let number = 0;
  for (let i = start; i < start + count; i++) number = number * 10 + value.charCodeAt(i) - 48;
  return number;
}
