import { BillingTimeline } from './support/billing-timeline';
import type { InvoiceResource } from '@tally/invoicing';
import { TallyUnderTest, type TestTenant } from './support/tally';

/**
 * Subscriptions billed on sandbox test clocks, written as Kill Bill's integration tests are: each
 * step declares the public events it expects, advances the clock, and asserts exactly those
 * arrived and the invoice lines (period, amount, price version) are as stated.
 */
describe('the billing cycle on test clocks', () => {
  let tally: TallyUnderTest;
  let api: ReturnType<TallyUnderTest['as']>;

  const plan = (code: string, currency: string, interval: string, components: object[], trial_days = 0) =>
    api.post('/v1/plans', { code, product_code: code, currency, interval, interval_count: 1, trial_days, components }).expect(200);

  beforeAll(async () => {
    let acme: TestTenant;
    ({ tally, acme, api } = await TallyUnderTest.withTenant());
    await tally.liftRateLimits(acme.tenantId);
    const seats = { code: 'seats', pricing: { model: 'per_unit', unit_amount: '10.00' } };
    await plan('team', 'EUR', 'month', [{ code: 'base', pricing: { model: 'flat', amount: '30.00' } }, seats], 14);
    await plan('team-plus', 'EUR', 'month', [{ code: 'base', pricing: { model: 'flat', amount: '60.00' } }, seats]);
    await plan('monthly', 'EUR', 'month', [{ code: 'base', pricing: { model: 'flat', amount: '31.00' } }]);
    await plan('annual', 'EUR', 'year', [{ code: 'base', pricing: { model: 'flat', amount: '365.00' } }]);
    await plan('basic-usd', 'USD', 'month', [{ code: 'base', pricing: { model: 'flat', amount: '10.00' } }]);
    await plan('pro-usd', 'USD', 'month', [{ code: 'base', pricing: { model: 'flat', amount: '20.00' } }]);
  });

  afterAll(() => tally.stop());

  /** A customer on a new clock frozen at `start`, subscribed with `body`. */
  async function subscribe(start: string, body: object): Promise<BillingTimeline> {
    const clock = (await api.post('/v1/test-clocks', { frozen_time: start }).expect(200)).body.id;
    const customer = (await api.post('/v1/customers', { email: 'billing@example.com', test_clock: clock }).expect(200)).body.id;
    const subscription = (await api.post('/v1/subscriptions', { customer_id: customer, ...body }).expect(200)).body.id;
    return new BillingTimeline(tally, api, clock, subscription);
  }

  const invoiced = (at: string) => [
    ['invoice.created', at],
    ['invoice.finalized', at],
  ];

  it('runs 13 months of a monthly plan: a trial, an upgrade mid-period, a quantity change, a pause and resume, a cancel at period end', async () => {
    const timeline = await subscribe('2026-01-05T00:00:00.000Z', { plan_code: 'team', quantities: { seats: 2 } });
    expect(await timeline.newEvents()).toEqual([['subscription.created', '2026-01-05T00:00:00.000Z']]);

    // The 14-day trial: warned 3 days before its end, then the first paid period in advance.
    expect(await timeline.advance('2026-01-19T00:00:00.000Z')).toEqual([
      ['subscription.trial_will_end', '2026-01-16T00:00:00.000Z'],
      ['subscription.activated', '2026-01-19T00:00:00.000Z'],
      ...invoiced('2026-01-19T00:00:00.000Z'),
    ]);
    expect(await timeline.lastInvoiceLines()).toEqual([
      ['base', '30.00', '2026-01-19T00:00:00.000Z', '2026-02-19T00:00:00.000Z', 1, false],
      ['seats', '20.00', '2026-01-19T00:00:00.000Z', '2026-02-19T00:00:00.000Z', 2, false],
    ]);

    expect(await timeline.advance('2026-03-04T00:00:00.000Z')).toEqual(invoiced('2026-02-19T00:00:00.000Z'));

    // The upgrade on 4 March, 15 of the period's 28 days left: −30 × 15/28 = −16.07, +60 × 15/28 = 32.14.
    await api.patch(`/v1/subscriptions/${timeline.subscription}`, { plan_code: 'team-plus' }).expect(200);
    expect(await timeline.advance('2026-04-04T00:00:00.000Z')).toEqual([['subscription.updated', '2026-03-04T00:00:00.000Z'], ...invoiced('2026-03-19T00:00:00.000Z')]);
    expect(await timeline.lastInvoiceLines()).toEqual([
      ['base', '60.00', '2026-03-19T00:00:00.000Z', '2026-04-19T00:00:00.000Z', 1, false],
      ['seats', '20.00', '2026-03-19T00:00:00.000Z', '2026-04-19T00:00:00.000Z', 2, false],
      ['base', '-16.07', '2026-03-04T00:00:00.000Z', '2026-03-19T00:00:00.000Z', 1, true],
      ['base', '32.14', '2026-03-04T00:00:00.000Z', '2026-03-19T00:00:00.000Z', 1, true],
    ]);

    // Four seats from 4 April, 15 of the period's 31 days left: −20 × 15/31 = −9.68, +40 × 15/31 = 19.35.
    await api.post(`/v1/subscriptions/${timeline.subscription}/quantities`, { meter: 'seats', quantity: 4 }).expect(200);
    expect(await timeline.advance('2026-05-01T00:00:00.000Z')).toEqual([['subscription.updated', '2026-04-04T00:00:00.000Z'], ...invoiced('2026-04-19T00:00:00.000Z')]);
    expect(await timeline.lastInvoiceLines()).toEqual([
      ['base', '60.00', '2026-04-19T00:00:00.000Z', '2026-05-19T00:00:00.000Z', 1, false],
      ['seats', '40.00', '2026-04-19T00:00:00.000Z', '2026-05-19T00:00:00.000Z', 2, false],
      ['seats', '-9.68', '2026-04-04T00:00:00.000Z', '2026-04-19T00:00:00.000Z', 2, true],
      ['seats', '19.35', '2026-04-04T00:00:00.000Z', '2026-04-19T00:00:00.000Z', 2, true],
    ]);

    // Paused until 1 July voiding its invoices: the four open ones (nothing paid them: payments come later) are voided,
    // May and June are issued and voided; the resume is automatic.
    await api.post(`/v1/subscriptions/${timeline.subscription}/pause`, { until: '2026-07-01T00:00:00.000Z', behavior: 'void_invoices' }).expect(200);
    expect(await timeline.advance('2026-07-20T00:00:00.000Z')).toEqual([
      ['subscription.paused', '2026-05-01T00:00:00.000Z'],
      ...Array.from({ length: 4 }, () => ['invoice.voided', '2026-05-01T00:00:00.000Z']),
      ...invoiced('2026-05-19T00:00:00.000Z'),
      ['invoice.voided', '2026-05-19T00:00:00.000Z'],
      ...invoiced('2026-06-19T00:00:00.000Z'),
      ['invoice.voided', '2026-06-19T00:00:00.000Z'],
      ['subscription.resumed', '2026-07-01T00:00:00.000Z'],
      ...invoiced('2026-07-19T00:00:00.000Z'),
    ]);
    expect((await timeline.invoices()).map((invoice) => [invoice.period_start, invoice.status, invoice.total])).toEqual([
      ['2026-01-19T00:00:00.000Z', 'void', '50.00'],
      ['2026-02-19T00:00:00.000Z', 'void', '50.00'],
      ['2026-03-19T00:00:00.000Z', 'void', '96.07'],
      ['2026-04-19T00:00:00.000Z', 'void', '109.67'],
      ['2026-05-19T00:00:00.000Z', 'void', '100.00'],
      ['2026-06-19T00:00:00.000Z', 'void', '100.00'],
      ['2026-07-19T00:00:00.000Z', 'open', '100.00'],
    ]);

    // Canceled at the end of the January 2027 period: the period closes, then `canceled`; nothing is left to bill.
    expect(await timeline.advance('2027-01-25T00:00:00.000Z')).toEqual(
      ['2026-08-19', '2026-09-19', '2026-10-19', '2026-11-19', '2026-12-19', '2027-01-19'].flatMap((day) => invoiced(`${day}T00:00:00.000Z`)),
    );
    const scheduled = await api.post(`/v1/subscriptions/${timeline.subscription}/cancel`, { at: 'period_end', reason: 'moving on' }).expect(200);
    expect(scheduled.body.cancel_at).toBe('2027-02-19T00:00:00.000Z');
    expect(await timeline.advance('2027-03-01T00:00:00.000Z')).toEqual([
      ['subscription.updated', '2027-01-25T00:00:00.000Z'],
      ['subscription.canceled', '2027-02-19T00:00:00.000Z'],
    ]);
    expect((await timeline.invoices()).length).toBe(13);
    expect((await api.get(`/v1/subscriptions/${timeline.subscription}`).expect(200)).body).toMatchObject({ status: 'canceled', canceled_at: '2027-02-19T00:00:00.000Z', cancellation_reason: 'moving on' });
  });

  it('keeps month ends from an anchor on 31 January: 28 February, 31 March, 30 April', async () => {
    const timeline = await subscribe('2027-01-31T10:00:00.000Z', { plan_code: 'monthly' });
    expect(await timeline.advance('2027-05-01T00:00:00.000Z')).toEqual([
      ['subscription.created', '2027-01-31T10:00:00.000Z'],
      ...['2027-01-31', '2027-02-28', '2027-03-31', '2027-04-30'].flatMap((day) => invoiced(`${day}T10:00:00.000Z`)),
    ]);
    expect((await timeline.invoices()).map((invoice) => [invoice.period_start, invoice.period_end, invoice.total])).toEqual([
      ['2027-01-31T10:00:00.000Z', '2027-02-28T10:00:00.000Z', '31.00'],
      ['2027-02-28T10:00:00.000Z', '2027-03-31T10:00:00.000Z', '31.00'],
      ['2027-03-31T10:00:00.000Z', '2027-04-30T10:00:00.000Z', '31.00'],
      ['2027-04-30T10:00:00.000Z', '2027-05-31T10:00:00.000Z', '31.00'],
    ]);
  });

  it('renews an annual plan anchored on 29 February on 28 February, and on 29 February in leap years', async () => {
    const timeline = await subscribe('2028-02-29T00:00:00.000Z', { plan_code: 'annual' });
    await timeline.advance('2030-01-01T00:00:00.000Z');
    await timeline.advance('2031-12-01T00:00:00.000Z');
    await timeline.advance('2032-03-01T00:00:00.000Z');
    expect((await timeline.invoices()).map((invoice) => [invoice.period_start, invoice.period_end, invoice.total])).toEqual([
      ['2028-02-29T00:00:00.000Z', '2029-02-28T00:00:00.000Z', '365.00'],
      ['2029-02-28T00:00:00.000Z', '2030-02-28T00:00:00.000Z', '365.00'],
      ['2030-02-28T00:00:00.000Z', '2031-02-28T00:00:00.000Z', '365.00'],
      ['2031-02-28T00:00:00.000Z', '2032-02-29T00:00:00.000Z', '365.00'],
      ['2032-02-29T00:00:00.000Z', '2033-02-28T00:00:00.000Z', '365.00'],
    ]);
  });

  it('invoices Stripe’s upgrade example at once with always_invoice (−5.00, +10.00 halfway), and switches back at the boundary with none', async () => {
    const timeline = await subscribe('2026-06-01T00:00:00.000Z', { plan_code: 'basic-usd' });
    await timeline.advance('2026-06-16T00:00:00.000Z');
    await timeline.newEvents();
    await api.patch(`/v1/subscriptions/${timeline.subscription}`, { plan_code: 'pro-usd', proration_behavior: 'always_invoice' }).expect(200);
    expect(await timeline.newEvents()).toEqual([['subscription.updated', '2026-06-16T00:00:00.000Z'], ...invoiced('2026-06-16T00:00:00.000Z')]);
    const [, upgrade] = await timeline.invoices();
    expect([upgrade.billing_reason, upgrade.total, upgrade.lines.map((line) => [line.description, line.amount, line.proration])]).toEqual([
      'subscription_update',
      '5.00',
      [
        ['Unused time on base', '-5.00', true],
        ['Remaining time on base', '10.00', true],
      ],
    ]);

    const none = await api.patch(`/v1/subscriptions/${timeline.subscription}`, { plan_code: 'basic-usd', proration_behavior: 'none' }).expect(200);
    expect(none.body).toMatchObject({ plan_code: 'pro-usd', pending_update: { plan_code: 'basic-usd', effective_at: '2026-07-01T00:00:00.000Z' }, pending_prorations: [] });
    expect(await timeline.advance('2026-07-02T00:00:00.000Z')).toEqual([['subscription.updated', '2026-06-16T00:00:00.000Z'], ...invoiced('2026-07-01T00:00:00.000Z')]);
    expect(await timeline.lastInvoiceLines()).toEqual([['base', '10.00', '2026-07-01T00:00:00.000Z', '2026-08-01T00:00:00.000Z', 1, false]]);
    expect((await api.get(`/v1/subscriptions/${timeline.subscription}`).expect(200)).body).toMatchObject({ plan_code: 'basic-usd', pending_update: null });
  });

  it('credits the unused time on a final invoice when canceled now', async () => {
    const timeline = await subscribe('2026-06-01T00:00:00.000Z', { plan_code: 'basic-usd' });
    await timeline.advance('2026-06-16T00:00:00.000Z');
    await timeline.newEvents();
    await api.post(`/v1/subscriptions/${timeline.subscription}/cancel`, { at: 'now' }).expect(200);
    // The credit reaches the customer's wallet, which settles what it can of the period's invoice, left open with no method to charge.
    expect(await timeline.newEvents()).toEqual([
      ['subscription.canceled', '2026-06-16T00:00:00.000Z'],
      ...invoiced('2026-06-16T00:00:00.000Z'),
      ['invoice.paid', '2026-06-16T00:00:00.000Z'],
      ['invoice.updated', '2026-06-16T00:00:00.000Z'],
      ['invoice.updated', '2026-06-16T00:00:00.000Z'],
    ]);
    const [first, final] = await timeline.invoices();
    expect([final.billing_reason, final.total, final.lines.map((line) => [line.description, line.amount])]).toEqual(['subscription_cancel', '-5.00', [['Unused time on base', '-5.00']]]);
    expect([first.status, first.total, first.amount_paid, first.amount_due]).toEqual(['partially_paid', '10.00', '5.00', '5.00']);
  });

  it('runs a year of renewals in one advance, each setting the next one’s timer on the way', async () => {
    const timeline = await subscribe('2026-01-01T00:00:00.000Z', { plan_code: 'monthly' });
    await timeline.advance('2026-12-31T00:00:00.000Z');
    const starts = (await timeline.invoices()).map((invoice) => invoice.period_start?.slice(0, 10));
    expect(starts).toEqual(['2026-01-01', '2026-02-01', '2026-03-01', '2026-04-01', '2026-05-01', '2026-06-01', '2026-07-01', '2026-08-01', '2026-09-01', '2026-10-01', '2026-11-01', '2026-12-01']);
  });

  it('previews the upcoming invoice exactly as the boundary then issues it, prorations and scheduled changes included', async () => {
    const timeline = await subscribe('2026-01-05T00:00:00.000Z', { plan_code: 'team', quantities: { seats: 1 } });
    const inTrial = await api.get(`/v1/subscriptions/${timeline.subscription}/upcoming-invoice`).expect(200);
    expect([inTrial.body.status, inTrial.body.period_start, inTrial.body.total]).toEqual(['draft', '2026-01-19T00:00:00.000Z', '40.00']);

    await timeline.advance('2026-02-01T00:00:00.000Z');
    await api.post(`/v1/subscriptions/${timeline.subscription}/quantities`, { meter: 'seats', quantity: 3 }).expect(200);
    await api.post(`/v1/subscriptions/${timeline.subscription}/quantities`, { meter: 'seats', quantity: 5, effective_at: 'next_period' }).expect(200);
    const upcoming = (await api.get(`/v1/subscriptions/${timeline.subscription}/upcoming-invoice`).expect(200)).body;
    expect(upcoming).toMatchObject({ object: 'invoice', status: 'draft', number: null, billing_reason: 'subscription_cycle', period_start: '2026-02-19T00:00:00.000Z' });
    await tally.settle();
    expect(await timeline.invoices()).toHaveLength(1);

    await timeline.advance('2026-02-20T00:00:00.000Z');
    const issued = (await timeline.invoices())[1];
    const comparable = (invoice: InvoiceResource) => ({ id: invoice.id, lines: invoice.lines, subtotal: invoice.subtotal, tax: invoice.tax, total: invoice.total, period_end: invoice.period_end });
    expect(comparable(issued)).toEqual(comparable(upcoming));
    // 18 of the period's 31 days were left on 1 February: −10 × 18/31 = −5.81, +30 × 18/31 = 17.42; the scheduled 5 seats bill from the new period.
    expect(issued.lines.map((line) => [line.code, line.amount, line.proration])).toEqual([
      ['base', '30.00', false],
      ['seats', '50.00', false],
      ['seats', '-5.81', true],
      ['seats', '17.42', true],
    ]);

    await api.post(`/v1/subscriptions/${timeline.subscription}/cancel`, { at: 'now' }).expect(200);
    expect((await api.get(`/v1/subscriptions/${timeline.subscription}/upcoming-invoice`).expect(404)).body.problem).toBe('subscription.no_upcoming_invoice');
  });

  it('summarises usage of the current period, or of a closed one', async () => {
    const timeline = await subscribe('2026-03-01T00:00:00.000Z', { plan_code: 'monthly' });
    await timeline.advance('2026-04-10T00:00:00.000Z');
    const current = await api.get(`/v1/subscriptions/${timeline.subscription}/usage`).expect(200);
    expect(current.body).toEqual({ object: 'usage_summary', subscription_id: timeline.subscription, period: { start: '2026-04-01T00:00:00.000Z', end: '2026-05-01T00:00:00.000Z' }, meters: [] });
    const closed = await api.get(`/v1/subscriptions/${timeline.subscription}/usage?period=closed&closed_at=2026-04-01`).expect(200);
    expect(closed.body.period).toEqual({ start: '2026-03-01T00:00:00.000Z', end: '2026-04-01T00:00:00.000Z' });
    expect((await api.get(`/v1/subscriptions/${timeline.subscription}/usage?period=closed&closed_at=2026-05-01`).expect(400)).body.problem).toBe('subscription.period_not_closed');
    expect((await api.get(`/v1/subscriptions/${timeline.subscription}/usage?period=closed`).expect(200)).body.period).toEqual(closed.body.period);
    expect((await api.get(`/v1/subscriptions/${timeline.subscription}/usage?closed_at=2026-04-01`).expect(200)).body.period).toEqual(closed.body.period);
    expect((await api.get(`/v1/subscriptions/${timeline.subscription}/usage?period=last`).expect(400)).body.problem).toBe('request.invalid_parameter');
    expect((await api.get(`/v1/subscriptions/${timeline.subscription}/usage?period=current&closed_at=garbage`).expect(400)).body.problem).toBe('request.invalid_parameter');
  });

  it('warns 30 days before a commitment ends, and ends the subscription there without renewal', async () => {
    const timeline = await subscribe('2026-01-01T00:00:00.000Z', { plan_code: 'monthly', commitment: { periods: 3, renewal: 'none' } });
    const created = (await api.get(`/v1/subscriptions/${timeline.subscription}`).expect(200)).body;
    expect(created).toMatchObject({ commitment: { periods: 3, renewal: 'none' }, commitment_end_at: '2026-04-01T00:00:00.000Z' });
    expect(await timeline.advance('2026-04-02T00:00:00.000Z')).toEqual([
      ['subscription.created', '2026-01-01T00:00:00.000Z'],
      ...invoiced('2026-01-01T00:00:00.000Z'),
      ...invoiced('2026-02-01T00:00:00.000Z'),
      ['subscription.commitment_ending', '2026-03-02T00:00:00.000Z'],
      ...invoiced('2026-03-01T00:00:00.000Z'),
      ['subscription.updated', '2026-04-01T00:00:00.000Z'],
    ].sort((a, b) => a[1].localeCompare(b[1])));
    expect((await api.get(`/v1/subscriptions/${timeline.subscription}`).expect(200)).body).toMatchObject({ status: 'ended', ended_at: '2026-04-01T00:00:00.000Z' });
    expect(await timeline.invoices()).toHaveLength(3);
  });

  it('renews a commitment with automatic renewal: a new term of the same length', async () => {
    const timeline = await subscribe('2026-01-01T00:00:00.000Z', { plan_code: 'monthly', commitment: { periods: 2, renewal: 'auto' } });
    const events = await timeline.advance('2026-03-15T00:00:00.000Z');
    // The first term ends on 1 March (warned 30 days before, on 30 January); the second on 1 May, warned on 1 April.
    expect(events.filter(([type]) => type === 'subscription.commitment_ending')).toEqual([['subscription.commitment_ending', '2026-01-30T00:00:00.000Z']]);
    expect((await api.get(`/v1/subscriptions/${timeline.subscription}`).expect(200)).body).toMatchObject({ status: 'active', commitment_end_at: '2026-05-01T00:00:00.000Z' });
    expect((await timeline.advance('2026-04-02T00:00:00.000Z')).filter(([type]) => type === 'subscription.commitment_ending')).toEqual([['subscription.commitment_ending', '2026-04-01T00:00:00.000Z']]);
  });

  it('keeps a pause’s invoices as drafts, or writes them off with the open ones, as its behaviour says', async () => {
    for (const [behavior, open, status] of [
      ['keep_as_draft', 'open', 'draft'],
      ['mark_uncollectible', 'uncollectible', 'uncollectible'],
    ]) {
      const timeline = await subscribe('2026-01-01T00:00:00.000Z', { plan_code: 'monthly' });
      await api.post(`/v1/subscriptions/${timeline.subscription}/pause`, { until: null, behavior }).expect(200);
      await timeline.advance('2026-02-02T00:00:00.000Z');
      expect((await timeline.invoices()).map((invoice) => [invoice.period_start, invoice.status])).toEqual([
        ['2026-01-01T00:00:00.000Z', open],
        ['2026-02-01T00:00:00.000Z', status],
      ]);
    }
  });

  it('cancels the subscriptions of a deleted test clock’s customers, without a final invoice', async () => {
    const timeline = await subscribe('2026-01-01T00:00:00.000Z', { plan_code: 'monthly' });
    await timeline.advance('2026-01-15T00:00:00.000Z');
    await api.delete(`/v1/test-clocks/${timeline.clock}`).expect(200);
    await tally.settle();
    expect((await api.get(`/v1/subscriptions/${timeline.subscription}`).expect(200)).body).toMatchObject({ status: 'canceled', cancellation_reason: 'customer_deleted' });
    expect((await timeline.invoices()).map((invoice) => invoice.billing_reason)).toEqual(['subscription_create']);
    expect((await timeline.newEvents()).map(([type]) => type)).toEqual(['subscription.canceled']);
  });
});
