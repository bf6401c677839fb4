import { periodEnd } from './billing-period';

describe('periodEnd', () => {
  it.each([
    ['2026-01-15T10:00:00.000Z', 'month', 1, '2026-02-15T10:00:00.000Z'],
    ['2026-01-31T00:00:00.000Z', 'month', 1, '2026-02-28T00:00:00.000Z'],
    ['2028-01-31T00:00:00.000Z', 'month', 1, '2028-02-29T00:00:00.000Z'],
    ['2026-11-30T23:59:59.999Z', 'month', 3, '2027-02-28T23:59:59.999Z'],
    ['2028-02-29T12:00:00.000Z', 'year', 1, '2029-02-28T12:00:00.000Z'],
    ['2026-03-28T00:00:00.000Z', 'week', 2, '2026-04-11T00:00:00.000Z'],
    ['2026-12-31T06:00:00.000Z', 'day', 1, '2027-01-01T06:00:00.000Z'],
  ] as const)('a period from %s of %s × %d ends at %s', (start, interval, count, end) => {
    expect(periodEnd(start, interval, count)).toBe(end);
  });
});
