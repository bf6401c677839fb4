import { BillingTimeline } from './support/billing-timeline';
import { listAll } from './support/list-all';
import { TallyUnderTest, type TestTenant } from './support/tally';

const T0 = '2026-03-02T09:00:00.000Z';
const day = (n: number) => new Date(Date.parse(T0) + n * 86_400_000).toISOString();

/**
 * Dunning as Kill Bill's tests read it: a subscription on a test clock whose first payment fails;
 * each step declares the public events it expects, advances the clock, and asserts exactly those
 * arrived (of the subscription, its invoices and their payments: its billing timeline), with their times.
 */
describe('the money flow and dunning on a test clock', () => {
  let tally: TallyUnderTest;
  let acme: TestTenant;
  let api: ReturnType<TallyUnderTest['as']>;

  beforeAll(async () => {
    ({ tally, acme, api } = await TallyUnderTest.withTenant());
    await tally.liftRateLimits(acme.tenantId);
  });
  afterAll(() => tally.stop());

  /** A monthly plan of `amount` (30.00) with this dunning policy, a customer on a fresh clock paying by `token`, subscribed. */
  async function subscribed(code: string, dunning_policy: object | null, token: string, subscription_options: object = {}, amount = '30.00') {
    await api.post('/v1/plans', { code, product_code: code, currency: 'EUR', interval: 'month', dunning_policy, components: [{ code: 'base', pricing: { model: 'flat', amount } }] }).expect(200);
    const clock = (await api.post('/v1/test-clocks', { frozen_time: T0 }).expect(200)).body.id as string;
    const customer = (await api.post('/v1/customers', { email: `${code}@example.com`, test_clock: clock }).expect(200)).body.id as string;
    await api.post(`/v1/customers/${customer}/payment-methods`, { type: 'card', token, set_as_default: true }).expect(200);
    const created = (await api.post('/v1/subscriptions', { customer_id: customer, plan_code: code, ...subscription_options }).expect(200)).body as { id: string; status: string };
    const subscription = created.id;
    await tally.settle();
    const timeline = new BillingTimeline(tally, api, clock, subscription, { payments: true });
    const [{ id: invoice }] = await timeline.invoices();
    return { subscription, invoice, customer, createdStatus: created.status, newEvents: () => timeline.newEvents(), advance: (to: string) => timeline.advance(to) };
  }

  const status = async (path: string) => (await api.get(path).expect(200)).body.status as string;
  const sorted = (events: [string, string][]) => [...events].sort(([a, at], [b, bt]) => at.localeCompare(bt) || a.localeCompare(b));

  it('the spec’s typical flow: a new customer’s card pays each period’s invoice as it is finalised', async () => {
    const run = await subscribed('typical', null, 'tok_visa');
    const paidPeriod = (at: string) => [
      ['invoice.created', at],
      ['invoice.finalized', at],
      ['invoice.updated', at],
      ['payment.created', at],
      ['payment.succeeded', at],
      ['payment.settled', at],
      ['invoice.updated', at],
      ['invoice.paid', at],
    ];
    expect(sorted(await run.newEvents())).toEqual(sorted([['subscription.created', T0], ...paidPeriod(T0), ['subscription.activated', T0]] as [string, string][]));
    const renewal = '2026-04-02T09:00:00.000Z';
    // The first invoice and the subscription say nothing more; the renewal's invoice and its payment say it all.
    expect(sorted(await run.advance(renewal))).toEqual(sorted(paidPeriod(renewal) as [string, string][]));
    const invoices = await listAll<{ id: string; status: string; period_start: string; payments: string[] }>(api, `/v1/invoices?subscription_id=${run.subscription}&sort=created_at:asc`);
    expect(invoices.map((invoice) => [invoice.status, invoice.period_start, invoice.payments.length])).toEqual([
      ['paid', T0, 1],
      ['paid', renewal, 1],
    ]);
    expect(await status(`/v1/subscriptions/${run.subscription}`)).toBe('active');
  });

  it('retries a retriable failure on the fixed days (never before the provider’s hint), then cancels the subscription', async () => {
    const run = await subscribed('fixed', { retry_days: [1, 3], final_action: 'cancel_subscription', use_provider_hints: false }, 'tok_insufficient_funds');
    expect(sorted(await run.newEvents())).toEqual(
      sorted([
        ['subscription.created', T0],
        ['invoice.created', T0],
        ['invoice.finalized', T0],
        ['invoice.updated', T0],
        ['payment.created', T0],
        ['payment.failed', T0],
        ['invoice.payment_failed', T0],
        ['subscription.past_due', T0],
      ]),
    );

    expect(await run.advance(day(0.5))).toEqual([]);
    expect(sorted(await run.advance(day(1)))).toEqual(sorted([['invoice.updated', day(1)], ['payment.created', day(1)], ['payment.failed', day(1)], ['invoice.payment_failed', day(1)]]));
    expect(await run.advance(day(2.9))).toEqual([]);
    const last = await run.advance(day(3));
    expect(sorted(last)).toEqual(
      sorted([['invoice.updated', day(3)], ['payment.created', day(3)], ['payment.failed', day(3)], ['invoice.payment_failed', day(3)], ['subscription.canceled', day(3)]]),
    );
    expect(await status(`/v1/subscriptions/${run.subscription}`)).toBe('canceled');
    // No final invoice credits time that was never paid for: the unpaid invoice stays open, the only one.
    expect((await listAll<{ id: string; status: string }>(api, `/v1/invoices?subscription_id=${run.subscription}`)).map((invoice) => [invoice.id, invoice.status])).toEqual([[run.invoice, 'open']]);
    expect(await run.advance(day(30))).toEqual([]);
    const payments = await listAll<{ reason: string; status: string; created_at: string }>(api, `/v1/payments?invoice_id=${run.invoice}&sort=created_at:asc`);
    expect(payments.map((payment) => [payment.reason, payment.status, payment.created_at])).toEqual([
      ['automatic', 'failed', T0],
      ['retry', 'failed', day(1)],
      ['retry', 'failed', day(3)],
    ]);
  });

  it('charges the subscription’s own method, which its invoices carry from their issue, before the customer’s default; a new default retries with it', async () => {
    await api.post('/v1/plans', { code: 'own', product_code: 'own', currency: 'EUR', interval: 'month', components: [{ code: 'base', pricing: { model: 'flat', amount: '30.00' } }] }).expect(200);
    const clock = (await api.post('/v1/test-clocks', { frozen_time: T0 }).expect(200)).body.id as string;
    const customer = (await api.post('/v1/customers', { email: 'own@example.com', test_clock: clock }).expect(200)).body.id as string;
    await api.post(`/v1/customers/${customer}/payment-methods`, { type: 'card', token: 'tok_visa', set_as_default: true }).expect(200);
    const own = (await api.post(`/v1/customers/${customer}/payment-methods`, { type: 'card', token: 'tok_insufficient_funds' }).expect(200)).body.id as string;
    const subscription = (await api.post('/v1/subscriptions', { customer_id: customer, plan_code: 'own', default_payment_method_id: own }).expect(200)).body.id as string;
    await tally.settle();
    const [invoice] = await listAll<{ id: string; status: string }>(api, `/v1/invoices?subscription_id=${subscription}`);
    const attempts = async () =>
      (await listAll<{ reason: string; status: string; payment_method_id: string }>(api, `/v1/payments?invoice_id=${invoice.id}&sort=created_at:asc`)).map((payment) => [payment.reason, payment.status, payment.payment_method_id]);
    // The customer's default would have paid; the subscription's own method is the one charged, and it is declined.
    expect(await attempts()).toEqual([['automatic', 'failed', own]]);
    // A new default of the customer's retries the failed invoice at once, with the new method.
    const fresh = (await api.post(`/v1/customers/${customer}/payment-methods`, { type: 'card', token: 'tok_mastercard', set_as_default: true }).expect(200)).body.id as string;
    await tally.settle();
    // Both attempts happened at the test clock's one frozen instant, so their order in the list is the ids'.
    expect((await attempts()).sort(([a], [b]) => a.localeCompare(b))).toEqual([
      ['automatic', 'failed', own],
      ['retry', 'succeeded', fresh],
    ]);
    expect(await status(`/v1/invoices/${invoice.id}`)).toBe('paid');
  });

  it('follows the provider’s hint in place of the fixed days by default, then writes the invoice off', async () => {
    const run = await subscribed('hinted', { retry_days: [5, 10], final_action: 'mark_uncollectible' }, 'tok_insufficient_funds');
    await run.newEvents();
    // The hint (a day after each failure) wins over days 5 and 10.
    expect(sorted(await run.advance(day(1)))).toEqual(sorted([['invoice.updated', day(1)], ['payment.created', day(1)], ['payment.failed', day(1)], ['invoice.payment_failed', day(1)]]));
    expect(sorted(await run.advance(day(2)))).toEqual(
      sorted([['invoice.updated', day(2)], ['payment.created', day(2)], ['payment.failed', day(2)], ['invoice.payment_failed', day(2)], ['invoice.marked_uncollectible', day(2)]]),
    );
    expect(await status(`/v1/invoices/${run.invoice}`)).toBe('uncollectible');
    expect(await status(`/v1/subscriptions/${run.subscription}`)).toBe('past_due');
    expect(await run.advance(day(15))).toEqual([]);
  });

  it('never retries what the provider says is not retriable; the final action follows at the schedule’s end', async () => {
    const run = await subscribed('declined', { retry_days: [1, 3], final_action: 'cancel_subscription' }, 'tok_card_declined');
    await run.newEvents();
    expect(await run.advance(day(2.9))).toEqual([]);
    expect(await run.advance(day(3))).toEqual([['subscription.canceled', day(3)]]);
    expect((await listAll<{ id: string }>(api, `/v1/payments?invoice_id=${run.invoice}`)).length).toBe(1);
  });

  it('stops when the invoice is paid: a new default method retries at once, and no scheduled retry follows', async () => {
    const run = await subscribed('recovered', { retry_days: [2, 4], final_action: 'cancel_subscription', use_provider_hints: false }, 'tok_insufficient_funds');
    const customer = (await api.get(`/v1/subscriptions/${run.subscription}`).expect(200)).body.customer_id as string;
    await run.newEvents();
    await run.advance(day(1));
    await api.post(`/v1/customers/${customer}/payment-methods`, { type: 'card', token: 'tok_visa', set_as_default: true }).expect(200);
    expect(sorted(await run.newEvents())).toEqual(
      sorted([['invoice.updated', day(1)], ['payment.created', day(1)], ['payment.succeeded', day(1)], ['payment.settled', day(1)], ['invoice.updated', day(1)], ['invoice.paid', day(1)], ['subscription.activated', day(1)]]),
    );
    expect(await status(`/v1/subscriptions/${run.subscription}`)).toBe('active');
    // Day 2 and day 4 pass without a retry; the next period's invoice comes a month later.
    expect(await run.advance(day(5))).toEqual([]);
  });

  it('leaves the subscription past due when the policy says so, once the schedule ends', async () => {
    const run = await subscribed('lenient', { retry_days: [1], final_action: 'leave_past_due' }, 'tok_insufficient_funds');
    await run.newEvents();
    expect(sorted(await run.advance(day(1)))).toEqual(sorted([['invoice.updated', day(1)], ['payment.created', day(1)], ['payment.failed', day(1)], ['invoice.payment_failed', day(1)]]));
    expect(await run.advance(day(20))).toEqual([]);
    expect(await status(`/v1/subscriptions/${run.subscription}`)).toBe('past_due');
    expect(await status(`/v1/invoices/${run.invoice}`)).toBe('open');
  });

  describe('a subscription that waits for its first payment (payment_behavior: default_incomplete)', () => {
    const incomplete = { payment_behavior: 'default_incomplete' };

    it('is pending activation until its first invoice is paid, then active for the period that invoice billed', async () => {
      const run = await subscribed('incomplete-paid', null, 'tok_visa', incomplete);
      expect(sorted(await run.newEvents())).toEqual(
        sorted([
          ['subscription.created', T0],
          ['invoice.created', T0],
          ['invoice.finalized', T0],
          ['invoice.updated', T0],
          ['payment.created', T0],
          ['payment.succeeded', T0],
          ['payment.settled', T0],
          ['invoice.updated', T0],
          ['invoice.paid', T0],
          ['subscription.activated', T0],
        ]),
      );
      const subscription = (await api.get(`/v1/subscriptions/${run.subscription}`).expect(200)).body;
      expect(subscription).toMatchObject({ status: 'active', current_period_start: T0 });
    });

    it('expires after 23 hours when the first payment’s 3DS is never completed: the invoice is voided and the payment canceled', async () => {
      const run = await subscribed('incomplete-expired', null, 'tok_3ds_required', incomplete);
      const first = await run.newEvents();
      expect(first.map(([type]) => type)).toContain('payment.requires_action');
      expect(first.map(([type]) => type)).not.toContain('subscription.activated');
      expect(await status(`/v1/subscriptions/${run.subscription}`)).toBe('pending_activation');
      const expiry = new Date(Date.parse(T0) + 23 * 3_600_000).toISOString();
      expect(await run.advance(day(0.9))).toEqual([]);
      expect(sorted(await run.advance(expiry))).toEqual(
        sorted([
          ['subscription.updated', expiry],
          ['invoice.voided', expiry],
          ['payment.canceled', expiry],
          ['invoice.updated', expiry],
        ]),
      );
      expect(await status(`/v1/subscriptions/${run.subscription}`)).toBe('incomplete_expired');
      expect(await status(`/v1/invoices/${run.invoice}`)).toBe('void');
      expect(await run.advance(day(40))).toEqual([]);
    });

    it('is activated when the customer completes 3DS in time', async () => {
      const run = await subscribed('incomplete-completed', null, 'tok_3ds_required', incomplete);
      await run.newEvents();
      await run.advance(day(0.5));
      const payment = (await listAll<{ id: string }>(api, `/v1/payments?invoice_id=${run.invoice}`))[0].id;
      await api.post(`/v1/test-helpers/payments/${payment}/complete-action`).expect(200);
      const completed = (await run.newEvents()).map(([type]) => type);
      expect(completed).toEqual(expect.arrayContaining(['payment.action_completed', 'payment.succeeded', 'invoice.paid', 'subscription.activated']));
      expect(await status(`/v1/subscriptions/${run.subscription}`)).toBe('active');
      // The expiry timer passes without effect.
      expect(await run.advance(day(1))).toEqual([]);
      expect(await status(`/v1/subscriptions/${run.subscription}`)).toBe('active');
    });
  });

  /**
   * `subscription.activated` is what consumers grant access on: a subscription created active (no
   * trial) announces it only once its first invoice is paid, after `invoice.paid`; a declined or
   * unauthenticated first payment makes it `past_due` with no activation until a later payment
   * succeeds. These steps assert the events in the order they happened.
   */
  describe('the activation of a new subscription follows its first payment', () => {
    const hours = (n: number) => new Date(Date.parse(T0) + n * 3_600_000).toISOString();
    const at = (types: string[], when = T0): [string, string][] => types.map((type) => [type, when]);
    const issued = ['invoice.created', 'invoice.finalized', 'invoice.updated', 'payment.created'];
    const firstPayment = async (invoice: string) => (await listAll<{ id: string }>(api, `/v1/payments?invoice_id=${invoice}`))[0].id;

    it('a card that pays: active at once, and activated after its first invoice is paid', async () => {
      const run = await subscribed('activation-paid', null, 'tok_visa');
      expect(run.createdStatus).toBe('active');
      expect(await run.newEvents()).toEqual(at(['subscription.created', ...issued, 'payment.succeeded', 'payment.settled', 'invoice.updated', 'invoice.paid', 'subscription.activated']));
      // Renewals announce nothing more of the subscription.
      expect((await run.advance('2026-04-02T09:00:00.000Z')).map(([type]) => type)).not.toContain('subscription.activated');
    });

    it('a declined card: past due and never activated, until the customer’s new card pays the invoice', async () => {
      const run = await subscribed('activation-declined', null, 'tok_card_declined');
      expect(run.createdStatus).toBe('active');
      expect(await run.newEvents()).toEqual(at(['subscription.created', ...issued, 'payment.failed', 'invoice.payment_failed', 'subscription.past_due']));
      expect(await run.advance(hours(2))).toEqual([]);
      await api.post(`/v1/customers/${run.customer}/payment-methods`, { type: 'card', token: 'tok_visa', set_as_default: true }).expect(200);
      expect(await run.newEvents()).toEqual(at(['invoice.updated', 'payment.created', 'payment.succeeded', 'payment.settled', 'invoice.updated', 'invoice.paid', 'subscription.activated'], hours(2)));
      expect(await status(`/v1/subscriptions/${run.subscription}`)).toBe('active');
    });

    it('a card that needs 3DS: no activation while the customer has not authenticated, then one once they have', async () => {
      const run = await subscribed('activation-3ds', null, 'tok_3ds_required');
      expect(await run.newEvents()).toEqual(at(['subscription.created', ...issued, 'payment.requires_action']));
      expect(await status(`/v1/subscriptions/${run.subscription}`)).toBe('active');
      expect(await run.advance(hours(1))).toEqual([]);
      await api.post(`/v1/test-helpers/payments/${await firstPayment(run.invoice)}/complete-action`).expect(200);
      expect(await run.newEvents()).toEqual(at(['payment.action_completed', 'payment.succeeded', 'payment.settled', 'invoice.updated', 'invoice.paid', 'subscription.activated'], hours(1)));
    });

    it('a card whose 3DS fails: past due, with no activation', async () => {
      const run = await subscribed('activation-3ds-failed', null, 'tok_3ds_sdk');
      await run.newEvents();
      await api.post(`/v1/test-helpers/payments/${await firstPayment(run.invoice)}/fail-action`).expect(200);
      expect(await run.newEvents()).toEqual(at(['payment.action_completed', 'payment.failed', 'invoice.payment_failed', 'subscription.past_due']));
      expect(await status(`/v1/subscriptions/${run.subscription}`)).toBe('past_due');
    });

    it('a first invoice of nothing counts as paid: activated once it is', async () => {
      const run = await subscribed('activation-free', null, 'tok_card_declined', {}, '0.00');
      expect(await run.newEvents()).toEqual(at(['subscription.created', 'invoice.created', 'invoice.finalized', 'invoice.paid', 'subscription.activated']));
    });
  });

  it('uses the default policy (days 1, 3, 5, 7, then cancel) for a plan without one', async () => {
    const run = await subscribed('default-policy', null, 'tok_card_declined');
    await run.newEvents();
    expect(await run.advance(day(6.9))).toEqual([]);
    expect(await run.advance(day(7))).toEqual([['subscription.canceled', day(7)]]);
  });
});
