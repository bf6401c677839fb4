import type { PriceVersion } from './plan.events';
import { componentsInForce, lastEntryOf, scheduledChanges } from './price-book';

const JAN = '2026-01-01T00:00:00.000Z';
const FEB = '2026-02-01T00:00:00.000Z';
const MAR = '2026-03-01T00:00:00.000Z';

const entry = (version: number, component_code: string, change: PriceVersion['change'], amount: string | null, effective_at: string): PriceVersion => ({
  version,
  component_code,
  change,
  pricing: amount === null ? null : { model: 'flat', amount },
  tax_code: null,
  effective_at,
  created_at: JAN,
});

describe('the price book', () => {
  const book = [
    entry(1, 'base', 'added', '10', JAN),
    entry(2, 'support', 'added', '5', JAN),
    entry(3, 'base', 'changed', '12', MAR), // queued in January for March
    entry(4, 'support', 'removed', null, FEB),
    entry(5, 'base', 'changed', '11', JAN), // a change "now" while the March one stays queued
  ];

  it('prices a period with the newest entry per component that took effect by the period start', () => {
    expect(componentsInForce(book, JAN).map((c) => [c.code, c.pricing, c.price_version])).toEqual([
      ['base', { model: 'flat', amount: '11' }, 5],
      ['support', { model: 'flat', amount: '5' }, 2],
    ]);
    expect(componentsInForce(book, FEB).map((c) => [c.code, c.price_version])).toEqual([['base', 5]]);
    expect(componentsInForce(book, MAR).map((c) => [c.code, c.pricing, c.price_version])).toEqual([['base', { model: 'flat', amount: '12' }, 3]]);
  });

  it('has the components the plan was created with in force before it existed (a test clock may start earlier), and nothing else', () => {
    expect(componentsInForce(book, '2025-12-31T23:59:59.999Z').map((c) => [c.code, c.price_version])).toEqual([
      ['base', 1],
      ['support', 2],
    ]);
    const addedLater = [...book, { ...entry(6, 'extra', 'added', '3', FEB), created_at: FEB }];
    expect(componentsInForce(addedLater, JAN).map((c) => c.code)).toEqual(['base', 'support']);
  });

  it('lists what is still to take effect, in the order it will', () => {
    expect(scheduledChanges(book, JAN).map((e) => e.version)).toEqual([4, 3]);
    expect(scheduledChanges(book, MAR)).toEqual([]);
  });

  it('finds a component’s last entry in its own timeline', () => {
    expect(lastEntryOf(book, 'base')?.version).toBe(3);
    expect(lastEntryOf(book, 'support')?.change).toBe('removed');
    expect(lastEntryOf(book, 'nope')).toBeUndefined();
  });
});
