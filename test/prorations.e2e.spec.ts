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
    await plan('twenty', [{ code: 'base', pricing: { model: 'flat', amount: '20.00' } }]);
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

  /** [description, amount, period_start, period_end, proration] of each line of the subscription's last invoice. */
  const lastLines = async (timeline: BillingTimeline) => {
    const invoices = await timeline.invoices();
    return invoices[invoices.length - 1].lines.map((line) => [line.description, line.amount, line.period_start, line.period_end, line.proration]);
  };

  describe('pending prorations end on exactly one invoice', () => {
    const JUNE_16 = '2026-06-16T00:00:00.000Z';
    const JUNE_24 = '2026-06-24T00:00:00.000Z';
    const JULY_1 = '2026-07-01T00:00:00.000Z';

    it('cancel now after a plan change: the final invoice carries the pending credit and charge, and the credit for the unused time', async () => {
      const timeline = await subscribe('2026-06-01T00:00:00.000Z', { plan_code: 'ten' });
      await timeline.advance(JUNE_16);
      // 10.00 → 100.00 halfway through June's 30 days: −5.00 and +50.00, pending for the next invoice.
      await api.patch(`/v1/subscriptions/${timeline.subscription}`, { plan_code: 'hundred' }).expect(200);
      expect(await timeline.advance(JUNE_24)).toEqual([['subscription.updated', JUNE_16]]);
      // Canceled with 7 of the 30 days left: −100.00 × 7/30 = −23.33.
      await api.post(`/v1/subscriptions/${timeline.subscription}/cancel`, { at: 'now' }).expect(200);
      expect(await timeline.newEvents()).toEqual([['subscription.canceled', JUNE_24], ...invoiced(JUNE_24)]);
      expect(await lastLines(timeline)).toEqual([
        ['Unused time on base', '-5.00', JUNE_16, JULY_1, true],
        ['Remaining time on base', '50.00', JUNE_16, JULY_1, true],
        ['Unused time on base', '-23.33', JUNE_24, JULY_1, true],
      ]);
      const invoices = await timeline.invoices();
      expect(invoices.map((invoice) => [invoice.billing_reason, invoice.total])).toEqual([
        ['subscription_create', '10.00'],
        ['subscription_cancel', '21.67'],
      ]);
    });

    it('cancel now after a quantity change: the same', async () => {
      const timeline = await subscribe('2026-06-01T00:00:00.000Z', { plan_code: 'seats', quantities: { seats: 1 } });
      await timeline.advance(JUNE_16);
      // A seat (10.00) to three (30.00) halfway: −5.00 and +15.00; canceled with 7 of 30 days left: −30.00 × 7/30 = −7.00.
      await api.post(`/v1/subscriptions/${timeline.subscription}/quantities`, { meter: 'seats', quantity: 3 }).expect(200);
      expect(await timeline.advance(JUNE_24)).toEqual([['subscription.updated', JUNE_16]]);
      await api.post(`/v1/subscriptions/${timeline.subscription}/cancel`, { at: 'now' }).expect(200);
      expect(await timeline.newEvents()).toEqual([['subscription.canceled', JUNE_24], ...invoiced(JUNE_24)]);
      expect(await lastLines(timeline)).toEqual([
        ['Unused time on seats', '-5.00', JUNE_16, JULY_1, true],
        ['Remaining time on seats', '15.00', JUNE_16, JULY_1, true],
        ['Unused time on seats', '-7.00', JUNE_24, JULY_1, true],
      ]);
      expect((await timeline.invoices()).map((invoice) => invoice.total)).toEqual(['10.00', '3.00']);
    });

    it('cancel at period end after a plan change: the boundary issues the final invoice the upcoming invoice showed', async () => {
      const timeline = await subscribe('2026-06-01T00:00:00.000Z', { plan_code: 'ten' });
      await timeline.advance(JUNE_16);
      await api.patch(`/v1/subscriptions/${timeline.subscription}`, { plan_code: 'hundred' }).expect(200);
      await api.post(`/v1/subscriptions/${timeline.subscription}/cancel`, { at: 'period_end' }).expect(200);
      const upcoming = (await api.get(`/v1/subscriptions/${timeline.subscription}/upcoming-invoice`).expect(200)).body;
      expect(await timeline.advance('2026-07-02T00:00:00.000Z')).toEqual([['subscription.updated', JUNE_16], ['subscription.updated', JUNE_16], ['subscription.canceled', JULY_1], ...invoiced(JULY_1)]);
      const final = (await timeline.invoices())[1];
      expect([final.id, final.billing_reason, final.total]).toEqual([upcoming.id, 'subscription_cancel', '45.00']);
      expect(await lastLines(timeline)).toEqual([
        ['Unused time on base', '-5.00', JUNE_16, JULY_1, true],
        ['Remaining time on base', '50.00', JUNE_16, JULY_1, true],
      ]);
      expect(final.lines.map((line) => line.amount)).toEqual(upcoming.lines.map((line: { amount: string }) => line.amount));
    });
  });

  describe('a change made now replaces one scheduled for the boundary', () => {
    it('a plan: 10.00 switched to 100.00 at the boundary (none), then to 20.00 now halfway, renews at 20.00 with Stripe’s −5.00 and +10.00', async () => {
      const timeline = await subscribe('2026-06-01T00:00:00.000Z', { plan_code: 'ten' });
      await timeline.advance('2026-06-10T00:00:00.000Z');
      const scheduled = await api.patch(`/v1/subscriptions/${timeline.subscription}`, { plan_code: 'hundred', proration_behavior: 'none' }).expect(200);
      expect(scheduled.body).toMatchObject({ plan_code: 'ten', pending_update: { plan_code: 'hundred', effective_at: '2026-07-01T00:00:00.000Z' } });
      expect(await timeline.advance('2026-06-16T00:00:00.000Z')).toEqual([['subscription.updated', '2026-06-10T00:00:00.000Z']]);
      const now = await api.patch(`/v1/subscriptions/${timeline.subscription}`, { plan_code: 'twenty' }).expect(200);
      expect(now.body).toMatchObject({ plan_code: 'twenty', pending_update: null });
      expect(await timeline.advance('2026-07-02T00:00:00.000Z')).toEqual([
        ['subscription.updated', '2026-06-16T00:00:00.000Z'],
        ...invoiced('2026-07-01T00:00:00.000Z'),
      ]);
      expect(await lastLines(timeline)).toEqual([
        ['base', '20.00', '2026-07-01T00:00:00.000Z', '2026-08-01T00:00:00.000Z', false],
        ['Unused time on base', '-5.00', '2026-06-16T00:00:00.000Z', '2026-07-01T00:00:00.000Z', true],
        ['Remaining time on base', '10.00', '2026-06-16T00:00:00.000Z', '2026-07-01T00:00:00.000Z', true],
      ]);
      expect((await api.get(`/v1/subscriptions/${timeline.subscription}`).expect(200)).body).toMatchObject({ plan_code: 'twenty', pending_update: null });
    });

    it('a quantity: 5 seats scheduled for the boundary, then 3 now, renews with 3', async () => {
      const timeline = await subscribe('2026-06-01T00:00:00.000Z', { plan_code: 'seats', quantities: { seats: 1 } });
      await api.post(`/v1/subscriptions/${timeline.subscription}/quantities`, { meter: 'seats', quantity: 5, effective_at: 'next_period' }).expect(200);
      await timeline.advance('2026-06-16T00:00:00.000Z');
      const now = await api.post(`/v1/subscriptions/${timeline.subscription}/quantities`, { meter: 'seats', quantity: 3 }).expect(200);
      expect(now.body).toMatchObject({ quantities: { seats: 3 }, pending_update: null });
      await timeline.advance('2026-07-02T00:00:00.000Z');
      expect(await lastLines(timeline)).toEqual([
        ['seats', '30.00', '2026-07-01T00:00:00.000Z', '2026-08-01T00:00:00.000Z', false],
        ['Unused time on seats', '-5.00', '2026-06-16T00:00:00.000Z', '2026-07-01T00:00:00.000Z', true],
        ['Remaining time on seats', '15.00', '2026-06-16T00:00:00.000Z', '2026-07-01T00:00:00.000Z', true],
      ]);
    });
  });

  describe('a first, shorter period before a billing_cycle_anchor', () => {
    const JAN_16 = '2026-01-16T00:00:00.000Z';
    const FEB_1 = '2026-02-01T00:00:00.000Z';

    it('is prorated by default: 16 of January’s 31 days of a 31.00 EUR plan bill 16.00, then whole months from the anchor', async () => {
      const timeline = await subscribe(JAN_16, { plan_code: 'monthly-eur', billing_cycle_anchor: FEB_1 });
      const [first] = await timeline.invoices();
      expect([first.billing_reason, first.period_start, first.period_end, first.total]).toEqual(['subscription_create', JAN_16, FEB_1, '16.00']);
      expect(await lastLines(timeline)).toEqual([['Remaining time on base', '16.00', JAN_16, FEB_1, true]]);
      expect(await timeline.advance('2026-02-02T00:00:00.000Z')).toEqual(invoiced(FEB_1));
      expect(await lastLines(timeline)).toEqual([['base', '31.00', FEB_1, '2026-03-01T00:00:00.000Z', false]]);
    });

    it('is billed in full with proration_behavior none', async () => {
      const timeline = await subscribe(JAN_16, { plan_code: 'monthly-eur', billing_cycle_anchor: FEB_1, proration_behavior: 'none' });
      expect(await lastLines(timeline)).toEqual([['base', '31.00', JAN_16, FEB_1, false]]);
    });

    it('after a trial is prorated too, as the upcoming invoice shows: a trial ending on 15 January, 17 days to the anchor bill 17.00', async () => {
      const timeline = await subscribe('2026-01-01T00:00:00.000Z', { plan_code: 'monthly-eur', trial_days: 14, billing_cycle_anchor: FEB_1 });
      const upcoming = (await api.get(`/v1/subscriptions/${timeline.subscription}/upcoming-invoice`).expect(200)).body;
      expect(await timeline.advance('2026-01-16T00:00:00.000Z')).toEqual([
        ['subscription.trial_will_end', '2026-01-12T00:00:00.000Z'],
        ['subscription.activated', '2026-01-15T00:00:00.000Z'],
        ...invoiced('2026-01-15T00:00:00.000Z'),
      ]);
      const [first] = await timeline.invoices();
      expect([first.id, first.total, first.lines.map((line) => [line.description, line.amount])]).toEqual([upcoming.id, '17.00', [['Remaining time on base', '17.00']]]);
      expect(upcoming.lines.map((line: { amount: string }) => line.amount)).toEqual(['17.00']);
    });

    it('may lie at most one interval after the start, as Stripe’s: a month and a millisecond, or 40 days, are refused', async () => {
      const clock = (await api.post('/v1/test-clocks', { frozen_time: JAN_16 }).expect(200)).body.id;
      const customer = (await api.post('/v1/customers', { email: 'anchor@example.com', test_clock: clock }).expect(200)).body.id;
      for (const anchor of ['2026-02-16T00:00:00.001Z', '2026-02-25T00:00:00.000Z']) {
        const refused = await api.post('/v1/subscriptions', { customer_id: customer, plan_code: 'monthly-eur', billing_cycle_anchor: anchor }).expect(422);
        expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
        expect([refused.body.problem, refused.body.errors]).toEqual(['subscription.invalid_billing_cycle_anchor', [expect.objectContaining({ field: 'billing_cycle_anchor', message: 'at most 2026-02-16T00:00:00.000Z' })]]);
      }
      await tally.settle();
      expect((await api.get(`/v1/subscriptions?customer_id=${customer}`).expect(200)).body.data).toEqual([]);
      const whole = await api.post('/v1/subscriptions', { customer_id: customer, plan_code: 'monthly-eur', billing_cycle_anchor: '2026-02-16T00:00:00.000Z' }).expect(200);
      expect([whole.body.current_period_start, whole.body.current_period_end]).toEqual([JAN_16, '2026-02-16T00:00:00.000Z']);
      expect((await api.post('/v1/subscriptions', { customer_id: customer, plan_code: 'monthly-eur', proration_behavior: 'always_invoice' }).expect(400)).body.problem).toBe('request.invalid_body');
    });
  });

  describe('an amount off and a proration’s credit on one invoice', () => {
    it('allocates the discount over the lines above zero: the 10 → 100 upgrade with 5.00 off renews at 140.00, as its upcoming invoice said', async () => {
      await api.post('/v1/coupons', { code: 'FIVE-OFF', amount_off: '5.00', currency: 'USD', duration: 'forever' }).expect(200);
      const timeline = await subscribe('2026-06-01T00:00:00.000Z', { plan_code: 'ten', coupons: ['FIVE-OFF'] });
      await timeline.advance('2026-06-16T00:00:00.000Z');
      await api.patch(`/v1/subscriptions/${timeline.subscription}`, { plan_code: 'hundred' }).expect(200);
      const upcoming = (await api.get(`/v1/subscriptions/${timeline.subscription}/upcoming-invoice`).expect(200)).body;
      expect(await timeline.advance('2026-07-02T00:00:00.000Z')).toEqual([['subscription.updated', '2026-06-16T00:00:00.000Z'], ...invoiced('2026-07-01T00:00:00.000Z')]);
      const renewal = (await timeline.invoices())[1];
      expect([renewal.id, renewal.status, renewal.subtotal, renewal.discount, renewal.total]).toEqual([upcoming.id, 'open', '145.00', '5.00', '140.00']);
      expect(renewal.lines.map((line) => [line.description, line.amount, line.discount_amount])).toEqual([
        ['base', '100.00', '3.33'],
        ['Unused time on base', '-5.00', '0.00'],
        ['Remaining time on base', '50.00', '1.67'],
      ]);
      expect([upcoming.subtotal, upcoming.discount, upcoming.total]).toEqual(['145.00', '5.00', '140.00']);
      expect((await api.get('/v1/admin/parked-commands').expect(200)).body.data).toEqual([]);
    });
  });

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
      const parked = (await globex.get('/v1/admin/parked-commands?process=subscription_invoicing').expect(200)).body.data;
      expect(parked).toEqual([
        {
          id: expect.stringMatching(/^cmd_/),
          object: 'parked_command',
          process: 'subscription_invoicing',
          process_id: timeline.subscription,
          type: 'IssueInvoice',
          attempts: 1,
          last_error: expect.stringMatching(/^tax\.no_rate_in_force: /),
          created_at: '2020-06-01T00:00:00.000Z',
        },
      ]);
      const gauge = async () => (await tally.http().get('/metrics').expect(200)).text.split('\n').filter((line) => line.startsWith('parked_commands{process="subscription_invoicing"'));
      expect(await gauge()).toEqual(['parked_commands{process="subscription_invoicing",region="eu"} 1']);

      // The cause fixed (the customer bills from a country the table has no tax for), the retried step finalises the same invoice.
      const customer = draft.customer_id;
      await globex.patch(`/v1/customers/${customer}`, { billing_address: { country: 'US' } }).expect(200);
      await globex.post(`/v1/admin/parked-commands/${parked[0].id}/retry`).expect(200);
      await tally.settle();
      expect((await timeline.invoices()).map((invoice) => [invoice.id, invoice.status, invoice.total])).toEqual([[draft.id, 'open', '10.00']]);
      expect((await globex.get('/v1/admin/parked-commands').expect(200)).body.data).toEqual([]);
      expect(await gauge()).toEqual([]);
    });

    it('is tried again on its own an hour after it was parked, and parked again while its cause stands', async () => {
      const initech = tally.as((await tally.tenant('Initech', 'eu')).sandbox);
      await initech.post('/v1/plans', { code: 'ten', product_code: 'ten', currency: 'EUR', interval: 'month', interval_count: 1, components: [{ code: 'base', pricing: { model: 'flat', amount: '10.00' } }] }).expect(200);
      await initech.patch('/v1/tax/settings', { origin: { country: 'DE' } }).expect(200);
      const timeline = await subscribe('2020-06-01T00:00:00.000Z', { plan_code: 'ten' }, initech, { billing_address: { country: 'DE' } });
      const parkedIds = async () => (await initech.get('/v1/admin/parked-commands').expect(200)).body.data.map((command: { id: string }) => command.id);
      const [parked] = await parkedIds();
      expect(parked).toMatch(/^cmd_/);

      // Seen parked now; not retried before the hour is up.
      expect(await tally.worker.retryParkedCommands()).toBe(0);
      tally.clock.advance(59 * 60_000);
      expect(await tally.worker.retryParkedCommands()).toBe(0);
      // An hour on, with its cause still there, it is retried and parked again.
      tally.clock.advance(60_000);
      expect(await tally.worker.retryParkedCommands()).toBe(1);
      await tally.settle();
      expect(await parkedIds()).toEqual([parked]);

      // The cause fixed, the next hourly retry finalises the invoice, and nothing is parked any more.
      await initech.patch(`/v1/customers/${(await timeline.invoices())[0].customer_id}`, { billing_address: { country: 'US' } }).expect(200);
      expect(await tally.worker.retryParkedCommands()).toBe(0);
      tally.clock.advance(60 * 60_000);
      expect(await tally.worker.retryParkedCommands()).toBe(1);
      await tally.settle();
      expect((await timeline.invoices()).map((invoice) => [invoice.status, invoice.total])).toEqual([['open', '10.00']]);
      expect(await parkedIds()).toEqual([]);
    });
  });
});
