import { DomainError, type FieldError } from '@tally/kernel';
import { parsePricing } from './parse-pricing';

const parse = (input: unknown, currency = 'USD') => parsePricing(input, { field: 'pricing', defaultMeter: 'seats', currency });

/** The field errors of the one `pricing.invalid` error the input is refused with. */
function problems(input: unknown, field = 'pricing', currency = 'USD'): FieldError[] {
  try {
    parsePricing(input, { field, defaultMeter: 'seats', currency });
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    const domainError = error as DomainError;
    expect(domainError.code).toBe('pricing.invalid');
    expect(domainError.kind).toBe('invalid');
    return [...domainError.fields];
  }
  throw new Error('the pricing was accepted');
}

const codesAt = (input: unknown, currency?: string) => problems(input, 'pricing', currency).map(({ field, code }) => [field, code]);

const tiers = [
  { up_to: 5, unit_amount: '7.00' },
  { up_to: 10, unit_amount: '6.50', flat_amount: '10' },
  { up_to: null, unit_amount: '6.00' },
];

describe('parsePricing', () => {
  describe('fills the defaults', () => {
    it('flat has no meter', () => {
      expect(parse({ model: 'flat', amount: '49.00' })).toEqual({ model: 'flat', amount: '49.00' });
    });

    it('per_unit: included_units 0, meter the component code', () => {
      expect(parse({ model: 'per_unit', unit_amount: '10' })).toEqual({ model: 'per_unit', unit_amount: '10', included_units: 0, meter: 'seats' });
    });

    it('tiered and volume: the meter, and flat_amount null on every tier', () => {
      const expected = [
        { up_to: 5, unit_amount: '7.00', flat_amount: null },
        { up_to: 10, unit_amount: '6.50', flat_amount: '10' },
        { up_to: null, unit_amount: '6.00', flat_amount: null },
      ];
      expect(parse({ model: 'tiered', tiers })).toEqual({ model: 'tiered', tiers: expected, meter: 'seats' });
      expect(parse({ model: 'volume', tiers })).toEqual({ model: 'volume', tiers: expected, meter: 'seats' });
    });

    it('package: rounding up', () => {
      expect(parse({ model: 'package', package_size: 5, package_price: '10.00' })).toEqual({
        model: 'package',
        package_size: 5,
        package_price: '10.00',
        rounding: 'up',
        meter: 'seats',
      });
    });

    it('usage: the meter, graduated tiers, late events in the next period, reset every period, no unique property', () => {
      expect(parse({ model: 'usage', aggregation: 'sum', tiers: [{ up_to: null, unit_amount: '0.001' }] })).toEqual({
        model: 'usage',
        meter: 'seats',
        aggregation: 'sum',
        tiers: [{ up_to: null, unit_amount: '0.001', flat_amount: null }],
        tiers_mode: 'graduated',
        late_events: 'next_period',
        usage_cycle: 'period',
        unique_property: null,
      });
    });

    it('keeps what was given', () => {
      expect(parse({ model: 'per_unit', unit_amount: '1.50', included_units: 3, meter: 'api.calls-v2' })).toEqual({
        model: 'per_unit',
        unit_amount: '1.50',
        included_units: 3,
        meter: 'api.calls-v2',
      });
      expect(parse({ model: 'package', package_size: 60, package_price: '10', rounding: 'down', meter: 'minutes' })).toMatchObject({ rounding: 'down' });
      expect(
        parse({ model: 'usage', meter: 'gb', aggregation: 'max', late_events: 'rebill', tiers: [{ up_to: null, unit_amount: '0', flat_amount: null }] }),
      ).toMatchObject({ meter: 'gb', aggregation: 'max', late_events: 'rebill' });
      expect(
        parse({ model: 'usage', aggregation: 'unique_count', unique_property: 'user_id', tiers_mode: 'volume', usage_cycle: 'never', tiers: [{ up_to: null, unit_amount: '1' }] }),
      ).toMatchObject({ aggregation: 'unique_count', unique_property: 'user_id', tiers_mode: 'volume', usage_cycle: 'never' });
    });
  });

  describe('amounts', () => {
    it('are kept exactly as given', () => {
      expect(parse({ model: 'flat', amount: '1.50' })).toEqual({ model: 'flat', amount: '1.50' });
      expect(parse({ model: 'flat', amount: '100.00' })).toEqual({ model: 'flat', amount: '100.00' });
      expect(parse({ model: 'flat', amount: '0' })).toEqual({ model: 'flat', amount: '0' });
      expect(parse({ model: 'flat', amount: '123456789012345678.90' })).toEqual({ model: 'flat', amount: '123456789012345678.90' });
      expect(parse({ model: 'per_unit', unit_amount: '0.00012345' })).toMatchObject({ unit_amount: '0.00012345' });
    });

    it.each([['-1'], ['1e3'], ['+1'], [' 1'], ['1.'], ['.5'], ['1.123456789'], ['123456789012345678901'], ['abc'], ['']])('refuses %j', (amount) => {
      expect(codesAt({ model: 'flat', amount })).toEqual([['pricing.amount', 'pricing.invalid_amount']]);
    });

    it.each([[12.5], [null], [true], [{}]])('refuses the non-string %j', (amount) => {
      expect(codesAt({ model: 'flat', amount })).toEqual([['pricing.amount', 'pricing.invalid_amount']]);
    });

    it('checks every amount of every model', () => {
      expect(codesAt({ model: 'per_unit', unit_amount: '-0.01' })).toEqual([['pricing.unit_amount', 'pricing.invalid_amount']]);
      expect(codesAt({ model: 'package', package_size: 5, package_price: '10,00' })).toEqual([['pricing.package_price', 'pricing.invalid_amount']]);
      expect(
        codesAt({ model: 'volume', tiers: [{ up_to: 5, unit_amount: '1e1' }, { up_to: null, unit_amount: '1', flat_amount: '-5' }] }),
      ).toEqual([
        ['pricing.tiers[0].unit_amount', 'pricing.invalid_amount'],
        ['pricing.tiers[1].flat_amount', 'pricing.invalid_amount'],
      ]);
    });
  });

  describe('unit amounts: up to 12 digits after the point, as Stripe’s unit_amount_decimal', () => {
    it.each([['0.000000000001'], ['12345678.123456789012'], ['0.5']])('accepts %j in any currency, as given', (unit_amount) => {
      for (const currency of ['USD', 'JPY', 'KWD']) {
        expect(parse({ model: 'per_unit', unit_amount }, currency)).toMatchObject({ unit_amount });
        expect(parse({ model: 'tiered', tiers: [{ up_to: null, unit_amount }] }, currency)).toMatchObject({ tiers: [{ unit_amount }] });
      }
    });

    it.each([['0.0000000000001'], ['123456789.123456789012']])('refuses %j', (unit_amount) => {
      expect(codesAt({ model: 'per_unit', unit_amount })).toEqual([['pricing.unit_amount', 'pricing.invalid_amount']]);
      expect(codesAt({ model: 'usage', aggregation: 'sum', tiers: [{ up_to: null, unit_amount }] })).toEqual([['pricing.tiers[0].unit_amount', 'pricing.invalid_amount']]);
    });
  });

  describe('flat fees and package prices: whole minor units of the currency, as coupon amounts', () => {
    it.each([
      ['JPY', '500'],
      ['JPY', '500.0'],
      ['USD', '0.5'],
      ['USD', '0.50'],
      ['KWD', '1.125'],
    ])('accepts %s %s, as given', (currency, amount) => {
      expect(parse({ model: 'flat', amount }, currency)).toEqual({ model: 'flat', amount });
      expect(parse({ model: 'package', package_size: 5, package_price: amount }, currency)).toMatchObject({ package_price: amount });
      expect(parse({ model: 'volume', tiers: [{ up_to: null, unit_amount: '0', flat_amount: amount }] }, currency)).toMatchObject({ tiers: [{ flat_amount: amount }] });
    });

    it.each([
      ['JPY', '0.5'],
      ['USD', '0.001'],
      ['KWD', '1.1255'],
    ])('refuses %s %s, naming the currency', (currency, amount) => {
      const refused = problems(
        {
          model: 'tiered',
          tiers: [
            { up_to: 10, unit_amount: amount, flat_amount: amount },
            { up_to: null, unit_amount: '0' },
          ],
        },
        'pricing',
        currency,
      );
      expect(refused).toEqual([{ field: 'pricing.tiers[0].flat_amount', code: 'pricing.invalid_amount', message: expect.stringContaining(`whole minor units of ${currency}`) }]);
      expect(codesAt({ model: 'flat', amount }, currency)).toEqual([['pricing.amount', 'pricing.invalid_amount']]);
      expect(codesAt({ model: 'package', package_size: 5, package_price: amount }, currency)).toEqual([['pricing.package_price', 'pricing.invalid_amount']]);
    });
  });

  describe('model', () => {
    it('is required', () => {
      expect(codesAt({ amount: '1' })).toEqual([['pricing.model', 'pricing.missing_field']]);
    });

    it.each([['stairstep'], ['FLAT'], [1], [null]])('refuses %j', (model) => {
      expect(codesAt({ model, amount: '1' })).toEqual([['pricing.model', 'pricing.unknown_model']]);
    });

    it.each([[null], ['flat'], [[]], [7]])('needs an object, not %j', (input) => {
      expect(codesAt(input)).toEqual([['pricing', 'pricing.missing_field']]);
    });
  });

  describe('fields', () => {
    it('refuses fields the model does not have', () => {
      expect(codesAt({ model: 'flat', amount: '1', meter: 'seats', unit_amount: '1' })).toEqual([
        ['pricing.meter', 'pricing.unknown_field'],
        ['pricing.unit_amount', 'pricing.unknown_field'],
      ]);
      expect(codesAt({ model: 'volume', tiers, rounding: 'up' })).toEqual([['pricing.rounding', 'pricing.unknown_field']]);
      expect(codesAt({ model: 'tiered', tiers: [{ up_to: null, unit_amount: '1', package_size: 2 }] })).toEqual([
        ['pricing.tiers[0].package_size', 'pricing.unknown_field'],
      ]);
    });

    it('refuses inherited names as unknown fields', () => {
      expect(codesAt(JSON.parse('{"model":"flat","amount":"1","__proto__":{"x":1}}'))).toEqual([['pricing.__proto__', 'pricing.unknown_field']]);
    });

    it('requires what each model needs', () => {
      expect(codesAt({ model: 'flat' })).toEqual([['pricing.amount', 'pricing.missing_field']]);
      expect(codesAt({ model: 'per_unit' })).toEqual([['pricing.unit_amount', 'pricing.missing_field']]);
      expect(codesAt({ model: 'tiered' })).toEqual([['pricing.tiers', 'pricing.missing_field']]);
      expect(codesAt({ model: 'volume' })).toEqual([['pricing.tiers', 'pricing.missing_field']]);
      expect(codesAt({ model: 'package' })).toEqual([
        ['pricing.package_size', 'pricing.missing_field'],
        ['pricing.package_price', 'pricing.missing_field'],
      ]);
      expect(codesAt({ model: 'usage' })).toEqual([
        ['pricing.aggregation', 'pricing.missing_field'],
        ['pricing.tiers', 'pricing.missing_field'],
      ]);
      expect(codesAt({ model: 'tiered', tiers: [{}] })).toEqual([
        ['pricing.tiers[0].up_to', 'pricing.missing_field'],
        ['pricing.tiers[0].unit_amount', 'pricing.missing_field'],
      ]);
    });

    it('reports every problem at once, in one error with a readable summary', () => {
      let thrown: unknown;
      try {
        parse({ model: 'package', package_size: 0, package_price: '1.5e1', rounding: 'nearest', meter: 'Minutes', colour: 'red' });
      } catch (error) {
        thrown = error;
      }
      const error = thrown as DomainError;
      expect(error.fields.map((f) => [f.field, f.code])).toEqual([
        ['pricing.colour', 'pricing.unknown_field'],
        ['pricing.package_size', 'pricing.invalid_integer'],
        ['pricing.package_price', 'pricing.invalid_amount'],
        ['pricing.rounding', 'pricing.invalid_rounding'],
        ['pricing.meter', 'pricing.invalid_meter'],
      ]);
      expect(error.message).toMatch(/^The pricing is invalid: pricing\.colour is not a field of a package pricing; pricing\.package_size must be/);
      for (const field of error.fields) expect(field.message.length).toBeGreaterThan(5);
    });

    it('names paths under the field it was given', () => {
      expect(problems({ model: 'tiered', tiers: [{ up_to: null, unit_amount: 'x' }] }, 'components[2].pricing')).toEqual([
        { field: 'components[2].pricing.tiers[0].unit_amount', code: 'pricing.invalid_amount', message: expect.any(String) },
      ]);
    });
  });

  describe('integers', () => {
    it.each([[0], [-1], [2.5], ['5'], [null], [Number.MAX_SAFE_INTEGER + 1]])('package_size refuses %j', (package_size) => {
      expect(codesAt({ model: 'package', package_size, package_price: '1' })).toEqual([['pricing.package_size', 'pricing.invalid_integer']]);
    });

    it('package_size may be 1', () => {
      expect(parse({ model: 'package', package_size: 1, package_price: '1' })).toMatchObject({ package_size: 1 });
    });

    it.each([[-1], [0.5], ['0'], [null]])('included_units refuses %j', (included_units) => {
      expect(codesAt({ model: 'per_unit', unit_amount: '1', included_units })).toEqual([['pricing.included_units', 'pricing.invalid_integer']]);
    });
  });

  describe('tiers', () => {
    const tiered = (bands: unknown) => codesAt({ model: 'tiered', tiers: bands });

    it('need at least one', () => {
      expect(tiered([])).toEqual([['pricing.tiers', 'pricing.tiers_empty']]);
      expect(tiered({ up_to: null, unit_amount: '1' })).toEqual([['pricing.tiers', 'pricing.tiers_empty']]);
    });

    it('may be a single unbounded band', () => {
      expect(parse({ model: 'volume', tiers: [{ up_to: null, unit_amount: '1' }] })).toMatchObject({ tiers: [{ up_to: null }] });
    });

    it('are objects', () => {
      expect(tiered(['5', { up_to: null, unit_amount: '1' }])).toEqual([['pricing.tiers[0]', 'pricing.missing_field']]);
    });

    it.each([[0], [-5], [2.5], ['5']])('up_to is a positive whole number, not %j', (up_to) => {
      expect(tiered([{ up_to, unit_amount: '1' }, { up_to: null, unit_amount: '1' }])).toEqual([['pricing.tiers[0].up_to', 'pricing.invalid_integer']]);
    });

    it('up_to rises strictly', () => {
      expect(
        tiered([
          { up_to: 10, unit_amount: '1' },
          { up_to: 10, unit_amount: '1' },
          { up_to: 5, unit_amount: '1' },
          { up_to: 20, unit_amount: '1' },
          { up_to: null, unit_amount: '1' },
        ]),
      ).toEqual([
        ['pricing.tiers[1].up_to', 'pricing.tiers_not_ascending'],
        ['pricing.tiers[2].up_to', 'pricing.tiers_not_ascending'],
      ]);
    });

    it('the last band, and only it, is unbounded', () => {
      expect(tiered([{ up_to: 10, unit_amount: '1' }])).toEqual([['pricing.tiers[0].up_to', 'pricing.tiers_top_band']]);
      expect(tiered([{ up_to: 5, unit_amount: '1' }, { up_to: 10, unit_amount: '1' }])).toEqual([['pricing.tiers[1].up_to', 'pricing.tiers_top_band']]);
      expect(tiered([{ up_to: null, unit_amount: '1' }, { up_to: null, unit_amount: '1' }])).toEqual([['pricing.tiers[0].up_to', 'pricing.tiers_top_band']]);
      expect(tiered([{ up_to: 5, unit_amount: '1' }, { up_to: null, unit_amount: '1' }, { up_to: 10, unit_amount: '1' }])).toEqual([
        ['pricing.tiers[1].up_to', 'pricing.tiers_top_band'],
        ['pricing.tiers[2].up_to', 'pricing.tiers_top_band'],
      ]);
    });

    it('are checked the same way for volume and usage', () => {
      expect(codesAt({ model: 'volume', tiers: [{ up_to: 3, unit_amount: '1' }] })).toEqual([['pricing.tiers[0].up_to', 'pricing.tiers_top_band']]);
      expect(codesAt({ model: 'usage', aggregation: 'sum', tiers: [] })).toEqual([['pricing.tiers', 'pricing.tiers_empty']]);
    });
  });

  describe('meter', () => {
    it.each([['api_calls'], ['a'], ['0day'], ['storage.gb-hours'], ['m'.repeat(64)]])('accepts %j', (meter) => {
      expect(parse({ model: 'per_unit', unit_amount: '1', meter })).toMatchObject({ meter });
    });

    it.each([[''], ['API'], ['_calls'], ['.x'], ['api calls'], ['m'.repeat(65)], [null], [5]])('refuses %j', (meter) => {
      expect(codesAt({ model: 'per_unit', unit_amount: '1', meter })).toEqual([['pricing.meter', 'pricing.invalid_meter']]);
    });
  });

  describe('enumerations', () => {
    it('aggregation', () => {
      for (const aggregation of ['sum', 'max', 'last_during_period', 'count', 'weighted_sum']) {
        expect(parse({ model: 'usage', aggregation, tiers: [{ up_to: null, unit_amount: '1' }] })).toMatchObject({ aggregation });
      }
      expect(parse({ model: 'usage', aggregation: 'unique_count', unique_property: 'user_id', tiers: [{ up_to: null, unit_amount: '1' }] })).toMatchObject({
        aggregation: 'unique_count',
      });
      expect(codesAt({ model: 'usage', aggregation: 'avg', tiers: [{ up_to: null, unit_amount: '1' }] })).toEqual([
        ['pricing.aggregation', 'pricing.invalid_aggregation'],
      ]);
    });

    it('rounding', () => {
      expect(codesAt({ model: 'package', package_size: 5, package_price: '1', rounding: 'UP' })).toEqual([['pricing.rounding', 'pricing.invalid_rounding']]);
      expect(codesAt({ model: 'package', package_size: 5, package_price: '1', rounding: null })).toEqual([['pricing.rounding', 'pricing.invalid_rounding']]);
    });

    it('late_events', () => {
      expect(codesAt({ model: 'usage', aggregation: 'sum', tiers: [{ up_to: null, unit_amount: '1' }], late_events: 'drop' })).toEqual([
        ['pricing.late_events', 'pricing.invalid_late_events'],
      ]);
    });
  });

  describe('usage', () => {
    const topBand = [{ up_to: null, unit_amount: '1' }];
    const usage = (fields: object) => ({ model: 'usage', aggregation: 'sum', tiers: topBand, ...fields });

    describe('aggregation: the integration guide’s names are taken, stored and answered as Tally’s own', () => {
      it.each([
        ['count_agg', 'count'],
        ['sum_agg', 'sum'],
        ['max_agg', 'max'],
        ['weighted_sum_agg', 'weighted_sum'],
        ['latest_agg', 'last_during_period'],
      ])('%s is %s', (alias, aggregation) => {
        expect(parse(usage({ aggregation: alias }))).toMatchObject({ aggregation });
      });

      it('unique_count_agg is unique_count, with or without its property', () => {
        expect(parse(usage({ aggregation: 'unique_count_agg', unique_property: 'user_id' }))).toMatchObject({ aggregation: 'unique_count', unique_property: 'user_id' });
        expect(parse(usage({ aggregation: 'unique_count_agg' }))).toMatchObject({ aggregation: 'unique_count', unique_property: null });
      });

      it.each([['COUNT_AGG'], ['avg_agg'], ['count_agg '], ['__proto__'], ['constructor'], ['toString'], [null], [3]])('refuses %j, naming the aliases', (aggregation) => {
        const refused = problems(usage({ aggregation }));
        expect(refused).toEqual([{ field: 'pricing.aggregation', code: 'pricing.invalid_aggregation', message: expect.stringContaining('latest_agg') }]);
      });
    });

    describe('unique_property: the event property whose distinct values unique_count counts', () => {
      it.each([['user_id'], ['_'], ['User.Id-2'], ['0'], ['p'.repeat(64)]])('accepts %j with unique_count', (unique_property) => {
        expect(parse(usage({ aggregation: 'unique_count', unique_property }))).toMatchObject({ unique_property });
      });

      it('is optional with unique_count, as the spec writes a usage component (null counting as absent): it then counts distinct events', () => {
        expect(parse(usage({ aggregation: 'unique_count' }))).toMatchObject({ aggregation: 'unique_count', unique_property: null });
        expect(parse(usage({ aggregation: 'unique_count', unique_property: null }))).toMatchObject({ aggregation: 'unique_count', unique_property: null });
      });

      it.each([['sum'], ['max'], ['last_during_period'], ['count'], ['weighted_sum'], ['latest_agg']])('is refused with %s', (aggregation) => {
        expect(codesAt(usage({ aggregation, unique_property: 'user_id' }))).toEqual([['pricing.unique_property', 'pricing.unique_property_not_allowed']]);
      });

      it('is null for every other aggregation, and may be sent as null, as answered', () => {
        expect(parse(usage({ aggregation: 'count' }))).toMatchObject({ unique_property: null });
        expect(parse(usage({ aggregation: 'count', unique_property: null }))).toMatchObject({ unique_property: null });
      });

      it.each([[''], ['.user'], ['-user'], ['user id'], ['user/id'], ['usér'], ['p'.repeat(65)], [5], [true], [{}]])('refuses %j', (unique_property) => {
        expect(codesAt(usage({ aggregation: 'unique_count', unique_property }))).toEqual([['pricing.unique_property', 'pricing.invalid_unique_property']]);
      });

      it('is only checked for its form when the aggregation is wrong itself', () => {
        expect(codesAt(usage({ aggregation: 'avg', unique_property: 'user_id' }))).toEqual([['pricing.aggregation', 'pricing.invalid_aggregation']]);
        expect(codesAt(usage({ aggregation: 'avg', unique_property: 'user id' }))).toEqual([
          ['pricing.aggregation', 'pricing.invalid_aggregation'],
          ['pricing.unique_property', 'pricing.invalid_unique_property'],
        ]);
        expect(codesAt({ model: 'usage', tiers: topBand, unique_property: 'user_id' })).toEqual([['pricing.aggregation', 'pricing.missing_field']]);
      });
    });

    describe('usage_cycle', () => {
      it('is period by default, or never', () => {
        expect(parse(usage({}))).toMatchObject({ usage_cycle: 'period' });
        expect(parse(usage({ usage_cycle: 'period' }))).toMatchObject({ usage_cycle: 'period' });
        expect(parse(usage({ usage_cycle: 'never' }))).toMatchObject({ usage_cycle: 'never' });
      });

      it.each([['monthly'], ['NEVER'], [null], [0]])('refuses %j', (usage_cycle) => {
        expect(codesAt(usage({ usage_cycle }))).toEqual([['pricing.usage_cycle', 'pricing.invalid_usage_cycle']]);
      });

      it('is a field of usage only', () => {
        expect(codesAt({ model: 'tiered', tiers: topBand, usage_cycle: 'never' })).toEqual([['pricing.usage_cycle', 'pricing.unknown_field']]);
      });
    });

    describe('tiers_mode', () => {
      it('is graduated by default, or volume', () => {
        expect(parse(usage({}))).toMatchObject({ tiers_mode: 'graduated' });
        expect(parse(usage({ tiers_mode: 'graduated' }))).toMatchObject({ tiers_mode: 'graduated' });
        expect(parse(usage({ tiers_mode: 'volume' }))).toMatchObject({ tiers_mode: 'volume' });
      });

      it.each([['tiered'], ['Volume'], [null], [true]])('refuses %j', (tiers_mode) => {
        expect(codesAt(usage({ tiers_mode }))).toEqual([['pricing.tiers_mode', 'pricing.invalid_tiers_mode']]);
      });

      it('is a field of usage only: tiered and volume are models of their own', () => {
        expect(codesAt({ model: 'tiered', tiers: topBand, tiers_mode: 'volume' })).toEqual([['pricing.tiers_mode', 'pricing.unknown_field']]);
      });
    });

    describe('up_to: any number above 0, since usage quantities are decimal', () => {
      const bands = (...upTos: (number | null)[]) => upTos.map((up_to) => ({ up_to, unit_amount: '1' }));

      it('accepts decimal bounds, kept as given', () => {
        expect(parse(usage({ tiers: bands(0.5, 1000.25, null) }))).toMatchObject({ tiers: [{ up_to: 0.5 }, { up_to: 1000.25 }, { up_to: null }] });
        expect(parse(usage({ tiers: bands(0.0001, 1, 2.5, null) }))).toMatchObject({ tiers: [{ up_to: 0.0001 }, { up_to: 1 }, { up_to: 2.5 }, { up_to: null }] });
      });

      it.each([[0], [-0.5], ['0.5'], [Number.MAX_SAFE_INTEGER + 1]])('refuses %j', (up_to) => {
        expect(codesAt(usage({ tiers: bands(up_to as number, null) }))).toEqual([['pricing.tiers[0].up_to', 'pricing.invalid_integer']]);
      });

      it('rise strictly, and the last band, and only it, is unbounded', () => {
        expect(codesAt(usage({ tiers: bands(0.5, 0.5, 0.25, null) }))).toEqual([
          ['pricing.tiers[1].up_to', 'pricing.tiers_not_ascending'],
          ['pricing.tiers[2].up_to', 'pricing.tiers_not_ascending'],
        ]);
        expect(codesAt(usage({ tiers: bands(0.5, 1.5) }))).toEqual([['pricing.tiers[1].up_to', 'pricing.tiers_top_band']]);
      });

      it.each([['tiered'], ['volume']])('stay whole numbers in %s', (model) => {
        for (const up_to of [0.5, 1000.25]) {
          expect(codesAt({ model, tiers: bands(up_to, null) })).toEqual([['pricing.tiers[0].up_to', 'pricing.invalid_integer']]);
        }
      });
    });
  });
});
