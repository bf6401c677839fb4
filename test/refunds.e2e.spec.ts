import { PAYMENT_PROVIDER, type SandboxPaymentProvider } from '@tally/payments';
import { TallyUnderTest, type TestTenant } from './support/tally';

type Refund = { id: string; status: string; amount: string; payment_id: string; invoice_id: string; credit_note_id: string; attempts: number; next_attempt_at: string | null } & Record<string, unknown>;
type CreditNote = { id: string; amount: string; outcome: { kind: string; refund_status: string | null }; refund_id: string | null; payment_id: string | null; resolution: string | null } & Record<string, unknown>;

const T0 = '2026-03-02T09:00:00.000Z';
const at = (hours: number) => new Date(Date.parse(T0) + hours * 3_600_000).toISOString();

/** Refunds of payments through the HTTP API: each an object with its credit note, the payment's status after them, the provider's refusals retried on the refund's clock. */
describe('refunds through the HTTP API', () => {
  let tally: TallyUnderTest;
  let acme: TestTenant;
  let api: ReturnType<TallyUnderTest['as']>;
  let provider: SandboxPaymentProvider;

  beforeAll(async () => {
    ({ tally, acme, api } = await TallyUnderTest.withTenant());
    await tally.liftRateLimits(acme.tenantId);
    provider = tally.app.get<SandboxPaymentProvider>(PAYMENT_PROVIDER);
  });
  afterAll(() => tally.stop());

  /** A customer (on a fresh test clock at T0 with `clock`) paying `amount` by `token`: the paid invoice and its payment. */
  const paid = async (amount = '100.00', { token = 'tok_visa', clock = false } = {}) => {
    const testClock = clock ? ((await api.post('/v1/test-clocks', { frozen_time: T0 }).expect(200)).body.id as string) : undefined;
    const customer = (await api.post('/v1/customers', { email: 'refunded@example.com', ...(testClock && { test_clock: testClock }) }).expect(200)).body.id as string;
    await api.post(`/v1/customers/${customer}/payment-methods`, { type: 'card', token, set_as_default: true }).expect(200);
    const draft = (await api.post('/v1/invoices', { customer_id: customer, currency: 'EUR', auto_charge: false, lines: [{ description: 'Consulting', quantity: '1', unit_amount: amount }] }).expect(200)).body as { id: string };
    await api.post(`/v1/invoices/${draft.id}/finalize`).expect(200);
    const payment = (await api.post(`/v1/invoices/${draft.id}/pay`, {}).expect(200)).body as { id: string; status: string };
    await tally.settle();
    return { customer, invoice: draft.id, payment: payment.id, paymentStatus: payment.status, clock: testClock };
  };
  const refund = async (payment: string, body: object = {}) => (await api.post(`/v1/payments/${payment}/refunds`, body).expect(200)).body as Refund;
  const refused = async (payment: string, body: object, status: number) => (await api.post(`/v1/payments/${payment}/refunds`, body).expect(status)).body.problem as string;
  const get = async <T>(path: string) => (await api.get(path).expect(200)).body as T;
  const creditNote = async (invoice: string, id: string) => (await get<{ credit_notes: CreditNote[] }>(`/v1/invoices/${invoice}`)).credit_notes.find((note) => note.id === id)!;
  const eventTypes = async (...ids: string[]) => ((await get<{ data: { type: string }[] }>(`/v1/events?aggregate_id=${ids.join(',')}&sort=created_at:asc&limit=100`)).data).map((event) => event.type);
  const providerRefundsOf = async (idPrefix: string) => (await provider.refunds()).filter((made) => made.idempotencyKey.startsWith(`refund:${idPrefix}`));

  it('refunds a whole payment to its card: a refund object, a credit note against the invoice with outcome refund, the payment refunded', async () => {
    const { customer, invoice, payment } = await paid('120.00');
    const made = await refund(payment, { reason: 'duplicate' });
    expect(made).toMatchObject({
      id: expect.stringMatching(/^rfd_/),
      object: 'refund',
      payment_id: payment,
      invoice_id: invoice,
      customer_id: customer,
      credit_note_id: expect.stringMatching(/^cn_/),
      amount: '120.00',
      currency: 'EUR',
      reason: 'duplicate',
      destination: 'original_method',
      status: 'succeeded',
      provider_refund_id: expect.stringMatching(/^sbx_re_/),
      wallet_transaction_id: null,
      failure_reason: null,
      attempts: 1,
      next_attempt_at: null,
    });
    await tally.settle();
    expect(await get(`/v1/refunds/${made.id}`)).toEqual(made);
    expect(await get(`/v1/payments/${payment}`)).toMatchObject({ status: 'refunded', refunds: [made.id], amount_refunded: '120.00' });
    expect(await creditNote(invoice, made.credit_note_id)).toMatchObject({
      amount: '120.00',
      reason: 'duplicate',
      type: 'post_payment',
      outcome: { kind: 'refund', refund_status: 'succeeded' },
      refund_id: made.id,
      payment_id: payment,
    });
    expect(await get(`/v1/invoices/${invoice}`)).toMatchObject({ status: 'paid', amount_paid: '120.00', amount_due: '0.00' });
    expect(await eventTypes(made.id)).toEqual(['refund.created', 'refund.succeeded']);
    expect((await eventTypes(invoice)).slice(-1)).toEqual(['credit_note.created']);
    expect(await providerRefundsOf(made.id)).toMatchObject([{ amount: '120.00', currency: 'EUR', reference: made.id }]);
    expect((await get<{ data: Refund[] }>(`/v1/refunds?payment_id=${payment}`)).data.map((listed) => listed.id)).toEqual([made.id]);
    expect((await get<{ data: Refund[] }>(`/v1/refunds?invoice_id=${invoice}&status=succeeded`)).data.map((listed) => listed.id)).toEqual([made.id]);
  });

  it('refunds in parts: partially_refunded, then refunded, never more than the payment', async () => {
    const { invoice, payment } = await paid('100.00');
    const first = await refund(payment, { amount: '30.00' });
    expect(await get(`/v1/payments/${payment}`)).toMatchObject({ status: 'partially_refunded', amount_refunded: '30.00' });
    expect(await refused(payment, { amount: '70.01' }, 409)).toBe('refund.amount_exceeds_refundable');
    const rest = await refund(payment, { reason: 'order_change' });
    expect(rest).toMatchObject({ amount: '70.00', status: 'succeeded' });
    expect(await get(`/v1/payments/${payment}`)).toMatchObject({ status: 'refunded', refunds: [first.id, rest.id], amount_refunded: '100.00' });
    expect(await refused(payment, { amount: '0.01' }, 409)).toBe('refund.payment_not_refundable');
    const notes = (await get<{ credit_notes: CreditNote[] }>(`/v1/invoices/${invoice}`)).credit_notes;
    expect(notes.map((note) => [note.amount, note.refund_id, note.outcome.kind])).toEqual([
      ['30.00', first.id, 'refund'],
      ['70.00', rest.id, 'refund'],
    ]);
  });

  it('never refunds more than the payment when refunds are asked at once', async () => {
    const { payment } = await paid('100.00');
    const answers = await Promise.all(Array.from({ length: 6 }, () => api.post(`/v1/payments/${payment}/refunds`, { amount: '30.00' })));
    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([200, 200, 200, 409, 409, 409]);
    expect(answers.filter((answer) => answer.status === 409).map((answer) => answer.body.problem)).toEqual(['refund.amount_exceeds_refundable', 'refund.amount_exceeds_refundable', 'refund.amount_exceeds_refundable']);
    await tally.settle();
    const recorded = await get<{ refunds: string[]; amount_refunded: string; status: string }>(`/v1/payments/${payment}`);
    expect(recorded).toMatchObject({ status: 'partially_refunded', amount_refunded: '90.00' });
    const atProvider = (await provider.refunds()).filter((made) => recorded.refunds.includes(made.reference ?? ''));
    expect(atProvider.map((made) => made.amount)).toEqual(['30.00', '30.00', '30.00']);
  });

  it('refuses bad requests and writes nothing', async () => {
    const { payment } = await paid('50.00');
    expect(await refused(payment, { amount: '0' }, 400)).toBe('refund.invalid');
    expect(await refused(payment, { amount: '1.001' }, 400)).toBe('refund.invalid');
    expect(await refused(payment, { amount: 'ten' }, 400)).toBe('request.invalid_body');
    expect(await refused(payment, { reason: 'because' }, 400)).toBe('request.invalid_body');
    expect(await refused(payment, { destination: 'card' }, 400)).toBe('request.invalid_body');
    expect(await refused(payment, { amount: '1.00', note: 'x' }, 400)).toBe('request.invalid_body');
    expect((await api.post('/v1/payments/pay_nope/refunds', {}).expect(404)).body.problem).toBe('payment.not_found');
    expect((await api.get('/v1/refunds/rfd_nope').expect(404)).body.problem).toBe('refund.not_found');
    expect(await get(`/v1/payments/${payment}`)).toMatchObject({ status: 'succeeded', refunds: [], amount_refunded: '0.00' });
    const declined = await paid('50.00', { token: 'tok_card_declined' });
    expect(declined.paymentStatus).toBe('failed');
    expect(await refused(declined.payment, {}, 409)).toBe('refund.payment_not_refundable');
  });

  it('refunds no more than the invoice’s credit notes left of what was paid, and refuses before reserving anything', async () => {
    const { invoice, payment } = await paid('100.00');
    await api.post(`/v1/invoices/${invoice}/credit-notes`, { reason: 'order_change', amount: '80.00', outcome: 'credit_balance' }).expect(200);
    expect(await refused(payment, {}, 409)).toBe('credit_note.exceeds_invoice');
    expect(await refused(payment, { amount: '20.01' }, 409)).toBe('credit_note.exceeds_invoice');
    expect(await get(`/v1/payments/${payment}`)).toMatchObject({ status: 'succeeded', refunds: [], amount_refunded: '0.00' });
    expect(await refund(payment, { amount: '20.00' })).toMatchObject({ status: 'succeeded', amount: '20.00' });
  });

  it('refunds a card payment only inside its 180-day window, on the payment’s clock', async () => {
    const inside = await paid('40.00', { clock: true });
    const outside = await paid('40.00', { clock: true });
    await api.post(`/v1/test-clocks/${inside.clock}/advance`, { frozen_time: at(180 * 24) }).expect(200);
    await api.post(`/v1/test-clocks/${outside.clock}/advance`, { frozen_time: at(180 * 24 + 1) }).expect(200);
    await tally.settle();
    expect(await refund(inside.payment)).toMatchObject({ status: 'succeeded', amount: '40.00' });
    expect(await refused(outside.payment, {}, 422)).toBe('refund.window_closed');
    expect(await get(`/v1/payments/${outside.payment}`)).toMatchObject({ status: 'succeeded', refunds: [] });
  });

  it('refunds to the wallet: the customer’s wallet in the payment’s currency is credited with reason refund, the credit note’s outcome is credit_balance', async () => {
    const { customer, invoice, payment } = await paid('25.00');
    const made = await refund(payment, { amount: '10.00', destination: 'wallet' });
    expect(made).toMatchObject({ destination: 'wallet', status: 'succeeded', provider_refund_id: null, wallet_transaction_id: expect.stringMatching(/^wtx_/) });
    await tally.settle();
    expect(await creditNote(invoice, made.credit_note_id)).toMatchObject({ amount: '10.00', outcome: { kind: 'credit_balance', refund_status: null }, refund_id: made.id });
    expect(await get(`/v1/payments/${payment}`)).toMatchObject({ status: 'partially_refunded', amount_refunded: '10.00' });
    const credited = (await get<{ data: { data: { customer_id: string } }[] }>(`/v1/events?type=wallet.credited&limit=100`)).data.map((event) => event.data).filter((wallet) => wallet.customer_id === customer);
    expect(credited).toMatchObject([{ currency: 'EUR', balance: '10.00', last_transaction: { id: made.wallet_transaction_id, amount: '10.00', reason: 'refund', source: { type: 'refund', id: made.id } } }]);
    expect(await providerRefundsOf(made.id)).toEqual([]);
  });

  describe('when the provider refuses', () => {
    it('retries an outage on the refund’s clock, 5 attempts over 24 hours under one key, then fails it: the credit note is pending_manual and credit_note.refund_failed fires', async () => {
      const { customer, invoice, payment, clock } = await paid('100.23', { clock: true });
      const made = await refund(payment);
      expect(made).toMatchObject({ status: 'pending', attempts: 1, failure_reason: { kind: 'ambiguous', code: 'provider_unavailable' }, next_attempt_at: at(1) });
      const advance = async (hours: number) => {
        await api.post(`/v1/test-clocks/${clock}/advance`, { frozen_time: at(hours) }).expect(200);
        await tally.settle();
      };
      const events = async () => (await get<{ data: { type: string; created_at: string }[] }>(`/v1/events?aggregate_id=${made.id},${invoice}&sort=created_at:asc&limit=100`)).data.map((event) => [event.type, event.created_at]);
      const before = await events();
      expect(before.filter(([, when]) => when === T0).map(([type]) => type).slice(-2).sort()).toEqual(['credit_note.created', 'refund.created']);
      expect(await creditNote(invoice, made.credit_note_id)).toMatchObject({ outcome: { kind: 'refund', refund_status: 'failed' } });
      for (const [hours, attempts, next] of [
        [0.99, 1, at(1)],
        [1, 2, at(3)],
        [3, 3, at(9)],
        [9, 4, at(24)],
      ] as const) {
        await advance(hours);
        expect(await get(`/v1/refunds/${made.id}`)).toMatchObject({ status: 'pending', attempts, next_attempt_at: next });
        expect(await events()).toEqual(before);
      }
      await advance(24);
      expect(await get(`/v1/refunds/${made.id}`)).toMatchObject({ status: 'failed', attempts: 5, next_attempt_at: null, failure_reason: { kind: 'ambiguous', code: 'provider_unavailable' } });
      expect((await events()).slice(before.length)).toEqual([
        ['refund.failed', at(24)],
        ['credit_note.refund_failed', at(24)],
      ]);
      expect(await creditNote(invoice, made.credit_note_id)).toMatchObject({ outcome: { kind: 'pending_manual', refund_status: 'failed' } });
      expect(await providerRefundsOf(made.id)).toEqual([]);

      // An operator credits it to the customer's wallet: once, however often asked.
      const resolve = (body: object) => api.post(`/v1/credit-notes/${made.credit_note_id}/resolve`, body);
      expect((await resolve({ resolution: 'later' }).expect(400)).body.problem).toBe('request.invalid_body');
      const resolved = (await resolve({ resolution: 'credited_to_wallet' }).expect(200)).body as CreditNote;
      expect(resolved).toMatchObject({ id: made.credit_note_id, outcome: { kind: 'credit_balance', refund_status: null }, resolution: 'credited_to_wallet', pdf_url: expect.stringContaining(`/credit-note-pdfs/${made.credit_note_id}?`) });
      expect((await resolve({ resolution: 'credited_to_wallet' }).expect(200)).body).toEqual(resolved);
      expect((await resolve({ resolution: 'refunded_out_of_band' }).expect(409)).body.problem).toBe('credit_note.not_pending_manual');
      await tally.settle();
      const credits = (await get<{ data: { data: { customer_id: string; last_transaction: { reason: string; amount: string; source: unknown } } }[] }>('/v1/events?type=wallet.credited&limit=100')).data.filter((event) => event.data.customer_id === customer);
      expect(credits.map((event) => event.data.last_transaction)).toMatchObject([{ amount: '100.23', reason: 'credit_note', source: { type: 'credit_note', id: made.credit_note_id } }]);
      expect(await creditNote(invoice, made.credit_note_id)).toEqual(resolved);
    });

    it('retries a declined refund under a new key, after looking for the one asked before', async () => {
      const { payment, clock } = await paid('50.13', { clock: true });
      const made = await refund(payment);
      expect(made).toMatchObject({ status: 'pending', attempts: 1, failure_reason: { kind: 'declined', code: 'refund_declined' }, next_attempt_at: at(1) });
      const lookups = jest.spyOn(provider, 'findRefund');
      await api.post(`/v1/test-clocks/${clock}/advance`, { frozen_time: at(1) }).expect(200);
      await tally.settle();
      expect(await get(`/v1/refunds/${made.id}`)).toMatchObject({ status: 'pending', attempts: 2, next_attempt_at: at(3) });
      expect(lookups.mock.calls.map(([asked]) => asked.reference)).toEqual([made.id]);
      lookups.mockRestore();
      expect(await providerRefundsOf(made.id)).toEqual([]);
    });

    it('retries a refund the bank returned after it succeeded, under a new key: one refund standing at the provider', async () => {
      const { invoice, payment, clock } = await paid('70.00', { clock: true });
      const made = await refund(payment);
      expect(made).toMatchObject({ status: 'succeeded', attempts: 1 });
      const failed = (await api.post(`/v1/test-helpers/refunds/${made.id}/fail`).expect(200)).body as Refund;
      expect(failed).toMatchObject({ status: 'pending', attempts: 1, provider_refund_id: null, failure_reason: { kind: 'declined', code: 'refund_failed' }, next_attempt_at: at(1) });
      expect((await api.post(`/v1/test-helpers/refunds/${made.id}/fail`).expect(409)).body.problem).toBe('refund.not_reversible');
      await tally.settle();
      expect(await creditNote(invoice, made.credit_note_id)).toMatchObject({ outcome: { kind: 'refund', refund_status: 'failed' } });
      await api.post(`/v1/test-clocks/${clock}/advance`, { frozen_time: at(1) }).expect(200);
      await tally.settle();
      expect(await get(`/v1/refunds/${made.id}`)).toMatchObject({ status: 'succeeded', attempts: 2, provider_refund_id: expect.stringMatching(/^sbx_re_/) });
      expect(await creditNote(invoice, made.credit_note_id)).toMatchObject({ outcome: { kind: 'refund', refund_status: 'succeeded' } });
      const atProvider = await providerRefundsOf(made.id);
      expect(atProvider.map(({ idempotencyKey, failed }) => [idempotencyKey, failed ?? false])).toEqual([
        [`refund:${made.id}:1`, true],
        [`refund:${made.id}:2`, false],
      ]);
      expect(await eventTypes(made.id)).toEqual(['refund.created', 'refund.succeeded', 'refund.failed', 'refund.succeeded']);
    });

    it('asks again under the same key after a lost answer: one refund at the provider, recorded once', async () => {
      const { invoice, payment, clock } = await paid('60.43', { clock: true });
      const made = await refund(payment);
      expect(made).toMatchObject({ status: 'pending', attempts: 1, failure_reason: { kind: 'ambiguous', code: 'timeout' }, next_attempt_at: at(1) });
      expect(await providerRefundsOf(made.id)).toHaveLength(1);
      await api.post(`/v1/test-clocks/${clock}/advance`, { frozen_time: at(1) }).expect(200);
      await tally.settle();
      expect(await get(`/v1/refunds/${made.id}`)).toMatchObject({ status: 'succeeded', attempts: 2, next_attempt_at: null });
      expect(await providerRefundsOf(made.id)).toMatchObject([{ amount: '60.43', idempotencyKey: `refund:${made.id}:1` }]);
      expect(await creditNote(invoice, made.credit_note_id)).toMatchObject({ outcome: { kind: 'refund', refund_status: 'succeeded' } });
      expect(await eventTypes(made.id)).toEqual(['refund.created', 'refund.succeeded']);
    });
  });

  it('resolves only a credit note that exists', async () => {
    expect((await api.post('/v1/credit-notes/cn_01JNOPE0000000000000000000/resolve', { resolution: 'refunded_out_of_band' }).expect(404)).body.problem).toBe('credit_note.not_found');
  });

  describe('a credit note asked on the invoice with outcome refund', () => {
    it('refunds the invoice’s payment as the refund with the note’s id: the payment partly refunded, the note’s refund succeeded', async () => {
      const { invoice, payment } = await paid('100.00');
      const note = (await api.post(`/v1/invoices/${invoice}/credit-notes`, { reason: 'product_unsatisfactory', amount: '40.00', outcome: 'refund' }).expect(200)).body as CreditNote;
      const refundId = `rfd_${note.id.slice('cn_'.length)}`;
      expect(note).toMatchObject({ amount: '40.00', type: 'post_payment', outcome: { kind: 'refund', refund_status: 'pending' }, refund_id: refundId, payment_id: payment });
      await tally.settle();
      expect(await get(`/v1/refunds/${refundId}`)).toMatchObject({ status: 'succeeded', amount: '40.00', payment_id: payment, credit_note_id: note.id, reason: 'product_unsatisfactory' });
      expect(await creditNote(invoice, note.id)).toMatchObject({ outcome: { kind: 'refund', refund_status: 'succeeded' } });
      expect(await get(`/v1/payments/${payment}`)).toMatchObject({ status: 'partially_refunded', refunds: [refundId], amount_refunded: '40.00' });
      expect(await providerRefundsOf(refundId)).toMatchObject([{ amount: '40.00', reference: refundId }]);
      // What is left of the payment, and no more.
      expect((await api.post(`/v1/invoices/${invoice}/credit-notes`, { reason: 'duplicate', amount: '60.01', outcome: 'refund' }).expect(409)).body.problem).toBe('credit_note.exceeds_invoice');
      const other = await paid('10.00');
      expect((await api.post(`/v1/invoices/${invoice}/credit-notes`, { reason: 'duplicate', amount: '1.00', outcome: 'refund', payment_id: other.payment }).expect(409)).body.problem).toBe('credit_note.no_payment_to_refund');
      expect((await refused(payment, { amount: '60.01' }, 409))).toBe('refund.amount_exceeds_refundable');
    });

    it('leaves the note pending_manual when the payment can no longer be refunded, for an operator to resolve', async () => {
      const { invoice, payment, clock } = await paid('30.00', { clock: true });
      await api.post(`/v1/test-clocks/${clock}/advance`, { frozen_time: at(181 * 24) }).expect(200);
      await tally.settle();
      const note = (await api.post(`/v1/invoices/${invoice}/credit-notes`, { reason: 'duplicate', amount: '30.00', outcome: 'refund' }).expect(200)).body as CreditNote;
      await tally.settle();
      expect(await creditNote(invoice, note.id)).toMatchObject({ outcome: { kind: 'pending_manual', refund_status: 'failed' } });
      expect(await get(`/v1/refunds/${note.refund_id}`)).toMatchObject({ status: 'failed', attempts: 0, failure_reason: { kind: 'declined', code: 'refund.window_closed' }, credit_note_id: note.id });
      expect(await eventTypes(note.refund_id!)).toEqual(['refund.created', 'refund.failed']);
      expect(await providerRefundsOf(note.refund_id!)).toEqual([]);
      expect(await get(`/v1/payments/${payment}`)).toMatchObject({ status: 'succeeded', refunds: [] });
      expect((await get<{ data: { type: string }[] }>(`/v1/events?aggregate_id=${invoice}&type=credit_note.refund_failed`)).data).toHaveLength(1);
      const resolved = (await api.post(`/v1/credit-notes/${note.id}/resolve`, { resolution: 'refunded_out_of_band' }).expect(200)).body;
      expect(resolved).toMatchObject({ outcome: { kind: 'refund', refund_status: 'succeeded' }, resolution: 'refunded_out_of_band' });
    });
  });
});
