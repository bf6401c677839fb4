import { applyDecorators } from '@nestjs/common';
import { IsISO8601, Matches } from 'class-validator';

/** A moment with its time zone: `2026-06-01T00:00:00Z`, `2026-06-01T02:00:00.000+02:00`. Without one it would be the server's local time. */
const WITH_TIME_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;

/** A body field holding an ISO 8601 timestamp with a time zone, and a real date (no February 30). */
export const IsTimestamp = (): PropertyDecorator =>
  applyDecorators(
    IsISO8601({ strict: true }, { message: '$property is an ISO 8601 timestamp' }),
    Matches(WITH_TIME_ZONE, { message: '$property is an ISO 8601 timestamp with a time zone, e.g. 2026-06-01T00:00:00Z' }),
  );

/** The UTC form with milliseconds that events and read models store, so text order is time order. */
export const toUtcTimestamp = (timestamp: string): string => new Date(timestamp).toISOString();

const INSTANT = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(?:\.\d{1,9})?(?:Z|[+-](\d{2}):(\d{2})))?$/;

/**
 * A query parameter's moment: a date (midnight UTC) or a date-time with its zone. `Date` would
 * roll February 30 over to March 2, so every part is checked against the calendar first.
 */
export function parseInstant(value: string): Date | undefined {
  const parts = INSTANT.exec(value)?.slice(1).map((part) => Number(part ?? 0));
  if (!parts) return undefined;
  const [year, month, day, hour, minute, second, offsetHours, offsetMinutes] = parts;
  const real = month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month) && hour <= 23 && minute <= 59 && second <= 59 && offsetHours <= 23 && offsetMinutes <= 59;
  return real ? new Date(value) : undefined;
}

const daysIn = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();
