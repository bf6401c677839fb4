import { parseInstant } from './instants';

describe('instants', () => {
  it('reads a query moment as a date at midnight UTC or a timestamp with its zone, on the calendar of every year', () => {
    expect(parseInstant('2026-06-01')?.toISOString()).toBe('2026-06-01T00:00:00.000Z');
    expect(parseInstant('2026-06-01T02:00:00+02:00')?.toISOString()).toBe('2026-06-01T00:00:00.000Z');
    expect(parseInstant('0000-02-29')).toBeDefined();
    expect(parseInstant('1900-02-29')).toBeUndefined();
    expect(parseInstant('0100-02-29')).toBeUndefined();
  });
});
