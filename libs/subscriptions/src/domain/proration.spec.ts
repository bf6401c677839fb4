import Big from 'big.js';
import { prorateChange, prorateRest } from './proration';

const april = { start: '2026-04-01T00:00:00.000Z', end: '2026-05-01T00:00:00.000Z' };

describe('proration', () => {
  it('is Stripe’s worked example: from 10 USD to 20 USD halfway through the period, −5 USD and +10 USD', () => {
    const { credit, charge } = prorateChange(new Big('10.00'), new Big('20.00'), april, '2026-04-16T00:00:00.000Z', 'USD');
    expect([credit.toFixed(2), charge.toFixed(2), credit.plus(charge).toFixed(2)]).toEqual(['-5.00', '10.00', '5.00']);
  });

  it('counts by the second and rounds half-even to the minor unit', () => {
    // 29 days and 23 hours of 30 days left: 12.00 × 2,588,400 / 2,592,000 = 11.98333…
    expect(prorateRest(new Big('12.00'), april, '2026-04-01T01:00:00.000Z', 'USD').toFixed(2)).toBe('11.98');
    // A part of a second does not count: the same as from the whole second before it.
    expect(prorateRest(new Big('12.00'), april, '2026-04-01T01:00:00.999Z', 'USD').toFixed(2)).toBe('11.98');
    // Yen have no minor unit: 1000 × 15/30 of the period = 500; 1001 × 1/2 = 500.5 → 500 (half-even).
    expect(prorateRest(new Big('1001'), april, '2026-04-16T00:00:00.000Z', 'JPY').toFixed(0)).toBe('500');
  });

  it('charges the whole amount at the start and nothing at the end', () => {
    expect(prorateRest(new Big('49.99'), april, april.start, 'EUR').toFixed(2)).toBe('49.99');
    expect(prorateRest(new Big('49.99'), april, april.end, 'EUR').toFixed(2)).toBe('0.00');
  });

  it('refuses a moment outside the period', () => {
    expect(() => prorateRest(new Big('10'), april, '2026-05-01T00:00:01.000Z', 'USD')).toThrow(RangeError);
    expect(() => prorateRest(new Big('10'), april, '2026-03-31T23:59:59.000Z', 'USD')).toThrow(RangeError);
  });
});
