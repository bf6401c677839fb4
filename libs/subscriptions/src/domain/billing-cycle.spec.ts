import { boundary, periodAt, wholePeriodOf, type Cadence } from './billing-cycle';

const monthly: Cadence = { interval: 'month', count: 1 };

describe('the billing cycle', () => {
  it('keeps a month-end anchor: 31 January renews on 29 February, 31 March and 30 April of a leap year', () => {
    const anchor = '2028-01-31T09:30:00.000Z';
    expect([1, 2, 3, 4, 12].map((n) => boundary(anchor, monthly, n))).toEqual([
      '2028-02-29T09:30:00.000Z',
      '2028-03-31T09:30:00.000Z',
      '2028-04-30T09:30:00.000Z',
      '2028-05-31T09:30:00.000Z',
      '2029-01-31T09:30:00.000Z',
    ]);
    expect(boundary('2027-01-31T00:00:00.000Z', monthly, 1)).toBe('2027-02-28T00:00:00.000Z');
  });

  it('renews a yearly cycle anchored on 29 February on 28 February, and on 29 February again in the next leap year', () => {
    const yearly: Cadence = { interval: 'year', count: 1 };
    expect([1, 3, 4].map((n) => boundary('2028-02-29T00:00:00.000Z', yearly, n))).toEqual(['2029-02-28T00:00:00.000Z', '2031-02-28T00:00:00.000Z', '2032-02-29T00:00:00.000Z']);
  });

  it('counts days and weeks in exact days, and intervals of several units', () => {
    expect(boundary('2026-03-28T12:00:00.000Z', { interval: 'week', count: 2 }, 1)).toBe('2026-04-11T12:00:00.000Z');
    expect(boundary('2026-03-28T12:00:00.000Z', { interval: 'day', count: 10 }, 3)).toBe('2026-04-27T12:00:00.000Z');
    expect(boundary('2026-11-30T00:00:00.000Z', { interval: 'month', count: 3 }, 1)).toBe('2027-02-28T00:00:00.000Z');
    expect(boundary('2026-11-30T00:00:00.000Z', { interval: 'month', count: 3 }, 2)).toBe('2027-05-30T00:00:00.000Z');
  });

  it('finds the period holding a moment: a boundary starts the next period', () => {
    const anchor = '2028-01-31T00:00:00.000Z';
    expect(periodAt(anchor, monthly, anchor)).toEqual({ index: 0, start: anchor, end: '2028-02-29T00:00:00.000Z' });
    expect(periodAt(anchor, monthly, '2028-02-28T23:59:59.999Z')).toEqual({ index: 0, start: anchor, end: '2028-02-29T00:00:00.000Z' });
    expect(periodAt(anchor, monthly, '2028-02-29T00:00:00.000Z')).toEqual({ index: 1, start: '2028-02-29T00:00:00.000Z', end: '2028-03-31T00:00:00.000Z' });
    expect(periodAt(anchor, monthly, '2030-07-15T00:00:00.000Z')).toEqual({ index: 29, start: '2030-06-30T00:00:00.000Z', end: '2030-07-31T00:00:00.000Z' });
    expect(periodAt('2026-01-01T00:00:00.000Z', { interval: 'week', count: 1 }, '2026-12-31T23:00:00.000Z')).toEqual({ index: 52, start: '2026-12-31T00:00:00.000Z', end: '2027-01-07T00:00:00.000Z' });
  });

  it('has no period before its anchor', () => {
    expect(() => periodAt('2026-01-01T00:00:00.000Z', monthly, '2025-12-31T23:59:59.999Z')).toThrow(RangeError);
  });

  it('tiles time: consecutive periods meet, over ten years of every cadence', () => {
    const cadences: Cadence[] = [monthly, { interval: 'month', count: 5 }, { interval: 'year', count: 1 }, { interval: 'week', count: 3 }, { interval: 'day', count: 1 }];
    const anchor = '2024-02-29T17:45:00.000Z';
    for (const cadence of cadences) {
      let at = anchor;
      for (let step = 0; step < 40; step++) {
        const period = periodAt(anchor, cadence, at);
        expect(period.start).toBe(at);
        expect(Date.parse(period.end)).toBeGreaterThan(Date.parse(period.start));
        at = period.end;
      }
    }
  });

  it('knows the whole period a first, shorter period is part of: the one before a later anchor, or the one holding the start', () => {
    // Created on 16 January with an anchor on 1 February: 16 of January's 31 days.
    expect(wholePeriodOf({ start: '2026-01-16T00:00:00.000Z', end: '2026-02-01T00:00:00.000Z' }, '2026-02-01T00:00:00.000Z', monthly)).toEqual({ start: '2026-01-01T00:00:00.000Z', end: '2026-02-01T00:00:00.000Z' });
    // A trial ending on 20 January in a cycle anchored on 5 January: the period from 5 January to 5 February.
    expect(wholePeriodOf({ start: '2026-01-20T00:00:00.000Z', end: '2026-02-05T00:00:00.000Z' }, '2026-01-05T00:00:00.000Z', monthly)).toEqual({ start: '2026-01-05T00:00:00.000Z', end: '2026-02-05T00:00:00.000Z' });
    // A whole period, and a stub longer than a period (an anchor further than one interval away), have none.
    expect(wholePeriodOf({ start: '2026-01-05T00:00:00.000Z', end: '2026-02-05T00:00:00.000Z' }, '2026-01-05T00:00:00.000Z', monthly)).toBeNull();
    expect(wholePeriodOf({ start: '2026-01-05T00:00:00.000Z', end: '2026-03-01T00:00:00.000Z' }, '2026-03-01T00:00:00.000Z', monthly)).toBeNull();
  });
});
