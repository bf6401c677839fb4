import fc from 'fast-check';
import { DATE_ONLY_IN_RANGE, isWithinTimeRange, parseInstant, TIMESTAMP_IN_RANGE, utcTimestampOf } from './instants';

describe('instants', () => {
  it('reads a query moment as a date at midnight UTC or a timestamp with its zone, on the calendar of every year', () => {
    expect(parseInstant('2026-06-01')?.toISOString()).toBe('2026-06-01T00:00:00.000Z');
    expect(parseInstant('2026-06-01T02:00:00+02:00')?.toISOString()).toBe('2026-06-01T00:00:00.000Z');
    expect(parseInstant('0000-02-29')).toBeDefined();
    expect(parseInstant('1900-02-29')).toBeUndefined();
    expect(parseInstant('0100-02-29')).toBeUndefined();
  });

  it('gives a timestamp in the stored UTC form, taking that form as it is and refusing days the calendar lacks', () => {
    expect(utcTimestampOf('2026-06-01T12:00:00.123Z')).toBe('2026-06-01T12:00:00.123Z');
    expect(utcTimestampOf('2026-06-01T14:00:00.123456+02:00')).toBe('2026-06-01T12:00:00.123Z');
    expect(utcTimestampOf('2026-06-01T12:00:00Z')).toBe('2026-06-01T12:00:00.000Z');
    expect(utcTimestampOf('0050-01-01T00:00:00.000Z')).toBe('0050-01-01T00:00:00.000Z');
    for (const refused of ['2026-02-29T00:00:00.000Z', '2026-04-31T00:00:00.000Z', '2026-06-01', '2026-06-01T24:00:00.000Z', '2026-06-01T12:00:00.000', '2026-06-01T12:00:00.000z']) {
      expect(utcTimestampOf(refused)).toBeUndefined();
    }
  });

  it('takes the years 2000 to 2099 as written, in any zone, and the API document’s patterns say the same', () => {
    const inRange = ['2000-01-01', '2099-12-31', '2000-01-01T00:00:00+14:00', '2099-12-31T23:59:59.999-12:00', '2026-06-01T00:00:00Z'];
    const outOfRange = ['1999-12-31', '2100-01-01', '0001-01-01T00:00:00Z', '1969-12-31T23:59:59Z', '1999-12-31T23:59:59-12:00', '9999-12-31T23:59:59Z'];
    const pattern = (value: string) => (value.length === 10 ? DATE_ONLY_IN_RANGE : TIMESTAMP_IN_RANGE).test(value);
    expect(inRange.map((value) => [isWithinTimeRange(value), pattern(value)])).toEqual(inRange.map(() => [true, true]));
    expect(outOfRange.map((value) => [isWithinTimeRange(value), pattern(value)])).toEqual(outOfRange.map(() => [false, false]));
  });

  it('agrees with reading the moment through the calendar for any UTC timestamp with milliseconds', () => {
    const digits = (length: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: length, maxLength: length });
    const candidate = fc.tuple(digits(4), digits(2), digits(2), digits(2), digits(2), digits(2), digits(3)).map(([y, mo, d, h, mi, s, ms]) => `${y}-${mo}-${d}T${h}:${mi}:${s}.${ms}Z`);
    fc.assert(fc.property(candidate, (value) => expect(utcTimestampOf(value)).toBe(parseInstant(value)?.toISOString())), { numRuns: 2000 });
  });
});
