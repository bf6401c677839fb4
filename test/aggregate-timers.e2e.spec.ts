import { bindingsFor, rebuildProjections } from '@tally/runtime';
import { CONTEXTS } from '../apps/contexts';
import { BillingTimeline } from './support/billing-timeline';
import { TallyUnderTest, type TestTenant } from './support/tally';

/**
 * The subscription's and the card's timers are their own, derived from their events: the timers
 * read model rebuilt from the log knows which fired, so none fires twice, and those still due fire.
 */
describe('aggregate timers through a rebuild of the read models', () => {
  let tally: TallyUnderTest;
  let api: ReturnType<TallyUnderTest['as']>;

  beforeAll(async () => {
    let acme: TestTenant;
    ({ tally, acme, api } = await TallyUnderTest.withTenant());
    await tally.liftRateLimits(acme.tenantId);
    await api.post('/v1/plans', { code: 'team', product_code: 'team', currency: 'EUR', interval: 'month', interval_count: 1, trial_days: 14, components: [{ code: 'base', pricing: { model: 'flat', amount: '30.00' } }] }).expect(200);
  });

  afterAll(() => tally.stop());

  const rebuildEveryReadModel = async () => {
    await tally.settle();
    await tally.worker.stop();
    await rebuildProjections(tally.cells.all().flatMap((cell) => bindingsFor(cell, tally.cells, CONTEXTS.projections)));
    await tally.worker.start();
  };

  it('fires each of a subscription’s timers once, at its own time, before and after the rebuild', async () => {
    const clock = (await api.post('/v1/test-clocks', { frozen_time: '2026-01-05T00:00:00.000Z' }).expect(200)).body.id;
    const customer = (await api.post('/v1/customers', { email: 'timers@example.com', test_clock: clock }).expect(200)).body.id;
    const subscription = (await api.post('/v1/subscriptions', { customer_id: customer, plan_code: 'team' }).expect(200)).body.id;
    const timeline = new BillingTimeline(tally, api, clock, subscription);
    expect(await timeline.newEvents()).toEqual([['subscription.created', '2026-01-05T00:00:00.000Z']]);

    expect(await timeline.advance('2026-02-20T00:00:00.000Z')).toEqual([
      ['subscription.trial_will_end', '2026-01-16T00:00:00.000Z'],
      ['subscription.activated', '2026-01-19T00:00:00.000Z'],
      ['invoice.created', '2026-01-19T00:00:00.000Z'],
      ['invoice.finalized', '2026-01-19T00:00:00.000Z'],
      ['invoice.created', '2026-02-19T00:00:00.000Z'],
      ['invoice.finalized', '2026-02-19T00:00:00.000Z'],
    ]);
    await api.post(`/v1/subscriptions/${subscription}/pause`, { until: '2026-03-10T00:00:00.000Z', behavior: 'keep_as_draft' }).expect(200);
    await rebuildEveryReadModel();

    // Nothing that fired fires again; the resume and the next period's end, still due, fire at their times.
    expect(await timeline.advance('2026-03-20T00:00:00.000Z')).toEqual([
      ['subscription.paused', '2026-02-20T00:00:00.000Z'],
      ['subscription.resumed', '2026-03-10T00:00:00.000Z'],
      ['invoice.created', '2026-03-19T00:00:00.000Z'],
      ['invoice.finalized', '2026-03-19T00:00:00.000Z'],
    ]);
    expect((await timeline.invoices()).map((invoice) => invoice.period_start)).toEqual(['2026-01-19T00:00:00.000Z', '2026-02-19T00:00:00.000Z', '2026-03-19T00:00:00.000Z']);
  });

  it('fires a card’s expiry once, though the read models were rebuilt after its notice', async () => {
    const clock = (await api.post('/v1/test-clocks', { frozen_time: '2034-10-15T00:00:00.000Z' }).expect(200)).body.id;
    const customer = (await api.post('/v1/customers', { email: 'card@example.com', test_clock: clock }).expect(200)).body.id;
    const method = (await api.post(`/v1/customers/${customer}/payment-methods`, { type: 'card', token: 'tok_visa' }).expect(200)).body;
    expect(method.card).toMatchObject({ exp_month: 12, exp_year: 2034 });
    const cardEvents = async () => (await api.get(`/v1/events?aggregate_id=${method.id}&sort=created_at:asc&limit=100`).expect(200)).body.data.map((event: { type: string; created_at: string }) => [event.type, event.created_at]);

    await api.post(`/v1/test-clocks/${clock}/advance`, { frozen_time: '2034-12-15T00:00:00.000Z' }).expect(200);
    await tally.settle();
    expect(await cardEvents()).toEqual([['payment_method.expiring', '2034-12-02T00:00:00.000Z']]);
    await rebuildEveryReadModel();
    await api.post(`/v1/test-clocks/${clock}/advance`, { frozen_time: '2035-02-01T00:00:00.000Z' }).expect(200);
    await tally.settle();
    expect(await cardEvents()).toEqual([
      ['payment_method.expiring', '2034-12-02T00:00:00.000Z'],
      ['payment_method.expired', '2035-01-01T00:00:00.000Z'],
    ]);
  });
});
