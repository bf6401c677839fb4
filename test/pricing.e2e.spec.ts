import { TallyUnderTest } from './support/tally';

/** The pricing engine as a client meets it: plans priced through POST /v1/invoices/preview (docs/pricing.md). */
describe('pricing through the HTTP API', () => {
  let tally: TallyUnderTest;
  let api: ReturnType<TallyUnderTest['as']>;

  beforeAll(async () => ({ tally, api } = await TallyUnderTest.withTenant()));

  afterAll(() => tally.stop());

  const createPlan = (code: string, currency: string, components: object[]) =>
    api.post('/v1/plans', { code, product_code: code, currency, interval: 'month', interval_count: 1, components });

  const linesOf = (body: { lines: Record<string, unknown>[] }) => new Map(body.lines.map((line) => [line.code as string, line]));

  /** A refusal: problem+json with the code, and nothing written. */
  const expectRefused = async (send: Promise<{ status: number; body: Record<string, unknown>; headers: Record<string, string> }>, code: string) => {
    const before = await tally.head();
    const response = await send;
    expect(response.status).toBe(400);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body.problem).toBe(code);
    expect(await tally.head()).toBe(before);
    return response.body.errors;
  };

  describe('quantity 0', () => {
    // Stripe: "we always bill the first flat fee tier when quantity=0", graduated and volume alike; so does Lago.
    const bands = [
      { up_to: 10, unit_amount: '2.00', flat_amount: '5.00' },
      { up_to: null, unit_amount: '1.00', flat_amount: '3.00' },
    ];

    beforeAll(async () => {
      await createPlan('zero', 'EUR', [
        { code: 'seats', pricing: { model: 'tiered', tiers: bands } },
        { code: 'devices', pricing: { model: 'volume', tiers: bands } },
        { code: 'calls', pricing: { model: 'usage', aggregation: 'sum', tiers: bands } },
        { code: 'users', pricing: { model: 'per_unit', unit_amount: '4.00' } },
        { code: 'storage', pricing: { model: 'package', package_size: 5, package_price: '10.00' } },
      ]).expect(200);
    });

    it('charges the first band’s flat fee of tiered, volume and usage components, and nothing for per_unit and package', async () => {
      const response = await api.post('/v1/invoices/preview', { plan: 'zero', quantities: { seats: 0, devices: 0, users: 0, storage: 0 }, usage: { calls: '0' } }).expect(200);
      expect(response.body.lines.map((line: Record<string, unknown>) => [line.code, line.quantity, line.amount])).toEqual([
        ['seats', '0', '5.00'],
        ['devices', '0', '5.00'],
        ['calls', '0', '5.00'],
        ['users', '0', '0.00'],
        ['storage', '0', '0.00'],
      ]);
      expect(response.body.subtotal).toBe('15.00');
    });

    it('charges the first band’s fee for usage that reported nothing', async () => {
      const response = await api.post('/v1/invoices/preview', { plan: 'zero' }).expect(200);
      expect(linesOf(response.body).get('calls')).toMatchObject({ quantity: '0', amount: '5.00' });
    });

    it('shows the first band, holding nothing, as the band a quantity of 0 reached', async () => {
      const response = await api.post('/v1/invoices/preview', { plan: 'zero', quantities: { seats: 0, devices: 0 } }).expect(200);
      const firstBand = [{ up_to: 10, quantity: '0', unit_amount: '2.00', flat_amount: '5.00', amount: '5.00' }];
      for (const code of ['seats', 'devices', 'calls']) expect(linesOf(response.body).get(code)?.tiers).toEqual(firstBand);
      for (const code of ['users', 'storage']) expect(linesOf(response.body).get(code)?.tiers).toEqual([]);
    });
  });

  describe('the priced line', () => {
    // Stripe's tiered-pricing guide: 1–5 fonts at 7.00, 6–10 at 6.50, 11+ at 6.00.
    const fonts = [
      { up_to: 5, unit_amount: '7.00' },
      { up_to: 10, unit_amount: '6.50' },
      { up_to: null, unit_amount: '6.00' },
    ];

    beforeAll(async () => {
      await createPlan('fonts', 'USD', [
        { code: 'graduated', pricing: { model: 'tiered', tiers: fonts } },
        { code: 'volume', pricing: { model: 'volume', tiers: fonts } },
        { code: 'tokens', pricing: { model: 'usage', aggregation: 'sum', tiers: [{ up_to: 100_000, unit_amount: '0', flat_amount: '4.00' }, { up_to: null, unit_amount: '0.000065' }] } },
        { code: 'support', pricing: { model: 'flat', amount: '100.00' } },
        { code: 'seats', pricing: { model: 'per_unit', unit_amount: '100.00' } },
        { code: 'storage', pricing: { model: 'package', package_size: 10, package_price: '100.00' } },
      ]).expect(200);
    });

    it('lists the bands a graduated line reached and the band of a volume line, with quantities and amounts', async () => {
      const response = await api.post('/v1/invoices/preview', { plan: 'fonts', quantities: { graduated: 6, volume: 6 } }).expect(200);
      const lines = linesOf(response.body);
      expect(lines.get('graduated')).toMatchObject({
        quantity: '6',
        unit_amount: null,
        amount: '41.50',
        tiers: [
          { up_to: 5, quantity: '5', unit_amount: '7.00', flat_amount: '0', amount: '35.00' },
          { up_to: 10, quantity: '1', unit_amount: '6.50', flat_amount: '0', amount: '6.50' },
        ],
      });
      expect(lines.get('volume')).toMatchObject({
        quantity: '6',
        unit_amount: '6.50',
        amount: '39.00',
        tiers: [{ up_to: 10, quantity: '6', unit_amount: '6.50', flat_amount: '0', amount: '39.00' }],
      });
    });

    it('shows each band’s exact amount, and rounds only the line', async () => {
      const response = await api.post('/v1/invoices/preview', { plan: 'fonts', usage: { tokens: '100070' } }).expect(200);
      expect(linesOf(response.body).get('tokens')).toMatchObject({
        amount: '4.00',
        tiers: [
          { up_to: 100000, quantity: '100000', unit_amount: '0', flat_amount: '4.00', amount: '4.00' },
          { up_to: null, quantity: '70', unit_amount: '0.000065', flat_amount: '0', amount: '0.00455' },
        ],
      });
    });

    it('shows unit amounts as the plan states them: "100.00" stays "100.00"', async () => {
      const response = await api.post('/v1/invoices/preview', { plan: 'fonts', quantities: { seats: 2, storage: 15 } }).expect(200);
      const lines = linesOf(response.body);
      expect(['support', 'seats', 'storage'].map((code) => [code, lines.get(code)?.unit_amount, lines.get(code)?.amount, lines.get(code)?.tiers])).toEqual([
        ['support', '100.00', '100.00', []],
        ['seats', '100.00', '200.00', []],
        ['storage', '100.00', '200.00', []],
      ]);
    });
  });

  describe('usage pricing in the integration guide’s terms', () => {
    const storage = {
      code: 'storage',
      pricing: {
        model: 'usage',
        aggregation: 'latest_agg',
        usage_cycle: 'never',
        tiers_mode: 'volume',
        tiers: [
          { up_to: 0.5, unit_amount: '2.00' },
          { up_to: null, unit_amount: '1.00' },
        ],
      },
    };
    const normalised = {
      model: 'usage',
      meter: 'storage',
      aggregation: 'last_during_period',
      tiers: [
        { up_to: 0.5, unit_amount: '2.00', flat_amount: null },
        { up_to: null, unit_amount: '1.00', flat_amount: null },
      ],
      tiers_mode: 'volume',
      late_events: 'next_period',
      usage_cycle: 'never',
      unique_property: null,
    };

    it('creates the component with the aggregation named as Tally names it, and answers every field', async () => {
      const plan = (await createPlan('storage', 'EUR', [storage]).expect(200)).body;
      expect(plan.components[0].pricing).toEqual(normalised);
      expect(plan.price_versions[0].pricing).toEqual(normalised);
      await tally.settle();
      expect((await api.get('/v1/plans/storage').expect(200)).body.components[0].pricing).toEqual(normalised);
    });

    it('prices the whole decimal aggregate at the band it falls in', async () => {
      const response = await api.post('/v1/invoices/preview', { plan: 'storage', usage: { storage: '0.75' } }).expect(200);
      expect(linesOf(response.body).get('storage')).toMatchObject({
        quantity: '0.75',
        unit_amount: '1.00',
        amount: '0.75',
        tiers: [{ up_to: null, quantity: '0.75', unit_amount: '1.00', flat_amount: '0', amount: '0.75' }],
      });
    });

    it('takes unique_count without the property it counts, as the spec writes a usage component', async () => {
      const uniqueEvents = { code: 'users', pricing: { model: 'usage', aggregation: 'unique_count_agg', tiers: [{ up_to: null, unit_amount: '1.00' }] } };
      const plan = (await createPlan('unique-events', 'EUR', [uniqueEvents]).expect(200)).body;
      expect(plan.components[0].pricing).toMatchObject({ aggregation: 'unique_count', unique_property: null });
    });
  });

  it('prices a component whose meter is named after an inherited property (constructor) with the default quantities', async () => {
    await createPlan('inherited', 'EUR', [
      { code: 'constructor', pricing: { model: 'per_unit', unit_amount: '2.00' } },
      { code: 'calls', pricing: { model: 'usage', meter: 'tostring', aggregation: 'sum', tiers: [{ up_to: null, unit_amount: '0.50' }] } },
    ]).expect(200);
    const defaults = await api.post('/v1/invoices/preview', { plan: 'inherited' }).expect(200);
    expect(defaults.body.lines.map((line: Record<string, unknown>) => [line.code, line.quantity, line.amount])).toEqual([
      ['constructor', '1', '2.00'],
      ['calls', '0', '0.00'],
    ]);
  });

  describe('one rule for minor units', () => {
    beforeAll(async () => {
      await createPlan('yen', 'JPY', [{ code: 'base', pricing: { model: 'flat', amount: '500' } }]).expect(200);
    });

    it.each([
      ['a flat price', { model: 'flat', amount: '0.5' }, 'amount'],
      ['a package price', { model: 'package', package_size: 10, package_price: '0.5' }, 'package_price'],
      ['a band’s flat fee', { model: 'volume', tiers: [{ up_to: null, unit_amount: '1', flat_amount: '0.5' }] }, 'tiers[0].flat_amount'],
    ])('refuses %s of 0.5 JPY, when the plan is created and when a component is added', async (_name, pricing, field) => {
      const created = await expectRefused(createPlan('yen-fraction', 'JPY', [{ code: 'extra', pricing }]), 'pricing.invalid');
      expect(created).toEqual([{ field: `components[0].pricing.${field}`, code: 'pricing.invalid_amount', message: expect.stringContaining('whole minor units of JPY') }]);
      const added = await expectRefused(api.post('/v1/plans/yen/components', { code: 'extra', pricing }), 'pricing.invalid');
      expect(added).toEqual([{ field: `pricing.${field}`, code: 'pricing.invalid_amount', message: expect.any(String) }]);
    });

    it('refuses a coupon of 0.5 JPY by the same rule', async () => {
      const errors = await expectRefused(api.post('/v1/coupons', { code: 'HALFYEN', amount_off: '0.5', currency: 'JPY', duration: 'once' }), 'coupon.invalid');
      expect(errors).toEqual([expect.objectContaining({ field: 'amount_off', code: 'coupon.invalid_amount' })]);
    });

    it('accepts 0.50 USD, 1.125 KWD and 500 JPY, and keeps them as sent', async () => {
      for (const [currency, amount] of [['USD', '0.50'], ['KWD', '1.125'], ['JPY', '500.0']]) {
        const plan = (await createPlan(`whole-${currency.toLowerCase()}`, currency, [{ code: 'base', pricing: { model: 'flat', amount } }]).expect(200)).body;
        expect(plan.components[0].pricing).toEqual({ model: 'flat', amount });
      }
    });

    it('takes amount_off in major units: a 500 JPY coupon takes 500 yen off', async () => {
      await api.post('/v1/coupons', { code: 'YEN500', amount_off: '500', currency: 'JPY', duration: 'once' }).expect(200);
      await createPlan('yen-seats', 'JPY', [{ code: 'seats', pricing: { model: 'per_unit', unit_amount: '1200' } }]).expect(200);
      const response = await api.post('/v1/invoices/preview', { plan: 'yen-seats', quantities: { seats: 2 }, discounts: [{ coupon: 'YEN500' }] }).expect(200);
      expect({ subtotal: response.body.subtotal, discount: response.body.discount, total: response.body.total }).toEqual({ subtotal: '2400', discount: '500', total: '1900' });
    });

    it('lets a unit amount carry up to 12 digits after the point, and prices it exactly before rounding the line', async () => {
      const tokens = { code: 'tokens', pricing: { model: 'usage', aggregation: 'sum', tiers: [{ up_to: null, unit_amount: '0.000000012345' }] } };
      const plan = (await createPlan('tokens', 'USD', [tokens]).expect(200)).body;
      expect(plan.components[0].pricing.tiers[0].unit_amount).toBe('0.000000012345');
      const response = await api.post('/v1/invoices/preview', { plan: 'tokens', usage: { tokens: '1000000001.5' } }).expect(200);
      // 1,000,000,001.5 × 0.000000012345 = 12.3450000185175 → 12.35
      expect(response.body.lines[0].amount).toBe('12.35');

      const tooFine = { code: 'calls', pricing: { model: 'per_unit', unit_amount: '0.0000000000001' } };
      const errors = await expectRefused(createPlan('too-fine', 'USD', [tooFine]), 'pricing.invalid');
      expect(errors).toEqual([expect.objectContaining({ field: 'components[0].pricing.unit_amount', code: 'pricing.invalid_amount' })]);
    });
  });
});
