import { setTimeout as sleep } from 'node:timers/promises';
import Big from 'big.js';
import type request from 'supertest';
import { PAYMENT_PROVIDER, type SandboxPaymentProvider } from '@tally/payments';
import { listAll } from './support/list-all';
import { TallyUnderTest } from './support/tally';

type Payment = { id: string; invoice_id: string; provider: string; status: string; amount: string; refunds: string[] };
type Invoice = { id: string; status: string; total: string; amount_paid: string; amount_due: string; payments: string[] };

/** Rounds of each race: every round is one invoice, its requests sent at once. */
const ROUNDS = 20;

/** What a request in a race may answer besides 200: the refusals that keep the money straight. */
const RACE_REFUSALS = [
  'invoice.payment_in_progress',
  'invoice.not_payable',
  'invoice.voided',
  'invoice.uncollectible',
  'invoice.already_paid',
  'invoice.has_payments',
  'invoice.payment_exceeds_amount_due',
  'credit_note.exceeds_invoice',
  'payment.not_cancelable',
  'payment.no_action',
  'payment.not_processing',
  'request.concurrent_update',
];

const sum = (amounts: readonly string[]): string => amounts.reduce((total, amount) => total.plus(amount), new Big(0)).toFixed(2);

/** Pay, void, write-off, credit notes, cancels, 3DS and bank settlements racing on one invoice, through HTTP. */
describe('money the provider takes is applied to its invoice or returned, whatever races it', () => {
  let tally: TallyUnderTest;
  let api: ReturnType<TallyUnderTest['as']>;
  let provider: SandboxPaymentProvider;

  beforeAll(async () => {
    let tenantId: string;
    ({ tally, api, acme: { tenantId } } = await TallyUnderTest.withTenant());
    await tally.liftRateLimits(tenantId);
    provider = tally.app.get<SandboxPaymentProvider>(PAYMENT_PROVIDER);
  });
  afterAll(() => tally.stop());

  /** A customer whose default method is `token`. */
  const payer = async (token: string, type = 'card') => {
    const customer = ((await api.post('/v1/customers', { email: 'payer@example.com' }).expect(200)).body as { id: string }).id;
    await api.post(`/v1/customers/${customer}/payment-methods`, { type, token, set_as_default: true }).expect(200);
    return customer;
  };
  /** An open invoice of 100.00 that waits to be paid by hand. */
  const openInvoice = async (customer: string) => {
    const draft = (await api.post('/v1/invoices', { customer_id: customer, currency: 'EUR', auto_charge: false, lines: [{ description: 'Work', quantity: '1', unit_amount: '100.00' }] }).expect(200)).body as {
      id: string;
    };
    await api.post(`/v1/invoices/${draft.id}/finalize`).expect(200);
    return draft.id;
  };
  const openInvoices = (customer: string) => Promise.all(Array.from({ length: ROUNDS }, () => openInvoice(customer)));
  /**
   * Sends the requests together, round `round` starting with a different one and each following
   * the one before by 0 to 4 ms, so that each comes first in some rounds; each answers 200 or one of the refusals a
   * race may meet, never anything else. The answers come in the order of `requests`.
   */
  const race = async (round: number, requests: (() => request.Test)[]): Promise<request.Response[]> => {
    const order = requests.map((_, i) => (i + round) % requests.length);
    const answers = await Promise.all(requests.map((send, i) => sleep(order[i] * (round % 5)).then(() => send())));
    for (const answer of answers) expect(['ok', ...RACE_REFUSALS]).toContain(answer.status === 200 ? 'ok' : `${answer.status} ${answer.body.problem}`.replace(/^409 /, ''));
    return answers;
  };
  const pay = (invoice: string, body: object = {}) => () => api.post(`/v1/invoices/${invoice}/pay`, body);
  const act = (invoice: string, action: 'void' | 'mark-uncollectible') => () => api.post(`/v1/invoices/${invoice}/${action}`);
  const credit = (invoice: string, amount: string) => () => api.post(`/v1/invoices/${invoice}/credit-notes`, { reason: 'order_change', amount });

  /**
   * Per invoice, from the provider's own record: what it took (succeeded charges) is what the
   * invoice applied, but for what the customer's wallet paid, plus what was refunded; and Tally
   * records every refund on its payment. (A credit note on a paid invoice credits the wallet, and
   * the wallet settles the customer's other open invoices.)
   */
  async function expectNoMoneyLost(invoiceIds: readonly string[]): Promise<void> {
    await tally.settle();
    const [charges, refunds] = await Promise.all([provider.charges(), provider.refunds()]);
    for (const id of invoiceIds) {
      const invoice = (await api.get(`/v1/invoices/${id}`).expect(200)).body as Invoice;
      const payments = await listAll<Payment>(api, `/v1/payments?invoice_id=${id}`);
      const taken = charges.filter((charge) => charge.status === 'succeeded' && payments.some((payment) => charge.idempotencyKey === `charge:${payment.id}`));
      const returned = refunds.filter((refund) => taken.some((charge) => charge.providerPaymentId === refund.providerPaymentId));
      // A wallet payment the invoice could not take is refunded to the wallet: one still `succeeded` was applied.
      const fromWallet = payments.filter((payment) => payment.provider === 'wallet' && payment.status === 'succeeded').map((payment) => `-${payment.amount}`);
      expect({ invoice: id, taken: sum(taken.map((charge) => charge.amount)) }).toEqual({ invoice: id, taken: sum([invoice.amount_paid, ...fromWallet, ...returned.map((refund) => refund.amount)]) });
      const refundedInTally = payments.filter((payment) => payment.status === 'refunded');
      expect(refundedInTally.map((payment) => payment.refunds.length)).toEqual(refundedInTally.map(() => 1));
      expect(sum(refundedInTally.map((payment) => payment.amount))).toBe(sum(returned.map((refund) => refund.amount)));
      expect(new Big(invoice.amount_paid).lte(invoice.total)).toBe(true);
    }
  }

  const eventTypes = async (aggregateId: string) =>
    ((await api.get(`/v1/events?aggregate_id=${aggregateId}&sort=created_at:asc&limit=100`).expect(200)).body.data as { type: string }[]).map((event) => event.type);

  it('refuses to void, write off, or credit below the amount of a payment under way, writing nothing; once the payment ends they proceed at once', async () => {
    const invoice = await openInvoice(await payer('tok_3ds_required'));
    const payment = (await pay(invoice)().expect(200)).body as Payment;
    expect(payment.status).toBe('requires_action');
    await tally.settle();
    const head = await tally.head();
    for (const refused of [act(invoice, 'void'), act(invoice, 'mark-uncollectible'), credit(invoice, '0.01')]) {
      expect((await refused().expect(409)).body).toMatchObject({ problem: 'invoice.payment_in_progress', detail: expect.stringContaining(payment.id) });
    }
    expect(await tally.head()).toBe(head);
    // The cancel's answer comes once the invoice has recorded it: the void needs no wait for the worker.
    await api.post(`/v1/payments/${payment.id}/cancel`).expect(200);
    expect((await act(invoice, 'void')().expect(200)).body).toMatchObject({ status: 'void', amount_paid: '0.00' });
    await expectNoMoneyLost([invoice]);
  });

  it('a cancel that loses the race to the customer’s authentication: the payment succeeds, its invoice does not take it, and it is refunded', async () => {
    const invoice = await openInvoice(await payer('tok_3ds_required'));
    const payment = (await pay(invoice)().expect(200)).body as Payment;
    // The customer authenticates at the provider; its answer is held until the cancel is in.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const completeAction = provider.completeAction.bind(provider);
    const spy = jest.spyOn(provider, 'completeAction').mockImplementationOnce(async (req) => {
      const answer = await completeAction(req);
      await held;
      return answer;
    });
    const completing = api.post(`/v1/test-helpers/payments/${payment.id}/complete-action`).then((response) => response);
    while (spy.mock.calls.length === 0) await sleep(1);
    expect((await api.post(`/v1/payments/${payment.id}/cancel`).expect(200)).body.status).toBe('canceled');
    release();
    expect((await completing).body).toMatchObject({ id: payment.id, status: 'succeeded' });
    spy.mockRestore();

    await tally.settle();
    const refunded = (await api.get(`/v1/payments/${payment.id}`).expect(200)).body as Payment;
    expect(refunded).toMatchObject({ status: 'refunded', refunds: [expect.stringMatching(/^re_/)] });
    expect(await eventTypes(payment.id)).toEqual(['payment.created', 'payment.requires_action', 'payment.canceled', 'payment.succeeded', 'payment.settled', 'payment.refunded']);
    expect((await api.get(`/v1/invoices/${invoice}`).expect(200)).body).toMatchObject({ status: 'open', amount_paid: '0.00', amount_due: '100.00' });
    expect((await provider.refunds()).filter((refund) => refund.idempotencyKey === `refund:${payment.id}`)).toMatchObject([{ amount: '100.00', currency: 'EUR' }]);
    await expectNoMoneyLost([invoice]);
  });

  /** A subscription's first invoice, its bank debit `processing` when a pause voids the invoice. */
  async function debitUnderWayOfVoidedInvoice(plan: string): Promise<{ invoice: string; payment: string }> {
    await api.post('/v1/plans', { code: plan, product_code: plan, currency: 'EUR', interval: 'month', components: [{ code: 'base', pricing: { model: 'flat', amount: '49.00' } }] }).expect(200);
    const customer = await payer('tok_bank_account', 'bank_account');
    const subscription = ((await api.post('/v1/subscriptions', { customer_id: customer, plan_code: plan }).expect(200)).body as { id: string }).id;
    await tally.settle();
    const [invoice] = await listAll<Invoice>(api, `/v1/invoices?subscription_id=${subscription}`);
    const [payment] = await listAll<Payment>(api, `/v1/payments?invoice_id=${invoice.id}`);
    expect(payment).toMatchObject({ status: 'processing', amount: '49.00' });
    await api.post(`/v1/subscriptions/${subscription}/pause`, { behavior: 'void_invoices' }).expect(200);
    await tally.settle();
    expect((await api.get(`/v1/invoices/${invoice.id}`).expect(200)).body.status).toBe('void');
    return { invoice: invoice.id, payment: payment.id };
  }

  it('a bank debit under way when a pause voids its invoice settles, and is refunded', async () => {
    const { invoice, payment } = await debitUnderWayOfVoidedInvoice('race-void');
    expect((await api.post(`/v1/test-helpers/payments/${payment}/settle`).expect(200)).body.status).toBe('succeeded');
    await tally.settle();
    expect((await api.get(`/v1/payments/${payment}`).expect(200)).body).toMatchObject({ status: 'refunded', refunds: [expect.stringMatching(/^re_/)] });
    expect((await eventTypes(payment)).slice(-3)).toEqual(['payment.succeeded', 'payment.settled', 'payment.refunded']);
    await expectNoMoneyLost([invoice]);
  });

  it('a refund the provider refuses is retried, then parked for an operator, and made once the operator retries it', async () => {
    const { invoice, payment } = await debitUnderWayOfVoidedInvoice('race-parked');
    const refusing = jest.spyOn(provider, 'refund').mockResolvedValue({ status: 'failed', code: 'processing_error', message: 'The provider is unavailable.', ambiguous: true });
    try {
      await api.post(`/v1/test-helpers/payments/${payment}/settle`).expect(200);
      await tally.settle();
    } finally {
      refusing.mockRestore();
    }
    const [parked] = (await api.get('/v1/admin/parked-commands?process=unapplied_payment_refund').expect(200)).body.data as { id: string }[];
    expect(parked).toMatchObject({ type: 'RefundUnappliedPayment', attempts: 5, last_error: expect.stringContaining('processing_error') });
    expect((await api.get(`/v1/payments/${payment}`).expect(200)).body.status).toBe('succeeded');

    await api.post(`/v1/admin/parked-commands/${parked.id}/retry`).expect(200);
    await tally.settle();
    expect((await api.get(`/v1/payments/${payment}`).expect(200)).body).toMatchObject({ status: 'refunded', refunds: [expect.stringMatching(/^re_/)] });
    await expectNoMoneyLost([invoice]);
  });

  it('a card that succeeds at once: pay races void, and pay races mark-uncollectible', async () => {
    const invoices = await openInvoices(await payer('tok_visa'));
    await Promise.all(invoices.map((invoice, i) => race(i, [pay(invoice), act(invoice, i % 4 < 2 ? 'void' : 'mark-uncollectible')])));
    await expectNoMoneyLost(invoices);
  });

  it('a partial payment races a credit note that would leave less due than it charges, or one that leaves enough', async () => {
    const invoices = await openInvoices(await payer('tok_visa'));
    await Promise.all(invoices.map((invoice, i) => race(i, [pay(invoice, { amount: '40.00' }), credit(invoice, i % 4 < 2 ? '70.00' : '50.00')])));
    await expectNoMoneyLost(invoices);
    // Never an open invoice with a payment left out: what is due and what was paid add up with the credit.
    for (const invoice of invoices) {
      const { total, amount_paid, amount_due, status, credit_notes } = (await api.get(`/v1/invoices/${invoice}`).expect(200)).body as Invoice & { credit_notes: { amount: string }[] };
      if (status !== 'paid') expect(sum([amount_paid, amount_due, ...credit_notes.map((note) => note.amount)])).toBe(sum([total]));
    }
  });

  it('3DS: pay races void; then the customer’s authentication races a cancel, a void, a write-off and a credit note', async () => {
    const invoices = await openInvoices(await payer('tok_3ds_required'));
    await Promise.all(
      invoices.map(async (invoice, i) => {
        const [paid] = await race(i, [pay(invoice), act(invoice, 'void')]);
        if (paid.status !== 200) return;
        const payment = (paid.body as Payment).id;
        await race(i, [
          () => api.post(`/v1/test-helpers/payments/${payment}/complete-action`),
          () => api.post(`/v1/payments/${payment}/cancel`),
          act(invoice, i % 4 < 2 ? 'void' : 'mark-uncollectible'),
          credit(invoice, '30.00'),
        ]);
      }),
    );
    await expectNoMoneyLost(invoices);
  });

  it('a bank debit: pay races a write-off; then its settlement races a void, a cancel and a credit note', async () => {
    const invoices = await openInvoices(await payer('tok_bank_account', 'bank_account'));
    await Promise.all(
      invoices.map(async (invoice, i) => {
        const [paid] = await race(i, [pay(invoice), act(invoice, 'mark-uncollectible')]);
        if (paid.status !== 200) return;
        const payment = (paid.body as Payment).id;
        await race(i, [() => api.post(`/v1/test-helpers/payments/${payment}/settle`), act(invoice, 'void'), () => api.post(`/v1/payments/${payment}/cancel`), credit(invoice, '30.00')]);
      }),
    );
    await expectNoMoneyLost(invoices);
  });
});
