import { BillingTimeline } from './support/billing-timeline';
import { TallyUnderTest } from './support/tally';

const day = (n: number) => new Date(Date.UTC(2026, 0, 1 + n)).toISOString();

/**
 * A subscription's cycle lives as long as the subscription: one renewal a period on its stream,
 * whose period-end timer sets the next, and one invoice issued by reaction; a daily plan's grows
 * fastest. A restarted worker goes on from the timers the subscription's events set.
 */
describe('a long-lived subscription cycle', () => {
  let tally: TallyUnderTest;

  afterAll(() => tally.stop());

  it('bills a daily plan once a day across a restart, the cycle going on from the subscription’s timers', async () => {
    const started = await TallyUnderTest.withTenant();
    tally = started.tally;
    const { acme } = started;
    let api = started.api;
    await tally.liftRateLimits(acme.tenantId);
    await api.post('/v1/plans', { code: 'daily', product_code: 'daily', currency: 'EUR', interval: 'day', components: [{ code: 'base', pricing: { model: 'flat', amount: '1.00' } }] }).expect(200);
    const clock = (await api.post('/v1/test-clocks', { frozen_time: day(0) }).expect(200)).body.id;
    const customer = (await api.post('/v1/customers', { email: 'daily@example.com', test_clock: clock }).expect(200)).body.id;
    const subscription = (await api.post('/v1/subscriptions', { customer_id: customer, plan_code: 'daily' }).expect(200)).body.id;

    await new BillingTimeline(tally, api, clock, subscription).advance(day(30));
    const renewals = (await tally.cells.cell('eu').events.readStream(`subscription-${subscription}`)).filter((event) => event.type === 'SubscriptionRenewed');
    expect(renewals).toHaveLength(30);

    await tally.stop({ keepData: true });
    tally = await TallyUnderTest.start({ dataDir: tally.dataDir });
    api = tally.as(acme.sandbox);
    const timeline = new BillingTimeline(tally, api, clock, subscription);
    await timeline.advance(day(35));

    const invoices = await timeline.invoices();
    expect(invoices.map((invoice) => invoice.period_start)).toEqual(Array.from({ length: 36 }, (_, n) => day(n)));
    expect(invoices.every((invoice) => invoice.status === 'open' && invoice.total === '1.00')).toBe(true);
  });
});
