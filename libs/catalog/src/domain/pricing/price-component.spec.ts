import Big from 'big.js';
import { DomainError } from '@tally/kernel';
import { parsePricing } from './parse-pricing';
import { compilePricing, meterOf, priceComponent, type PricedComponent } from './price-component';

const compile = (wire: object, currency = 'USD') => compilePricing(parsePricing(wire, { field: 'pricing', defaultMeter: 'units', currency }));

function price(wire: object, quantity: string | number, currency = 'USD'): PricedComponent {
  return priceComponent(compile(wire, currency), new Big(quantity), currency);
}

/** The line amount as plain text, so a missing or extra rounding shows in the digits. */
const amount = (wire: object, quantity: string | number, currency = 'USD'): string => price(wire, quantity, currency).amount.toFixed();

/** Computed amounts (Big) as plain text; stated prices (strings) as they are. */
const text = (value: Big | string | null) => (value === null || typeof value === 'string' ? value : value.toFixed());

describe('priceComponent: worked examples from public pricing documentation', () => {
  // https://docs.stripe.com/subscriptions/pricing-models/tiered-pricing
  describe('Stripe: fonts in tiers of 1-5 at 7 USD, 6-10 at 6.50 USD, 11+ at 6 USD', () => {
    const fontTiers = [
      { up_to: 5, unit_amount: '7' },
      { up_to: 10, unit_amount: '6.5' },
      { up_to: null, unit_amount: '6' },
    ];

    it.each([
      [1, '7'],
      [5, '35'],
      [6, '39'],
      [20, '120'],
      [25, '150'],
    ])('volume: %i fonts cost %s USD, the whole quantity at its tier', (fonts, usd) => {
      expect(amount({ model: 'volume', tiers: fontTiers }, fonts)).toBe(usd);
    });

    it('volume: at 6 fonts every font is billed at the 6-10 rate', () => {
      expect(text(price({ model: 'volume', tiers: fontTiers }, 5).unit_amount)).toBe('7');
      expect(text(price({ model: 'volume', tiers: fontTiers }, 6).unit_amount)).toBe('6.5');
    });

    // Graduated: 5 fonts cost the same as volume (35 USD); beyond, each band's fonts at its own rate.
    it.each([
      [1, '7'],
      [5, '35'],
      [6, '41.5'],
      [20, '127.5'],
      [25, '157.5'],
    ])('graduated: %i fonts cost %s USD, summed band by band', (fonts, usd) => {
      expect(amount({ model: 'tiered', tiers: fontTiers }, fonts)).toBe(usd);
    });

    it('graduated: the line lists what each band reached holds', () => {
      const line = price({ model: 'tiered', tiers: fontTiers }, 25);
      expect(line.unit_amount).toBeNull();
      expect(line.tiers.map((t) => [t.up_to, text(t.quantity), text(t.unit_amount), text(t.flat_amount), text(t.amount)])).toEqual([
        [5, '5', '7', '0', '35'],
        [10, '5', '6.5', '0', '32.5'],
        [null, '15', '6', '0', '90'],
      ]);
      expect(price({ model: 'tiered', tiers: fontTiers }, 5).tiers).toHaveLength(1);
    });
  });

  // https://stripe.com/docs/billing/subscriptions/quantity-transformation
  describe('Stripe: 10 USD for every 5 users or portion thereof', () => {
    const perFiveUsers = { model: 'package', package_size: 5, package_price: '10.00' };

    it.each([
      [1, '10'],
      [3, '10'],
      [5, '10'],
      [6, '20'],
      [7, '20'],
    ])('%i users cost %s USD', (users, usd) => {
      expect(amount(perFiveUsers, users)).toBe(usd);
    });

    it('rounding down charges only full packages', () => {
      const fullPackages = { ...perFiveUsers, rounding: 'down' };
      expect([4, 5, 9, 10, 11].map((users) => amount(fullPackages, users))).toEqual(['0', '10', '10', '20', '20']);
    });
  });

  // https://docs.stripe.com/billing/subscriptions/usage-based/transform-quantities
  it('Stripe: a car rented for 150 minutes at 10 USD per started hour costs 30 USD', () => {
    const line = price({ model: 'package', package_size: 60, package_price: '10', meter: 'rental_minutes' }, 150);
    expect(line.amount.toFixed()).toBe('30');
    expect(text(line.quantity)).toBe('150');
    expect(text(line.unit_amount)).toBe('10');
    expect(amount({ model: 'package', package_size: 60, package_price: '10', rounding: 'down' }, 150)).toBe('20');
  });

  // https://docs.stripe.com/billing/subscriptions/usage-based/pricing-models
  it('Stripe: 200 USD a month including 100,000 tokens, then 0.001 USD a token', () => {
    const fee = { model: 'flat', amount: '200.00' };
    const overage = {
      model: 'usage',
      aggregation: 'sum',
      meter: 'tokens',
      tiers: [
        { up_to: 100_000, unit_amount: '0.00' },
        { up_to: null, unit_amount: '0.001' },
      ],
    };
    expect([amount(fee, 0), amount(overage, 80_000)]).toEqual(['200', '0']);
    expect([amount(fee, 150_000), amount(overage, 150_000)]).toEqual(['200', '50']);
    expect(amount({ model: 'per_unit', unit_amount: '0.001', included_units: 100_000 }, 150_000)).toBe('50');
  });

  // https://insiders.stripe.dev/t/how-to-charge-for-free-overflow-tokens/2696
  it('Stripe: 4 USD for the first 100,000 tokens, then 0.000065 USD a token: 100,070 tokens cost 4.00 USD', () => {
    const tokens = {
      model: 'tiered',
      tiers: [
        { up_to: 100_000, unit_amount: '0', flat_amount: '4' },
        { up_to: null, unit_amount: '0.000065' },
      ],
    };
    const line = price(tokens, 100_070);
    expect(line.tiers.map((t) => text(t.amount))).toEqual(['4', '0.00455']);
    expect(line.amount.toFixed(2)).toBe('4.00');
  });

  // https://getlago.com/docs/guide/plans/charges/charge-models/volume
  it('Lago: volume with a 10 USD fee on every tier, 65,000 API calls cost 49 USD', () => {
    const apiCalls = {
      model: 'volume',
      tiers: [
        { up_to: 10_000, unit_amount: '0.0010', flat_amount: '10' },
        { up_to: 50_000, unit_amount: '0.0008', flat_amount: '10' },
        { up_to: 100_000, unit_amount: '0.0006', flat_amount: '10' },
        { up_to: null, unit_amount: '0.0004', flat_amount: '10' },
      ],
    };
    expect(amount(apiCalls, 65_000)).toBe('49');
    expect(text(price(apiCalls, 65_000).unit_amount)).toBe('0.0006');
  });

  // https://getlago.com/docs/guide/plans/charges/charge-models/graduated
  it('Lago: 1 USD for each of the first 100 calls, 0.50 USD for the next 100, then 0.10 USD', () => {
    const calls = {
      model: 'usage',
      aggregation: 'sum',
      tiers: [
        { up_to: 100, unit_amount: '1' },
        { up_to: 200, unit_amount: '0.50' },
        { up_to: null, unit_amount: '0.10' },
      ],
    };
    expect([amount(calls, 100), amount(calls, 200), amount(calls, 250)]).toEqual(['100', '150', '155']);
  });

  // https://zuplo.com/docs/articles/monetization/pricing-models
  describe('Zuplo: 0.10 USD up to 1,000 units, 0.05 USD to 10,000, then 0.01 USD; 15,000 units', () => {
    const bands = [
      { up_to: 1_000, unit_amount: '0.10' },
      { up_to: 10_000, unit_amount: '0.05' },
      { up_to: null, unit_amount: '0.01' },
    ];
    it('graduated: 600 USD', () => expect(amount({ model: 'tiered', tiers: bands }, 15_000)).toBe('600'));
    it('volume: 150 USD', () => expect(amount({ model: 'volume', tiers: bands }, 15_000)).toBe('150'));
  });

  // https://docs.useautumn.com/documentation/modelling-pricing/graduated-pricing
  it('Autumn: 0.01 USD for the first 1,000 requests, 0.008 USD to 10,000, then 0.005 USD: 15,000 requests cost 107 USD', () => {
    const requests = {
      model: 'tiered',
      tiers: [
        { up_to: 1_000, unit_amount: '0.01' },
        { up_to: 10_000, unit_amount: '0.008' },
        { up_to: null, unit_amount: '0.005' },
      ],
    };
    expect(amount(requests, 15_000)).toBe('107');
  });
});

describe('priceComponent: the models', () => {
  const bands = [
    { up_to: 10, unit_amount: '2', flat_amount: '5' },
    { up_to: 20, unit_amount: '1', flat_amount: '3' },
    { up_to: null, unit_amount: '0.5' },
  ];

  it('flat: the amount whatever the quantity, on a line of quantity 1', () => {
    for (const quantity of [0, 1, 7, '2.5']) {
      const line = price({ model: 'flat', amount: '49.99' }, quantity);
      expect([text(line.quantity), text(line.unit_amount), text(line.amount), line.tiers]).toEqual(['1', '49.99', '49.99', []]);
    }
  });

  it('per_unit: only the units beyond the included ones are charged', () => {
    const seats = { model: 'per_unit', unit_amount: '12.50', included_units: 3 };
    expect([0, 2, 3, 4, 10].map((q) => amount(seats, q))).toEqual(['0', '0', '0', '12.5', '87.5']);
    const line = price(seats, 10);
    expect([text(line.quantity), text(line.unit_amount), line.tiers]).toEqual(['10', '12.50', []]);
  });

  it('graduated: a band’s flat fee is charged once the quantity reaches into it', () => {
    const graduated = { model: 'tiered', tiers: bands };
    expect(amount(graduated, 1)).toBe('7');
    expect(amount(graduated, 10)).toBe('25');
    expect(amount(graduated, 11)).toBe('29');
    expect(amount(graduated, 20)).toBe('38');
    expect(amount(graduated, 21)).toBe('38.5');
  });

  it('graduated: a decimal quantity splits at the band edge', () => {
    const line = price({ model: 'usage', aggregation: 'sum', tiers: bands }, '10.25');
    expect(line.tiers.map((t) => [text(t.quantity), text(t.amount)])).toEqual([
      ['10', '25'],
      ['0.25', '3.25'],
    ]);
    expect(text(line.amount)).toBe('28.25');
  });

  it('volume: the whole quantity at its band, plus that band’s flat fee', () => {
    const volume = { model: 'volume', tiers: bands };
    expect(amount(volume, 10)).toBe('25');
    expect(amount(volume, 11)).toBe('14');
    expect(amount(volume, '10.5')).toBe('13.5');
    expect(amount(volume, 30)).toBe('15');
    expect(text(price(volume, 30).unit_amount)).toBe('0.5');
    const band = (quantity: number | string) => price(volume, quantity).tiers.map((t) => [t.up_to, text(t.quantity), t.unit_amount, t.flat_amount, text(t.amount)]);
    expect(band(30)).toEqual([[null, '30', '0.5', '0', '15']]);
    expect(band(11)).toEqual([[20, '11', '1', '3', '14']]);
    expect(band('10.5')).toEqual([[20, '10.5', '1', '3', '13.5']]);
  });

  describe('usage: graduated by default, or by volume', () => {
    const halfUnit = [
      { up_to: 0.5, unit_amount: '2' },
      { up_to: null, unit_amount: '1' },
    ];
    const usage = (tiers_mode?: string) => ({ model: 'usage', aggregation: 'sum', tiers: halfUnit, ...(tiers_mode && { tiers_mode }) });

    it('compiles to the graduated or the volume model', () => {
      expect(compile(usage()).model).toBe('graduated');
      expect(compile(usage('graduated')).model).toBe('graduated');
      expect(compile(usage('volume')).model).toBe('volume');
    });

    it('volume: 0.75 falls in the band above 0.5, and all of it costs 1 a unit: 0.75', () => {
      const line = price(usage('volume'), '0.75');
      expect([text(line.amount), text(line.unit_amount)]).toEqual(['0.75', '1']);
      expect(line.tiers.map((t) => [t.up_to, text(t.quantity), text(t.amount)])).toEqual([[null, '0.75', '0.75']]);
    });

    it('graduated: 0.5 at 2, then 0.25 at 1: 1.25', () => {
      for (const graduated of [usage(), usage('graduated')]) {
        const line = price(graduated, '0.75');
        expect([text(line.amount), line.unit_amount]).toEqual(['1.25', null]);
        expect(line.tiers.map((t) => [t.up_to, text(t.quantity), text(t.amount)])).toEqual([
          [0.5, '0.5', '1'],
          [null, '0.25', '0.25'],
        ]);
      }
    });

    it('a decimal bound holds the quantity up to and including it', () => {
      expect([amount(usage('volume'), '0.5'), amount(usage(), '0.5')]).toEqual(['1', '1']);
      expect([amount(usage('volume'), '0.5000001'), amount(usage(), '0.5000001')]).toEqual(['0.5', '1']);
    });

    it('splits at a bound of many decimals exactly', () => {
      const bands = [
        { up_to: 1000.25, unit_amount: '0.01' },
        { up_to: null, unit_amount: '0.001' },
      ];
      const line = price({ model: 'usage', aggregation: 'sum', tiers: bands }, '1500.5');
      expect(line.tiers.map((t) => [text(t.quantity), text(t.amount)])).toEqual([
        ['1000.25', '10.0025'],
        ['500.25', '0.50025'],
      ]);
      expect(amount({ model: 'usage', aggregation: 'sum', tiers: bands, tiers_mode: 'volume' }, '1500.5')).toBe('1.5');
    });
  });

  it('shows prices as the pricing states them: "100.00" stays "100.00"', () => {
    expect(price({ model: 'flat', amount: '100.00' }, 1).unit_amount).toBe('100.00');
    expect(price({ model: 'per_unit', unit_amount: '100.00' }, 2).unit_amount).toBe('100.00');
    expect(price({ model: 'package', package_size: 5, package_price: '100.00' }, 6).unit_amount).toBe('100.00');
    const stated = [
      { up_to: 1, unit_amount: '100.00', flat_amount: '10.00' },
      { up_to: null, unit_amount: '0.500000000000' },
    ];
    expect(price({ model: 'volume', tiers: stated }, 1).unit_amount).toBe('100.00');
    expect(price({ model: 'tiered', tiers: stated }, 3).tiers.map((t) => [t.unit_amount, t.flat_amount, text(t.amount)])).toEqual([
      ['100.00', '10.00', '110'],
      ['0.500000000000', '0', '1'],
    ]);
  });

  it('package: decimal quantities start a package too', () => {
    const gigabytes = { model: 'package', package_size: 1, package_price: '0.25' };
    expect(amount(gigabytes, '2.38')).toBe('0.75');
    expect(amount({ ...gigabytes, rounding: 'down' }, '2.38')).toBe('0.5');
  });

  it('package: a quotient just below a whole number is not carried up to it', () => {
    const thirds = { model: 'package', package_size: 3, package_price: '1' };
    expect(amount({ ...thirds, rounding: 'down' }, '5.999999999999999999999999')).toBe('1');
    expect(amount(thirds, '5.999999999999999999999999')).toBe('2');
    expect(amount(thirds, '6.000000000000000000000001')).toBe('3');
  });

  it('quantity 0 costs nothing in per_unit and package', () => {
    for (const model of [
      { model: 'per_unit', unit_amount: '1' },
      { model: 'package', package_size: 5, package_price: '10' },
    ]) {
      const line = price(model, 0);
      expect([text(line.amount), line.tiers]).toEqual(['0', []]);
    }
    expect(amount({ model: 'flat', amount: '9' }, 0)).toBe('9');
  });

  // Stripe: "we always bill the first flat fee tier when quantity=0"; Lago's graduated and volume specs agree.
  it('quantity 0 costs the first band’s flat fee in tiered, volume and usage, and nothing more', () => {
    for (const model of [
      { model: 'tiered', tiers: bands },
      { model: 'usage', aggregation: 'sum', tiers: bands },
    ]) {
      const line = price(model, 0);
      expect(text(line.amount)).toBe('5');
      expect(line.tiers.map((t) => [t.up_to, text(t.quantity), text(t.amount)])).toEqual([[10, '0', '5']]);
    }
    const volume = price({ model: 'volume', tiers: bands }, 0);
    expect([text(volume.amount), text(volume.unit_amount)]).toEqual(['5', '2']);
    expect(volume.tiers.map((t) => [t.up_to, text(t.quantity), text(t.amount)])).toEqual([[10, '0', '5']]);
  });

  it('quantity 0 costs nothing in tiered and volume when the first band has no flat fee, even if a later one has', () => {
    const laterFee = [
      { up_to: 10, unit_amount: '2' },
      { up_to: null, unit_amount: '1', flat_amount: '3' },
    ];
    expect([amount({ model: 'tiered', tiers: laterFee }, 0), amount({ model: 'volume', tiers: laterFee }, 0)]).toEqual(['0', '0']);
  });

  it('refuses a negative quantity', () => {
    for (const pricing of [{ model: 'flat', amount: '1' }, { model: 'per_unit', unit_amount: '1' }]) {
      expect(() => price(pricing, '-0.5')).toThrow(expect.objectContaining({ code: 'pricing.negative_quantity', kind: 'invalid' }));
    }
    expect(() => price({ model: 'per_unit', unit_amount: '1' }, -1)).toThrow(DomainError);
  });

  it('refuses a currency that is not ISO 4217', () => {
    expect(() => priceComponent(compile({ model: 'flat', amount: '1' }), new Big(1), 'usd')).toThrow(expect.objectContaining({ code: 'money.unknown_currency' }));
  });
});

describe('priceComponent: rounding once, at the end of the line', () => {
  it('to the currency’s minor unit: JPY 0 digits, USD 2, KWD 3', () => {
    const perUnit = { model: 'per_unit', unit_amount: '0.3337' };
    expect(amount(perUnit, 10, 'JPY')).toBe('3');
    expect(amount(perUnit, 10, 'USD')).toBe('3.34');
    expect(amount(perUnit, 10, 'KWD')).toBe('3.337');
  });

  it('a tie goes to the even neighbour (half-even), never up: half-up is the tax engine’s, per jurisdiction', () => {
    const halfYen = { model: 'per_unit', unit_amount: '0.5' };
    expect([amount(halfYen, 3, 'JPY'), amount(halfYen, 5, 'JPY')]).toEqual(['2', '2']);

    const eighthOfACent = { model: 'per_unit', unit_amount: '0.00125' };
    expect(amount(eighthOfACent, 100, 'USD')).toBe('0.12');
    expect(amount(eighthOfACent, 10, 'KWD')).toBe('0.012');
    expect(amount(eighthOfACent, 30, 'KWD')).toBe('0.038');
  });

  it('8 fractional digits are priced exactly: 0.00012345 × 1,000,001 units', () => {
    const tiny = { model: 'per_unit', unit_amount: '0.00012345' };
    expect(amount(tiny, 1_000_001, 'USD')).toBe('123.45');
    expect(amount(tiny, 1_000_001, 'KWD')).toBe('123.45');
    expect(amount(tiny, 1_000_001, 'JPY')).toBe('123');
    expect(price({ model: 'tiered', tiers: [{ up_to: null, unit_amount: '0.00012345' }] }, 1_000_001).tiers[0].amount.toFixed()).toBe(
      '123.45012345',
    );
  });

  it('unit amounts of 12 fractional digits are priced exactly: 0.000000012345 × 1,000,000,001 tokens', () => {
    const perToken = { model: 'usage', aggregation: 'sum', tiers: [{ up_to: null, unit_amount: '0.000000012345' }] };
    const line = price(perToken, '1000000001.5');
    expect(line.tiers[0].amount.toFixed()).toBe('12.3450000185175');
    expect(text(line.amount)).toBe('12.35');
    expect(amount({ model: 'per_unit', unit_amount: '0.000000000001' }, 10_000_000_000, 'USD')).toBe('0.01');
  });

  it('the bands of a graduated line are summed exactly, not rounded one by one', () => {
    const halfCents = {
      model: 'tiered',
      tiers: [
        { up_to: 1, unit_amount: '0.005' },
        { up_to: null, unit_amount: '0.005' },
      ],
    };
    // Each band alone would round to 0.00; the line is 0.01.
    expect(amount(halfCents, 2)).toBe('0.01');
  });
});

describe('meterOf', () => {
  it('names the meter of every model but flat', () => {
    expect(meterOf({ model: 'flat', amount: '1' })).toBeNull();
    expect(meterOf({ model: 'per_unit', unit_amount: '1', included_units: 0, meter: 'seats' })).toBe('seats');
    expect(
      meterOf({ model: 'usage', meter: 'api_calls', aggregation: 'sum', tiers: [], tiers_mode: 'graduated', late_events: 'next_period', usage_cycle: 'period', unique_property: null }),
    ).toBe('api_calls');
  });
});
