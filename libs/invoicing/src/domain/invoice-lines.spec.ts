import Big from 'big.js';
import type { ComponentInForce, Pricing } from '@tally/catalog/published';
import { priceLines } from './invoice-lines';
import { parseQuantities } from './preview-inputs';

const PERIOD = { start: '2026-05-01T00:00:00.000Z', end: '2026-06-01T00:00:00.000Z' };

const component = (code: string, pricing: Pricing): ComponentInForce => ({ code, pricing, tax_code: null, price_version: 1, effective_at: PERIOD.start });

/** Meters a client may name after anything an object inherits. */
const components = [
  component('constructor', { model: 'per_unit', unit_amount: '2.00', included_units: 0, meter: 'constructor' }),
  component('calls', {
    model: 'usage',
    meter: 'tostring',
    aggregation: 'sum',
    tiers: [{ up_to: null, unit_amount: '0.5', flat_amount: null }],
    tiers_mode: 'graduated',
    late_events: 'next_period',
    usage_cycle: 'period',
    unique_property: null,
  }),
];

const price = (quantities: object, usage: object) =>
  priceLines(components, parseQuantities(quantities as Record<string, unknown>, usage as Record<string, unknown>), 'EUR', PERIOD).map((line) => [
    line.code,
    line.quantity.toFixed(),
    line.amount.toFixed(),
  ]);

describe('priceLines', () => {
  it('counts a component without a quantity 1 and usage without a value 0, whatever the meter is called', () => {
    expect(price({}, {})).toEqual([
      ['constructor', '1', '2'],
      ['calls', '0', '0'],
    ]);
  });

  it('takes the quantities and usage given by meter', () => {
    expect(price({ constructor: 3 }, { tostring: '5' })).toEqual([
      ['constructor', '3', '6'],
      ['calls', '5', '2.5'],
    ]);
  });

  it('refuses a meter named after an inherited property as unknown, and changes no prototype', () => {
    const body = JSON.parse('{"__proto__": 4, "hasOwnProperty": 1}');
    expect(() => price(body, {})).toThrow(
      expect.objectContaining({
        code: 'invoice_preview.unknown_meter',
        fields: [expect.objectContaining({ field: 'quantities.__proto__' }), expect.objectContaining({ field: 'quantities.hasOwnProperty' })],
      }),
    );
    expect(() => price({}, JSON.parse('{"__proto__": "1"}'))).toThrow(
      expect.objectContaining({ code: 'invoice_preview.unknown_meter', fields: [expect.objectContaining({ field: 'usage.__proto__' })] }),
    );
  });

  it('takes Maps of quantities and usage, and rounds each line half-even', () => {
    const lines = priceLines(components, { quantities: new Map([['constructor', 2]]), usage: new Map([['tostring', new Big('0.25')]]) }, 'EUR', PERIOD);
    // 0.25 × 0.5 = 0.125 → 0.12
    expect(lines.map((line) => line.amount.toFixed())).toEqual(['4', '0.12']);
  });
});
