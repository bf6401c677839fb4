import { DomainError } from './domain-error';

// [0-9] rather than \d: the OpenAPI document shows these patterns, and in some regex dialects \d matches any script's digits.
const DATE = '[0-9]{4}-[0-9]{2}-[0-9]{2}';
const TIME_WITH_ZONE = 'T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\\.[0-9]{1,9})?(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])';

/** A moment with its time zone: `2026-06-01T00:00:00Z`, `2026-06-01T02:00:00.000+02:00`. Without one it would be the server's local time. */
export const TIMESTAMP = new RegExp(`^${DATE}${TIME_WITH_ZONE}$`);
/** A date, read as midnight UTC where a moment is expected. */
export const DATE_ONLY = new RegExp(`^${DATE}$`);

/**
 * The years a client's dates and timestamps fall in, as written (in their own zone): 2000 to 2099.
 * What Tally computes from them (a two-year trial, a year's period, a two-year advance of a test
 * clock) stays inside RFC 3339's four-digit years, and a read over a period stays a bounded number
 * of days. A written year rather than an instant, so that the API document's pattern states the
 * rule exactly. See docs/decisions.md.
 */
export const TIME_RANGE = { firstYear: 2000, lastYear: 2099 } as const;
const YEAR_IN_RANGE = '20[0-9]{2}';
const DATE_IN_RANGE = `${YEAR_IN_RANGE}-[0-9]{2}-[0-9]{2}`;
/** TIMESTAMP in TIME_RANGE: the pattern the API document shows for a timestamp a client sends. */
export const TIMESTAMP_IN_RANGE = new RegExp(`^${DATE_IN_RANGE}${TIME_WITH_ZONE}$`);
/** DATE_ONLY in TIME_RANGE. */
export const DATE_ONLY_IN_RANGE = new RegExp(`^${DATE_IN_RANGE}$`);

const STARTS_IN_RANGE = new RegExp(`^${YEAR_IN_RANGE}-`);
/** Whether a DATE_ONLY or TIMESTAMP is written in a year of TIME_RANGE. */
export const isWithinTimeRange = (value: string): boolean => STARTS_IN_RANGE.test(value);

/** The stable code of a date or timestamp outside TIME_RANGE. */
export const TIMESTAMP_OUT_OF_RANGE = 'request.timestamp_out_of_range';
export const timestampOutOfRangeMessage = (field: string): string => `${field} is outside the years ${TIME_RANGE.firstYear} to ${TIME_RANGE.lastYear} that Tally takes`;

/** A date or timestamp outside TIME_RANGE: 400 `request.timestamp_out_of_range`, naming its field. */
export function timestampOutOfRange(field: string): DomainError {
  const message = timestampOutOfRangeMessage(field);
  return DomainError.invalid(TIMESTAMP_OUT_OF_RANGE, message, [{ field, code: TIMESTAMP_OUT_OF_RANGE, message }]);
}

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
