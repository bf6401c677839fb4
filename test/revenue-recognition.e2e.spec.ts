import { BillingTimeline } from './support/billing-timeline';
import { TallyUnderTest, type TestTenant } from './support/tally';

/**
 * A credit note (every refund issues one) on a subscription's invoice adjusts its revenue
 * recognition schedule and fires `subscription.refund_processed`, written as Kill Bill's
 * integration tests are: each step declares the public events it expects, advances the test
 * clock, and asserts exactly those arrived and the schedule's rows are as stated.
 */
describe('revenue recognition of refunds and credit notes on test clocks', () => {
  let tally: TallyUnderTest;
  let api: ReturnType<TallyUnderTest['as']>;

  beforeAll(async () => {
    let acme: TestTenant;
    ({ tally, acme, api } = await TallyUnderTest.withTenant());
    await tally.liftRateLimits(acme.tenantId);
    await api.post('/v1/plans', { code: 'monthly', product_code: 'monthly', currency: 'EUR', interval: 'month', interval_count: 1, components: [{ code: 'base', pricing: { model: 'flat', amount: '31.00' } }] }).expect(200);
  });
  afterAll(() => tally.stop());

  it('reverses the recognised share on the credit note’s day, takes the rest off the future rows, and tells the subscription', async () => {
    const clock = (await api.post('/v1/test-clocks', { frozen_time: '2026-01-01T00:00:00.000Z' }).expect(200)).body.id;
    const customer = (await api.post('/v1/customers', { email: 'refunds@example.com', test_clock: clock }).expect(200)).body.id;
    await api.post(`/v1/customers/${customer}/payment-methods`, { type: 'card', token: 'tok_visa', set_as_default: true }).expect(200);
    const subscription = (await api.post('/v1/subscriptions', { customer_id: customer, plan_code: 'monthly' }).expect(200)).body.id;
    const timeline = new BillingTimeline(tally, api, clock, subscription);
    const JAN1 = '2026-01-01T00:00:00.000Z';
    expect(await timeline.newEvents()).toEqual([
      ['subscription.created', JAN1],
      ['invoice.created', JAN1],
      ['invoice.finalized', JAN1],
      // The card's payment started, then applied.
      ['invoice.updated', JAN1],
      ['invoice.updated', JAN1],
      ['invoice.paid', JAN1],
      ['subscription.activated', JAN1],
    ]);
    const [invoice] = await timeline.invoices();
    expect(invoice).toMatchObject({ status: 'paid', total: '31.00' });
    const line = invoice.lines[0].id;

    // Ten of January's 31 days recognised (1.00 a day); half the line credited on the 11th: 5.00 reversed that day, 10.50 off the 21 days ahead.
    expect(await timeline.advance('2026-01-11T09:00:00.000Z')).toEqual([]);
    const first = (await api.post(`/v1/invoices/${invoice.id}/credit-notes`, { reason: 'product_unsatisfactory', lines: [{ line_id: line, amount: '15.50' }] }).expect(200)).body;
    expect(await timeline.newEvents()).toEqual([
      ['credit_note.created', '2026-01-11T09:00:00.000Z'],
      ['subscription.refund_processed', '2026-01-11T09:00:00.000Z'],
    ]);
    const processed = (await api.get(`/v1/events?type=subscription.refund_processed&aggregate_id=${subscription}`).expect(200)).body.data[0];
    expect(processed.data).toMatchObject({ id: subscription, object: 'subscription', status: 'active' });
    expect(processed.data.latest_refund).toEqual({
      invoice_id: invoice.id,
      credit_note_id: first.id,
      refund_id: null,
      amount: '15.50',
      currency: 'EUR',
      revenue_reduced: '15.50',
      recognized_reversed: '5.00',
      deferred_reduced: '10.50',
      processed_at: '2026-01-11T09:00:00.000Z',
    });
    const schedule = (await api.get(`/v1/invoices/${invoice.id}/recognition-schedule`).expect(200)).body;
    expect(schedule).toMatchObject({ total: '15.50', recognized_to_date: '10.00', deferred: '5.50' });
    const rows = schedule.rows.map((row: { date: string; credit_note_id: string | null; amount: string }) => [row.date, row.credit_note_id, row.amount]);
    expect(rows.slice(9, 13)).toEqual([
      ['2026-01-10', null, '1.00'],
      ['2026-01-11', null, '0.50'],
      ['2026-01-11', first.id, '-5.00'],
      ['2026-01-12', null, '0.50'],
    ]);
    expect(rows.at(-1)).toEqual(['2026-01-31', null, '0.50']);

    // The rest credited on the 21st: the line is credited whole, its future rows are gone, all it recognised is reversed.
    expect(await timeline.advance('2026-01-21T09:00:00.000Z')).toEqual([]);
    const second = (await api.post(`/v1/invoices/${invoice.id}/credit-notes`, { reason: 'product_unsatisfactory', lines: [{ line_id: line, amount: '15.50' }] }).expect(200)).body;
    expect(await timeline.newEvents()).toEqual([
      ['credit_note.created', '2026-01-21T09:00:00.000Z'],
      ['subscription.refund_processed', '2026-01-21T09:00:00.000Z'],
    ]);
    const latest = (await api.get(`/v1/subscriptions/${subscription}`).expect(200)).body.latest_refund;
    expect(latest).toMatchObject({ credit_note_id: second.id, revenue_reduced: '15.50', recognized_reversed: '10.00', deferred_reduced: '5.50' });
    const after = (await api.get(`/v1/invoices/${invoice.id}/recognition-schedule`).expect(200)).body;
    // The reversal falls on the 21st, the first day not yet recognised: until it ends, it is what is left to recognise.
    expect(after).toMatchObject({ total: '0.00', recognized_to_date: '10.00', deferred: '-10.00' });
    expect(await timeline.advance('2026-01-22T00:00:00.000Z')).toEqual([]);
    expect((await api.get(`/v1/invoices/${invoice.id}/recognition-schedule`).expect(200)).body).toMatchObject({ total: '0.00', recognized_to_date: '0.00', deferred: '0.00' });
    expect(after.rows.filter((row: { date: string; credit_note_id: string | null }) => row.date >= '2026-01-21' && row.credit_note_id === null)).toEqual([]);

    // The ledger took both: contra-revenue, owed back to the customer (the invoice was paid).
    const entries = (await api.get(`/v1/reports/ledger/entries?source.id=${invoice.id}`).expect(200)).body.data as { source: { id: string; event_type: string }; lines: { account: string; side: string; amount: string }[] }[];
    expect(entries.map((entry) => entry.source.event_type)).toEqual(['InvoiceFinalized', 'InvoicePaymentApplied', 'CreditNoteIssued', 'CreditNoteIssued']);
    const credited = entries.filter((entry) => entry.source.event_type === 'CreditNoteIssued');
    expect(credited.map((entry) => entry.lines)).toEqual([
      [
        { account: 'refunds', side: 'debit', amount: '15.50' },
        { account: 'credits_owed', side: 'credit', amount: '15.50' },
      ],
      [
        { account: 'refunds', side: 'debit', amount: '15.50' },
        { account: 'credits_owed', side: 'credit', amount: '15.50' },
      ],
    ]);
  });

  it('fires nothing for a credit note on an invoice without a subscription', async () => {
    const customer = (await api.post('/v1/customers', { email: 'one-off@example.com' }).expect(200)).body.id;
    const draft = (await api.post('/v1/invoices', { customer_id: customer, currency: 'EUR', auto_charge: false, lines: [{ description: 'Workshop', quantity: '1', unit_amount: '100.00' }] }).expect(200)).body;
    await api.post(`/v1/invoices/${draft.id}/finalize`).expect(200);
    await api.post(`/v1/invoices/${draft.id}/credit-notes`, { reason: 'duplicate', amount: '10.00' }).expect(200);
    await tally.settle();
    const types = (await api.get(`/v1/events?aggregate_id=${draft.id}&sort=created_at:asc`).expect(200)).body.data.map((event: { type: string }) => event.type);
    expect(types).toEqual(['invoice.created', 'invoice.finalized', 'credit_note.created']);
    const processed = (await api.get('/v1/events?type=subscription.refund_processed').expect(200)).body.data as { data: { latest_refund: { invoice_id: string } } }[];
    expect(processed.map((event) => event.data.latest_refund.invoice_id)).not.toContain(draft.id);
  });
});
