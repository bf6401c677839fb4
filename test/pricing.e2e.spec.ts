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
  });
});
