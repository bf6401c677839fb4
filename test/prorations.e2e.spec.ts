import { BillingTimeline } from './support/billing-timeline';
import { TallyUnderTest, type TestTenant } from './support/tally';

/**
 * Prorations against worked examples (Stripe's 10 → 20 USD halfway, and its 10 ↔ 100 variants),
 * written as Kill Bill's integration tests are: each step declares the public events it expects,
 * advances a test clock, and asserts exactly those arrived and the invoice lines are as stated.
 */
describe('prorations and the invoices they end on', () => {
  let tally: TallyUnderTest;
  let acme: TestTenant;
  let api: ReturnType<TallyUnderTest['as']>;

  const plan = (code: string, components: object[], currency = 'USD') =>
    api.post('/v1/plans', { code, product_code: code, currency, interval: 'month', interval_count: 1, components }).expect(200);

  beforeAll(async () => {
    ({ tally, acme, api } = await TallyUnderTest.withTenant());
    await tally.liftRateLimits(acme.tenantId);
    await plan('ten', [{ code: 'base', pricing: { model: 'flat', amount: '10.00' } }]);
    await plan('hundred', [{ code: 'base', pricing: { model: 'flat', amount: '100.00' } }]);
    await plan('seats', [{ code: 'seats', pricing: { model: 'per_unit', unit_amount: '10.00' } }]);
    await plan('monthly-eur', [{ code: 'base', pricing: { model: 'flat', amount: '31.00' } }], 'EUR');
  });

  afterAll(() => tally.stop());

  /** A customer on a new clock frozen at `start`, subscribed with `body`; the timeline has seen its creation. */
  async function subscribe(start: string, body: object, as = api, customer: object = {}): Promise<BillingTimeline> {
    const clock = (await as.post('/v1/test-clocks', { frozen_time: start }).expect(200)).body.id;
    const customerId = (await as.post('/v1/customers', { email: 'prorations@example.com', test_clock: clock, ...customer }).expect(200)).body.id;
    const subscription = (await as.post('/v1/subscriptions', { customer_id: customerId, ...body }).expect(200)).body.id;
    const timeline = new BillingTimeline(tally, as, clock, subscription);
    await timeline.newEvents();
    return timeline;
  }

  const invoiced = (at: string) => [
    ['invoice.created', at],
    ['invoice.finalized', at],
  ];

  describe('an invoice the cycle cannot finalise', () => {
    it('is parked, listed, counted in /metrics, and finalised when retried once its cause is fixed', async () => {
      // A tenant of its own: its tax origin is Germany, whose rates the tax table has from 2021 on.
      const globex = tally.as((await tally.tenant('Globex', 'eu')).sandbox);
      await globex.post('/v1/plans', { code: 'ten', product_code: 'ten', currency: 'EUR', interval: 'month', interval_count: 1, components: [{ code: 'base', pricing: { model: 'flat', amount: '10.00' } }] }).expect(200);
      await globex.patch('/v1/tax/settings', { origin: { country: 'DE' } }).expect(200);
      const timeline = await subscribe('2020-06-01T00:00:00.000Z', { plan_code: 'ten' }, globex, { billing_address: { country: 'DE' } });

      // The first invoice is created, but its tax cannot be calculated for June 2020: it stays a draft, and the step is parked.
      const [draft] = await timeline.invoices();
      expect([draft.status, draft.period_start]).toEqual(['draft', '2020-06-01T00:00:00.000Z']);
      const parked = (await globex.get('/v1/admin/parked-commands?process=subscription_cycle').expect(200)).body.data;
      expect(parked).toEqual([
        {
          id: expect.stringMatching(/^cmd_/),
          object: 'parked_command',
          process: 'subscription_cycle',
          process_id: timeline.subscription,
          type: 'IssueInvoice',
          attempts: 1,
          last_error: expect.stringMatching(/^tax\.no_rate_in_force: /),
          created_at: '2020-06-01T00:00:00.000Z',
        },
      ]);
      const gauge = async () => (await tally.http().get('/metrics').expect(200)).text.split('\n').filter((line) => line.startsWith('parked_commands{process="subscription_cycle"'));
      expect(await gauge()).toEqual(['parked_commands{process="subscription_cycle",region="eu"} 1']);

      // The cause fixed (the customer bills from a country the table has no tax for), the retried step finalises the same invoice.
      const customer = draft.customer_id;
      await globex.patch(`/v1/customers/${customer}`, { billing_address: { country: 'US' } }).expect(200);
      await globex.post(`/v1/admin/parked-commands/${parked[0].id}/retry`).expect(200);
      await tally.settle();
      expect((await timeline.invoices()).map((invoice) => [invoice.id, invoice.status, invoice.total])).toEqual([[draft.id, 'open', '10.00']]);
      expect((await globex.get('/v1/admin/parked-commands').expect(200)).body.data).toEqual([]);
      expect(await gauge()).toEqual([]);
    });
  });
});
