import { UlidGenerator } from '@tally/kernel';
import { BillingTimeline } from './support/billing-timeline';
import { TallyUnderTest, type TestTenant } from './support/tally';

const T0 = '2026-03-01T00:00:00.000Z';
const APR = '2026-04-01T00:00:00.000Z';
const MAY = '2026-05-01T00:00:00.000Z';

/**
 * A subscription's invoices are issued by a reaction from the events that call for them, each
 * carrying its invoice's basis; payments come back to the subscription by a reaction too.
 */
describe('subscription invoicing by reaction', () => {
  let tally: TallyUnderTest;
  let api: ReturnType<TallyUnderTest['as']>;
  let acme: TestTenant;

  beforeAll(async () => {
    ({ tally, acme, api } = await TallyUnderTest.withTenant());
    await tally.liftRateLimits(acme.tenantId);
    await api.post('/v1/plans', { code: 'ten', product_code: 'ten', currency: 'EUR', interval: 'month', components: [{ code: 'base', pricing: { model: 'flat', amount: '10.00' } }] }).expect(200);
    await api.post('/v1/coupons', { code: 'HALF-ONCE', percent_off: '50', duration: 'once' }).expect(200);
  });

  afterAll(() => tally.stop());

  async function subscribe(email: string, token?: string): Promise<BillingTimeline> {
    const clock = (await api.post('/v1/test-clocks', { frozen_time: T0 }).expect(200)).body.id;
    const customer = (await api.post('/v1/customers', { email, test_clock: clock }).expect(200)).body.id;
    if (token) await api.post(`/v1/customers/${customer}/payment-methods`, { type: 'card', token, set_as_default: true }).expect(200);
    const subscription = (await api.post('/v1/subscriptions', { customer_id: customer, plan_code: 'ten', coupons: ['HALF-ONCE'] }).expect(200)).body.id;
    const timeline = new BillingTimeline(tally, api, clock, subscription);
    await timeline.newEvents();
    return timeline;
  }

  const streamOf = (subscription: string) => tally.cells.cell('eu').events.readStream(`subscription-${subscription}`);

  it('issues a renewal stored before events carried their invoice’s basis as the subscription’s history says: its period number, its pause', async () => {
    const timeline = await subscribe('legacy@example.com');
    await api.post(`/v1/subscriptions/${timeline.subscription}/pause`, { behavior: 'mark_uncollectible' }).expect(200);
    await tally.settle();

    // A renewal as the code before the widening stored it: version 1, without `billing`.
    const [last] = (await streamOf(timeline.subscription)).slice(-1);
    const { command_id: _command, ...metadata } = last.metadata;
    const renewedV1 = {
      subscription_id: timeline.subscription,
      period_start: APR,
      period_end: MAY,
      terms: { plan_code: 'ten', quantities: {}, coupons: ['HALF-ONCE'], prorations: [] },
      commitment_end: null,
    };
    await tally.cells.cell('eu').events.append(`subscription-${timeline.subscription}`, [{ id: new UlidGenerator(tally.clock).ulid(), type: 'SubscriptionRenewed', data: renewedV1, metadata: { ...metadata, occurred_at: APR, schema_version: 1 } }], {
      expectedRevision: last.revision,
    });
    const [read] = (await streamOf(timeline.subscription)).slice(-1);
    expect(read.data).toEqual({ ...renewedV1, billing: 'from_history' });
    await tally.settle();

    // The second paid period: the coupon of one period no longer applies; paused, it is written off. (Both invoices were issued at the clock's one instant.)
    const invoices = (await timeline.invoices()).sort((a, b) => String(a.period_start).localeCompare(String(b.period_start)));
    expect(invoices.map((invoice) => [invoice.billing_reason, invoice.period_start, invoice.discount, invoice.total, invoice.status])).toEqual([
      ['subscription_create', T0, '5.00', '5.00', 'uncollectible'],
      ['subscription_cycle', APR, '0.00', '10.00', 'uncollectible'],
    ]);
  });

  it('leaves a later period’s open invoice alone when the log is read again from the start: a pause settles the invoices open when it began', async () => {
    const timeline = await subscribe('replay@example.com');
    await api.post(`/v1/subscriptions/${timeline.subscription}/pause`, { behavior: 'void_invoices' }).expect(200);
    await api.post(`/v1/subscriptions/${timeline.subscription}/resume`).expect(200);
    await timeline.advance(APR);
    const statuses = async (of: BillingTimeline) => (await of.invoices()).map((invoice) => [invoice.period_start, invoice.status]).sort();
    expect(await statuses(timeline)).toEqual([
      [T0, 'void'],
      [APR, 'open'],
    ]);

    // As if the reaction had never run: it reads every subscription event again.
    await tally.cells.cell('eu').readModels.commit([], { name: 'reaction:subscription_invoicing', position: 0n });
    await tally.stop({ keepData: true });
    tally = await TallyUnderTest.start({ dataDir: tally.dataDir, clock: tally.clock });
    api = tally.as(acme.sandbox);
    await tally.settle();
    expect(await statuses(new BillingTimeline(tally, api, timeline.clock, timeline.subscription))).toEqual([
      [T0, 'void'],
      [APR, 'open'],
    ]);
  });

  it('brings a first payment to the subscription, and writes nothing on it when a renewal of the active subscription is paid', async () => {
    const timeline = await subscribe('paid@example.com', 'tok_visa');
    await timeline.advance(APR);
    expect((await timeline.invoices()).map((invoice) => invoice.status)).toEqual(['paid', 'paid']);
    expect((await streamOf(timeline.subscription)).map((event) => event.type)).toEqual(['SubscriptionCreated', 'SubscriptionActivated', 'SubscriptionFirstInvoicePaid', 'SubscriptionRenewed']);
  });
});
