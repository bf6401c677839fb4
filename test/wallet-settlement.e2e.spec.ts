import Big from 'big.js';
import { BillingTimeline } from './support/billing-timeline';
import { listAll } from './support/list-all';
import { TallyUnderTest, type TestTenant } from './support/tally';

type Invoice = { id: string; status: string; total: string; amount_paid: string; amount_due: string; payments: string[] };
type Payment = { id: string; status: string; provider: string; provider_id: string; payment_method_id: string; amount: string; reason: string };
type Transaction = { id?: string; transaction_id?: string; type: 'credit' | 'debit'; amount: string; balance_after: string; reason: string; source: { type: string; id: string | null } };

/**
 * The customer's credit balance is the wallet (issue 30, items 2 and 3): invoices settle from it
 * first, as payments with `provider: wallet`, the card is charged for the rest, money that reaches
 * the wallet settles open invoices oldest due first, pay takes `source: wallet`, a void gives back
 * what the wallet paid, and a negative invoice total reaches the wallet.
 */
describe('invoices settled from the customer’s wallet', () => {
  let tally: TallyUnderTest;
  let api: ReturnType<TallyUnderTest['as']>;

  beforeAll(async () => {
    let acme: TestTenant;
    ({ tally, acme, api } = await TallyUnderTest.withTenant());
    await tally.liftRateLimits(acme.tenantId);
    const plan = (code: string, currency: string, amount: string) =>
      api.post('/v1/plans', { code, product_code: code, currency, interval: 'month', components: [{ code: 'base', pricing: { model: 'flat', amount } }] }).expect(200);
    await plan('monthly', 'EUR', '30.00');
    await plan('basic-usd', 'USD', '10.00');
    await plan('pro-usd', 'USD', '20.00');
  });
  afterAll(() => tally.stop());

  /** A customer (on `clock`, if given) paying by card by default. */
  const customer = async (clock?: string) => {
    const id = (await api.post('/v1/customers', { email: 'wallet@example.com', ...(clock && { test_clock: clock }) }).expect(200)).body.id as string;
    await api.post(`/v1/customers/${id}/payment-methods`, { type: 'card', token: 'tok_visa', set_as_default: true }).expect(200);
    return id;
  };
  const openWallet = async (customerId: string, currency = 'EUR') => (await api.post(`/v1/customers/${customerId}/wallets`, { currency }).expect(200)).body.id as string;
  const credit = async (walletId: string, amount: string) => {
    await api.post(`/v1/wallets/${walletId}/credits`, { amount, reason: 'manual_topup' }).expect(200);
    await tally.settle();
  };
  const balance = async (walletId: string) => (await api.get(`/v1/wallets/${walletId}`).expect(200)).body.balance as string;
  const transactions = (walletId: string) => listAll<Transaction>(api, `/v1/wallets/${walletId}/transactions?sort=sequence:asc`);
  const movements = async (walletId: string) => (await transactions(walletId)).map((t) => [t.type, t.amount, t.reason, t.source.type, t.source.id]);
  const walletOf = async (customerId: string, currency: string) => (await api.get(`/v1/wallets?customer_id=${customerId}&currency=${currency}`).expect(200)).body.data[0]?.id as string | undefined;
  /** An invoice of `amount`, finalised (`auto_charge` off: it waits to be paid). */
  const invoice = async (customerId: string, amount: string, extra: object = {}) => {
    const draft = (await api.post('/v1/invoices', { customer_id: customerId, currency: 'EUR', lines: [{ description: 'Consulting', quantity: '1', unit_amount: amount }], ...extra }).expect(200)).body.id as string;
    await api.post(`/v1/invoices/${draft}/finalize`).expect(200);
    await tally.settle();
    return draft;
  };
  const invoiceOf = async (id: string) => (await api.get(`/v1/invoices/${id}`).expect(200)).body as Invoice;
  const paymentOf = async (id: string) => (await api.get(`/v1/payments/${id}`).expect(200)).body as Payment;
  const paymentsOf = async (id: string) => Promise.all((await invoiceOf(id)).payments.map(paymentOf));
  /** The public events of one aggregate, in their sequence. */
  const eventsOf = async (aggregateId: string) => (await listAll<{ type: string }>(api, `/v1/events?aggregate_id=${aggregateId}&sort=created_at:asc`)).map((event) => event.type);

  it('settles an invoice the wallet covers at finalisation, with no card charge', async () => {
    const payer = await customer();
    const wallet = await openWallet(payer);
    await credit(wallet, '100.00');
    const paid = await invoice(payer, '30.00');

    expect(await invoiceOf(paid)).toMatchObject({ status: 'paid', total: '30.00', amount_paid: '30.00', amount_due: '0.00' });
    const [payment] = await paymentsOf(paid);
    expect(await paymentsOf(paid)).toHaveLength(1);
    expect(payment).toMatchObject({ provider: 'wallet', provider_id: expect.stringMatching(/^wtx_/), payment_method_id: wallet, status: 'succeeded', amount: '30.00', reason: 'automatic' });
    expect(await balance(wallet)).toBe('70.00');
    expect(await movements(wallet)).toEqual([
      ['credit', '100.00', 'manual_topup', 'manual', null],
      ['debit', '30.00', 'invoice_settlement', 'invoice', paid],
    ]);
    expect((await transactions(wallet)).at(-1)).toMatchObject({ balance_after: '70.00' });
    expect(await eventsOf(paid)).toEqual(['invoice.created', 'invoice.finalized', 'invoice.updated', 'invoice.updated', 'invoice.paid']);
    expect(await eventsOf(payment.id)).toEqual(['payment.created', 'payment.succeeded', 'payment.settled']);
    expect(await eventsOf(wallet)).toEqual(['wallet.credited', 'wallet.debited']);
  });

  it('settles what the wallet holds, then charges the card for the rest', async () => {
    const payer = await customer();
    const wallet = await openWallet(payer);
    await credit(wallet, '10.00');
    const paid = await invoice(payer, '30.00');

    expect(await invoiceOf(paid)).toMatchObject({ status: 'paid', amount_paid: '30.00', amount_due: '0.00' });
    expect((await paymentsOf(paid)).map((p) => [p.provider, p.amount, p.status])).toEqual([
      ['wallet', '10.00', 'succeeded'],
      ['sandbox', '20.00', 'succeeded'],
    ]);
    expect(await balance(wallet)).toBe('0.00');
    expect(await eventsOf(paid)).toEqual(['invoice.created', 'invoice.finalized', 'invoice.updated', 'invoice.updated', 'invoice.updated', 'invoice.updated', 'invoice.paid']);
  });

  it('charges the card alone when the customer has no wallet, or an empty one', async () => {
    const withoutWallet = await customer();
    const charged = await invoice(withoutWallet, '30.00');
    expect((await paymentsOf(charged)).map((p) => [p.provider, p.amount])).toEqual([['sandbox', '30.00']]);

    const withEmptyWallet = await customer();
    const wallet = await openWallet(withEmptyWallet);
    const alsoCharged = await invoice(withEmptyWallet, '30.00');
    expect((await paymentsOf(alsoCharged)).map((p) => [p.provider, p.amount])).toEqual([['sandbox', '30.00']]);
    expect(await eventsOf(alsoCharged)).toEqual(['invoice.created', 'invoice.finalized', 'invoice.updated', 'invoice.updated', 'invoice.paid']);
    expect(await movements(wallet)).toEqual([]);
  });

  it.each([
    ['opened before the invoices', true],
    ['opened after them (its first credit settles them)', false],
  ])('settles the open invoices, oldest due first, when money reaches the wallet %s', async (_when, walletFirst) => {
    const payer = await customer();
    const walletBefore = walletFirst ? await openWallet(payer) : undefined;
    const later = await invoice(payer, '30.00', { auto_charge: false, days_until_due: 20 });
    const sooner = await invoice(payer, '20.00', { auto_charge: false, days_until_due: 10 });
    expect([(await invoiceOf(later)).status, (await invoiceOf(sooner)).status]).toEqual(['open', 'open']);
    const wallet = walletBefore ?? (await openWallet(payer));

    await credit(wallet, '40.00');

    expect(await invoiceOf(sooner)).toMatchObject({ status: 'paid', amount_paid: '20.00', amount_due: '0.00' });
    expect(await invoiceOf(later)).toMatchObject({ status: 'partially_paid', amount_paid: '20.00', amount_due: '10.00' });
    expect(await movements(wallet)).toEqual([
      ['credit', '40.00', 'manual_topup', 'manual', null],
      ['debit', '20.00', 'invoice_settlement', 'invoice', sooner],
      ['debit', '20.00', 'invoice_settlement', 'invoice', later],
    ]);
    expect(await balance(wallet)).toBe('0.00');

    await credit(wallet, '25.00');
    expect(await invoiceOf(later)).toMatchObject({ status: 'paid', amount_paid: '30.00', amount_due: '0.00' });
    expect(await balance(wallet)).toBe('15.00');
  });

  it('refuses to pay from the wallet (source wallet) what cannot be paid so, writing nothing', async () => {
    const payer = await customer();
    const unpaid = await invoice(payer, '30.00', { auto_charge: false });
    const untouched = await eventsOf(unpaid);

    const both = await api.post(`/v1/invoices/${unpaid}/pay`, { source: 'wallet', payment_method_id: 'pm_01JD8X5Z3Q4W2R6T8Y0V1B3N5M' }).expect(400);
    expect(both.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(both.body).toMatchObject({ problem: 'payment.source_conflict', errors: [{ field: 'payment_method_id', code: 'payment.source_conflict' }] });
    expect((await api.post(`/v1/invoices/${unpaid}/pay`, { source: 'bank' }).expect(400)).body.errors).toEqual([expect.objectContaining({ field: 'source' })]);
    expect((await api.post(`/v1/invoices/${unpaid}/pay`, { source: 'wallet' }).expect(409)).body.problem).toBe('payment.no_wallet');
    await openWallet(payer);
    expect((await api.post(`/v1/invoices/${unpaid}/pay`, { source: 'wallet' }).expect(409)).body.problem).toBe('wallet.insufficient_balance');
    await tally.settle();
    expect(await eventsOf(unpaid)).toEqual(untouched);
  });

  it('gives back to the wallet what it paid on an invoice that is voided', async () => {
    const payer = await customer();
    const wallet = await openWallet(payer);
    await credit(wallet, '10.00');
    const voided = await invoice(payer, '30.00', { auto_charge: false });
    expect(await invoiceOf(voided)).toMatchObject({ status: 'partially_paid', amount_paid: '10.00', amount_due: '20.00' });

    await api.post(`/v1/invoices/${voided}/void`).expect(200);
    await tally.settle();

    expect(await invoiceOf(voided)).toMatchObject({ status: 'void', amount_due: '0.00' });
    expect(await balance(wallet)).toBe('10.00');
    expect(await movements(wallet)).toEqual([
      ['credit', '10.00', 'manual_topup', 'manual', null],
      ['debit', '10.00', 'invoice_settlement', 'invoice', voided],
      ['credit', '10.00', 'refund', 'invoice', voided],
    ]);
  });

  it('never overdraws the wallet under concurrent settlements: pay requests racing the settlement its credit starts', async () => {
    const payer = await customer();
    const invoices = [];
    for (let i = 0; i < 6; i++) invoices.push(await invoice(payer, '20.00', { auto_charge: false }));
    const wallet = await openWallet(payer);
    await api.post(`/v1/wallets/${wallet}/credits`, { amount: '50.00', reason: 'manual_topup' }).expect(200);

    const answers = await Promise.all(invoices.map((id) => api.post(`/v1/invoices/${id}/pay`, { source: 'wallet' })));
    await tally.settle();

    expect(answers.filter((answer) => answer.status !== 200).map((answer) => [answer.status, answer.body.problem])).toEqual(
      answers.filter((answer) => answer.status !== 200).map(() => [409, expect.stringMatching(/^(wallet\.insufficient_balance|invoice\.payment_in_progress|invoice\.not_payable)$/)]),
    );
    expect(await balance(wallet)).toBe('0.00');
    const debits = (await transactions(wallet)).filter((t) => t.type === 'debit');
    expect(debits.reduce((sum, t) => sum.plus(t.amount), new Big(0)).toFixed(2)).toBe('50.00');
    expect((await transactions(wallet)).every((t) => new Big(t.balance_after).gte(0))).toBe(true);
    const amountsPaid = await Promise.all(invoices.map(async (id) => (await invoiceOf(id)).amount_paid));
    expect(amountsPaid.reduce((sum, amount) => sum.plus(amount), new Big(0)).toFixed(2)).toBe('50.00');
    // Every attempt has its payment: succeeded with what the wallet gave, or canceled when it found the wallet empty.
    const payments = (await Promise.all(invoices.map(paymentsOf))).flat();
    expect(payments.every((payment) => payment.provider === 'wallet' && (payment.status === 'succeeded' || payment.status === 'canceled'))).toBe(true);
    expect(payments.filter((payment) => payment.status === 'succeeded').reduce((sum, payment) => sum.plus(payment.amount), new Big(0)).toFixed(2)).toBe('50.00');
  });

  it.each([
    ['an empty wallet it named', true],
    ['a wallet opened after its charge failed', false],
  ])('settles a past-due subscription’s failed invoice when money reaches %s, and the subscription is active again', async (_wallet, walletFirst) => {
    const clock = (await api.post('/v1/test-clocks', { frozen_time: '2026-03-01T00:00:00.000Z' }).expect(200)).body.id as string;
    const payer = (await api.post('/v1/customers', { email: 'declined@example.com', test_clock: clock }).expect(200)).body.id as string;
    await api.post(`/v1/customers/${payer}/payment-methods`, { type: 'card', token: 'tok_card_declined', set_as_default: true }).expect(200);
    const walletBefore = walletFirst ? await openWallet(payer) : undefined;
    const subscription = (await api.post('/v1/subscriptions', { customer_id: payer, plan_code: 'monthly' }).expect(200)).body.id as string;
    const timeline = new BillingTimeline(tally, api, clock, subscription, { payments: true });
    const at = (type: string): [string, string] => [type, '2026-03-01T00:00:00.000Z'];
    // The empty wallet, if any, is named, not settled from: the card is charged and declines.
    expect(await timeline.newEvents()).toEqual(
      ['subscription.created', 'invoice.created', 'invoice.finalized', 'invoice.updated', 'payment.created', 'payment.failed', 'invoice.payment_failed', 'subscription.past_due'].map(at),
    );
    const [first] = await timeline.invoices();
    const wallet = walletBefore ?? (await openWallet(payer));

    await credit(wallet, '50.00');

    expect(await timeline.newEvents()).toEqual(['invoice.updated', 'payment.created', 'payment.succeeded', 'payment.settled', 'invoice.updated', 'invoice.paid', 'subscription.activated'].map(at));
    expect(await invoiceOf(first.id)).toMatchObject({ status: 'paid', amount_paid: '30.00', amount_due: '0.00' });
    expect((await paymentsOf(first.id)).map((p) => [p.provider, p.status, p.amount])).toEqual([
      ['sandbox', 'failed', '30.00'],
      ['wallet', 'succeeded', '30.00'],
    ]);
    expect((await api.get(`/v1/subscriptions/${subscription}`).expect(200)).body.status).toBe('active');
    expect(await balance(wallet)).toBe('20.00');
  });

  it('leaves an invoice whose charge fails after a credit to a pay request from the wallet (source wallet), in parts', async () => {
    const payer = (await api.post('/v1/customers', { email: 'secure@example.com' }).expect(200)).body.id as string;
    await api.post(`/v1/customers/${payer}/payment-methods`, { type: 'card', token: 'tok_3ds_required', set_as_default: true }).expect(200);
    const wallet = await openWallet(payer);
    const unpaid = await invoice(payer, '30.00');
    const [charge] = await paymentsOf(unpaid);
    expect(charge).toMatchObject({ provider: 'sandbox', status: 'requires_action' });

    // The charge is under way: the credit leaves the invoice to its outcome, and its failure settles nothing by itself.
    await credit(wallet, '50.00');
    await api.post(`/v1/test-helpers/payments/${charge.id}/fail-action`).expect(200);
    await tally.settle();
    expect(await invoiceOf(unpaid)).toMatchObject({ status: 'open', amount_due: '30.00' });
    expect(await balance(wallet)).toBe('50.00');

    const partial = (await api.post(`/v1/invoices/${unpaid}/pay`, { source: 'wallet', amount: '5.00' }).expect(200)).body as Payment;
    expect(partial).toMatchObject({ provider: 'wallet', payment_method_id: wallet, status: 'succeeded', amount: '5.00', reason: 'manual' });
    const rest = (await api.post(`/v1/invoices/${unpaid}/pay`, { source: 'wallet' }).expect(200)).body as Payment;
    expect(rest).toMatchObject({ provider: 'wallet', status: 'succeeded', amount: '25.00' });
    await tally.settle();

    expect(await invoiceOf(unpaid)).toMatchObject({ status: 'paid', amount_paid: '30.00', amount_due: '0.00', payments: [charge.id, partial.id, rest.id] });
    expect((await paymentsOf(unpaid)).map((p) => [p.provider, p.status, p.amount])).toEqual([
      ['sandbox', 'failed', '30.00'],
      ['wallet', 'succeeded', '5.00'],
      ['wallet', 'succeeded', '25.00'],
    ]);
    expect(await balance(wallet)).toBe('20.00');
    expect(await eventsOf(unpaid)).toEqual(['invoice.created', 'invoice.finalized', 'invoice.updated', 'invoice.payment_failed', 'invoice.updated', 'invoice.updated', 'invoice.updated', 'invoice.updated', 'invoice.paid']);
  });

  it('leaves the wallet alone for a paused subscription’s renewal that is voided by its pause', async () => {
    const clock = (await api.post('/v1/test-clocks', { frozen_time: '2026-03-01T00:00:00.000Z' }).expect(200)).body.id as string;
    const payer = await customer(clock);
    const subscription = (await api.post('/v1/subscriptions', { customer_id: payer, plan_code: 'monthly' }).expect(200)).body.id as string;
    await tally.settle();
    const wallet = await openWallet(payer);
    await credit(wallet, '100.00');
    await api.post(`/v1/subscriptions/${subscription}/pause`, { until: '2026-05-15T00:00:00.000Z', behavior: 'void_invoices' }).expect(200);
    const timeline = new BillingTimeline(tally, api, clock, subscription);
    await timeline.advance('2026-04-02T00:00:00.000Z');

    const renewal = (await timeline.invoices()).find((invoice) => invoice.period_start === '2026-04-01T00:00:00.000Z')!;
    expect(await invoiceOf(renewal.id)).toMatchObject({ status: 'void', amount_paid: '0.00' });
    expect(await balance(wallet)).toBe('100.00');
    expect(await movements(wallet)).toEqual([['credit', '100.00', 'manual_topup', 'manual', null]]);
  });

  it('credits the wallet with a negative total (a cancellation’s credit, a downgrade invoiced at once), creating it, and the invoice is paid', async () => {
    const clock = (await api.post('/v1/test-clocks', { frozen_time: '2026-06-01T00:00:00.000Z' }).expect(200)).body.id as string;
    const payer = await customer(clock);
    const subscription = (await api.post('/v1/subscriptions', { customer_id: payer, plan_code: 'pro-usd' }).expect(200)).body.id as string;
    const timeline = new BillingTimeline(tally, api, clock, subscription);
    await timeline.advance('2026-06-16T00:00:00.000Z');
    await timeline.newEvents();
    expect(await walletOf(payer, 'USD')).toBeUndefined();

    await api.patch(`/v1/subscriptions/${subscription}`, { plan_code: 'basic-usd', proration_behavior: 'always_invoice' }).expect(200);
    await tally.settle();
    const downgrade = (await timeline.invoices()).find((invoice) => invoice.billing_reason === 'subscription_update')!;
    expect([downgrade.billing_reason, downgrade.total, downgrade.lines.map((line) => line.amount)]).toEqual(['subscription_update', '-5.00', ['-10.00', '5.00']]);
    expect(await invoiceOf(downgrade.id)).toMatchObject({ status: 'paid', amount_paid: '0.00', amount_due: '0.00', payments: [] });
    const wallet = await walletOf(payer, 'USD');
    expect(wallet).toMatch(/^wal_/);
    expect(await movements(wallet!)).toEqual([['credit', '5.00', 'credit_note', 'invoice', downgrade.id]]);

    await api.post(`/v1/subscriptions/${subscription}/cancel`, { at: 'now' }).expect(200);
    await tally.settle();
    const final = (await timeline.invoices()).find((invoice) => invoice.billing_reason === 'subscription_cancel')!;
    expect(final.total).toBe('-5.00');
    expect(await invoiceOf(final.id)).toMatchObject({ status: 'paid', amount_due: '0.00' });
    expect(await balance(wallet!)).toBe('10.00');
    expect((await movements(wallet!)).at(-1)).toEqual(['credit', '5.00', 'credit_note', 'invoice', final.id]);
  });

  it('settles a renewal on a test clock from the wallet first (Kill Bill style)', async () => {
    const clock = (await api.post('/v1/test-clocks', { frozen_time: '2026-01-10T00:00:00.000Z' }).expect(200)).body.id as string;
    const payer = await customer(clock);
    const wallet = await openWallet(payer);
    await credit(wallet, '45.00');
    const subscription = (await api.post('/v1/subscriptions', { customer_id: payer, plan_code: 'monthly' }).expect(200)).body.id as string;
    const timeline = new BillingTimeline(tally, api, clock, subscription, { payments: true });

    const at = (instant: string) => (type: string): [string, string] => [type, instant];
    const created = at('2026-01-10T00:00:00.000Z');
    expect(await timeline.newEvents()).toEqual(
      ['subscription.created', 'invoice.created', 'invoice.finalized', 'invoice.updated', 'payment.created', 'payment.succeeded', 'payment.settled', 'invoice.updated', 'invoice.paid', 'subscription.activated'].map(created),
    );
    const [first] = await timeline.invoices();
    expect((await paymentsOf(first.id)).map((p) => [p.provider, p.amount])).toEqual([['wallet', '30.00']]);
    expect(await balance(wallet)).toBe('15.00');

    const renewed = at('2026-02-10T00:00:00.000Z');
    expect(await timeline.advance('2026-02-11T00:00:00.000Z')).toEqual(
      [
        'invoice.created',
        'invoice.finalized',
        'invoice.updated',
        'payment.created',
        'payment.succeeded',
        'payment.settled',
        'invoice.updated',
        'invoice.updated',
        'payment.created',
        'payment.succeeded',
        'payment.settled',
        'invoice.updated',
        'invoice.paid',
      ].map(renewed),
    );
    expect(await timeline.lastInvoiceLines()).toEqual([['base', '30.00', '2026-02-10T00:00:00.000Z', '2026-03-10T00:00:00.000Z', 1, false]]);
    const renewal = (await timeline.invoices()).at(-1)!;
    expect((await paymentsOf(renewal.id)).map((p) => [p.provider, p.amount, p.status])).toEqual([
      ['wallet', '15.00', 'succeeded'],
      ['sandbox', '15.00', 'succeeded'],
    ]);
    expect(await invoiceOf(renewal.id)).toMatchObject({ status: 'paid', amount_paid: '30.00', amount_due: '0.00' });
    expect(await balance(wallet)).toBe('0.00');
    expect((await transactions(wallet)).map((t) => [t.type, t.amount, t.balance_after])).toEqual([
      ['credit', '45.00', '45.00'],
      ['debit', '30.00', '15.00'],
      ['debit', '15.00', '0.00'],
    ]);
  });
});
