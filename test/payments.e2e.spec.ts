import { PUBLIC_URL, TallyUnderTest, type TestTenant } from './support/tally';

type Payment = { id: string; status: string; next_action: { type: string; url?: string } | null; last_error: Record<string, unknown> | null } & Record<string, unknown>;

/** Payments of invoices through the HTTP API, against the sandbox provider's test tokens. */
describe('payments through the HTTP API', () => {
  let tally: TallyUnderTest;
  let acme: TestTenant;
  let api: ReturnType<TallyUnderTest['as']>;

  beforeAll(async () => {
    ({ tally, acme, api } = await TallyUnderTest.withTenant());
    await tally.liftRateLimits(acme.tenantId);
    await api
      .post('/v1/plans', { code: 'monthly', product_code: 'monthly', currency: 'EUR', interval: 'month', components: [{ code: 'base', pricing: { model: 'flat', amount: '49.00' } }] })
      .expect(200);
  });
  afterAll(() => tally.stop());

  /** A customer paying with `token` (its default method), and that method. */
  const payer = async (token = 'tok_visa', type = 'card', body: object = {}) => {
    const customer = ((await api.post('/v1/customers', { email: 'payer@example.com', ...body }).expect(200)).body as { id: string }).id;
    const method = ((await api.post(`/v1/customers/${customer}/payment-methods`, { type, token, set_as_default: true }).expect(200)).body as { id: string }).id;
    return { customer, method };
  };
  /** An open invoice of `amount` that waits to be paid by hand (auto_charge off). */
  const openInvoice = async (customer: string, amount = '120.00') => {
    const draft = (await api.post('/v1/invoices', { customer_id: customer, currency: 'EUR', auto_charge: false, lines: [{ description: 'Consulting', quantity: '1', unit_amount: amount }] }).expect(200)).body as { id: string };
    await api.post(`/v1/invoices/${draft.id}/finalize`).expect(200);
    return draft.id;
  };
  const pay = async (invoice: string, body: object = {}) => (await api.post(`/v1/invoices/${invoice}/pay`, body).expect(200)).body as Payment;
  const invoiceOf = async (id: string) => (await api.get(`/v1/invoices/${id}`).expect(200)).body as { status: string; amount_paid: string; amount_due: string; payments: string[] };
  const eventTypes = async (aggregateId: string) =>
    ((await api.get(`/v1/events?aggregate_id=${aggregateId}&sort=created_at:asc&limit=100`).expect(200)).body.data as { type: string }[]).map((event) => event.type);

  it('pays an invoice with the customer’s default card: the payment succeeds and settles, the invoice is paid', async () => {
    const { customer, method } = await payer();
    const invoice = await openInvoice(customer);
    const payment = await pay(invoice);
    expect(payment).toMatchObject({
      id: expect.stringMatching(/^pay_/),
      object: 'payment',
      invoice_id: invoice,
      customer_id: customer,
      payment_method_id: method,
      provider: 'sandbox',
      provider_id: expect.stringMatching(/^sbx_py_/),
      status: 'succeeded',
      reason: 'manual',
      amount: '120.00',
      currency: 'EUR',
      amount_settled: '120.00',
      settlement_currency: 'EUR',
      fx_rate: null,
      captured_at: tally.clock.now().toISOString(),
      settled_at: tally.clock.now().toISOString(),
      next_action: null,
      return_url: null,
      last_error: null,
      refunds: [],
    });
    await tally.settle();
    expect(await invoiceOf(invoice)).toMatchObject({ status: 'paid', amount_paid: '120.00', amount_due: '0.00', payments: [payment.id] });
    expect(await eventTypes(payment.id)).toEqual(['payment.created', 'payment.succeeded', 'payment.settled']);
    expect((await eventTypes(invoice)).slice(-3)).toEqual(['invoice.updated', 'invoice.updated', 'invoice.paid']);
    expect((await api.get(`/v1/payments/${payment.id}`).expect(200)).body).toEqual(payment);

    const again = await api.post(`/v1/invoices/${invoice}/pay`, {}).expect(409);
    expect(again.body.problem).toBe('invoice.not_payable');
  });

  it('records a declined card: the payment fails with its error, the invoice stays open and says invoice.payment_failed', async () => {
    const { customer } = await payer('tok_card_declined');
    const invoice = await openInvoice(customer);
    const payment = await pay(invoice);
    expect(payment).toMatchObject({
      status: 'failed',
      last_error: { code: 'card_declined', decline_code: 'generic_decline', is_retriable: false, retriable_after: null, provider_message: expect.any(String), user_message: expect.any(String) },
    });
    await tally.settle();
    expect(await invoiceOf(invoice)).toMatchObject({ status: 'open', amount_due: '120.00', payments: [payment.id] });
    expect(await eventTypes(invoice)).toContain('invoice.payment_failed');
    expect(await eventTypes(payment.id)).toEqual(['payment.created', 'payment.failed']);

    // Before 2026-04-01 the error said `retriable`, as that version's OpenAPI document does.
    const old = await api.get(`/v1/payments/${payment.id}`).set('Service-Version', '2025-10-01').expect(200);
    expect(old.body.last_error).toMatchObject({ retriable: false });
    expect(old.body.last_error).not.toHaveProperty('is_retriable');

    // Another card pays it.
    const other = ((await api.post(`/v1/customers/${customer}/payment-methods`, { type: 'card', token: 'tok_mastercard' }).expect(200)).body as { id: string }).id;
    const paid = await pay(invoice, { payment_method_id: other });
    expect(paid).toMatchObject({ status: 'succeeded', payment_method_id: other });
    await tally.settle();
    expect(await invoiceOf(invoice)).toMatchObject({ status: 'paid', payments: [payment.id, paid.id] });
  });

  it('takes a partial payment: the invoice is partially paid, and a second payment pays the rest', async () => {
    const { customer } = await payer();
    const invoice = await openInvoice(customer);
    expect((await pay(invoice, { amount: '20.00' })).amount).toBe('20.00');
    await tally.settle();
    expect(await invoiceOf(invoice)).toMatchObject({ status: 'partially_paid', amount_paid: '20.00', amount_due: '100.00' });
    expect((await api.post(`/v1/invoices/${invoice}/pay`, { amount: '100.01' }).expect(409)).body.problem).toBe('invoice.payment_exceeds_amount_due');
    expect((await api.post(`/v1/invoices/${invoice}/pay`, { amount: '0.001' }).expect(400)).body.problem).toBe('invoice.invalid_payment_amount');
    expect((await pay(invoice)).amount).toBe('100.00');
    await tally.settle();
    expect(await invoiceOf(invoice)).toMatchObject({ status: 'paid', amount_paid: '120.00', amount_due: '0.00' });
  });

  it('gives a retriable failure its retry hint', async () => {
    const { customer } = await payer('tok_insufficient_funds');
    const payment = await pay(await openInvoice(customer));
    const oneDayLater = new Date(tally.clock.now().getTime() + 86_400_000).toISOString();
    expect(payment.last_error).toMatchObject({ code: 'card_declined', decline_code: 'insufficient_funds', is_retriable: true, retriable_after: oneDayLater });
  });

  it('sends a 3DS payment to the hosted page; completing the action pays the invoice', async () => {
    const { customer } = await payer('tok_3ds_required');
    const invoice = await openInvoice(customer);
    const payment = await pay(invoice);
    expect(payment).toMatchObject({ status: 'requires_action', next_action: { type: 'redirect_to_url', url: expect.stringMatching(new RegExp(`^${PUBLIC_URL}/payment-actions/pay_[0-9A-Z]+\\?tenant=.+&signature=`)) } });
    await tally.settle();
    const link = (await api.get(`/v1/payments/${payment.id}/action-url`).expect(200)).body;
    expect(link).toEqual({ payment_id: payment.id, url: expect.stringMatching(new RegExp(`^${PUBLIC_URL}/payment-actions/${payment.id}\\?`)), expires_at: new Date(tally.clock.now().getTime() + 86_400_000).toISOString() });
    const again = await api.post(`/v1/invoices/${invoice}/pay`, {}).expect(409);
    expect(again.body.problem).toBe('invoice.payment_in_progress');

    const completed = (await api.post(`/v1/test-helpers/payments/${payment.id}/complete-action`).expect(200)).body as Payment;
    expect(completed).toMatchObject({ status: 'succeeded', next_action: null });
    await tally.settle();
    expect(await eventTypes(payment.id)).toEqual(['payment.created', 'payment.requires_action', 'payment.action_completed', 'payment.succeeded', 'payment.settled']);
    expect((await invoiceOf(invoice)).status).toBe('paid');
    expect((await api.get(`/v1/payments/${payment.id}/action-url`).expect(409)).body.problem).toBe('payment.no_action');
  });

  describe('the return URL of a 3DS payment', () => {
    /** The hosted page's form for `answer`, and the page's Content-Security-Policy. */
    const hostedPage = async (url: string) => {
      const page = await tally.http().get(url).expect(200);
      const form = (answer: string) => (page.text.match(new RegExp(`action="([^"]+/${answer}\\?[^"]+)"`)) ?? [])[1]?.replaceAll('&#38;', '&');
      return { complete: form('complete'), fail: form('fail'), policy: page.headers['content-security-policy'] as string };
    };

    it('is kept with the payment, and the hosted page sends the customer back there with the payment id, whatever they answered', async () => {
      for (const answer of ['complete', 'fail'] as const) {
        const { customer } = await payer('tok_3ds_required');
        const invoice = await openInvoice(customer);
        const payment = await pay(invoice, { return_url: 'https://shop.example/orders/7/paid?step=3ds' });
        expect(payment).toMatchObject({ status: 'requires_action', return_url: 'https://shop.example/orders/7/paid?step=3ds' });
        await tally.settle();
        expect((await api.get(`/v1/payments/${payment.id}`).expect(200)).body.return_url).toBe('https://shop.example/orders/7/paid?step=3ds');
        const page = await hostedPage(payment.next_action!.url!);
        expect(page.complete.startsWith(`${PUBLIC_URL}/payment-actions/${payment.id}/complete?`)).toBe(true);
        expect(page.policy).toContain("form-action 'self' https://shop.example;");
        const answered = await tally.http().post(page[answer]).expect(303);
        expect(answered.headers.location).toBe(`https://shop.example/orders/7/paid?step=3ds&payment_id=${payment.id}`);
        expect((await api.get(`/v1/payments/${payment.id}`).expect(200)).body.status).toBe(answer === 'complete' ? 'succeeded' : 'failed');
      }
    });

    it('is none when the payer gave none: the page sends the customer back to itself, where the outcome shows', async () => {
      const { customer } = await payer('tok_3ds_required');
      const payment = await pay(await openInvoice(customer));
      expect(payment.return_url).toBeNull();
      const page = await hostedPage(payment.next_action!.url!);
      expect(page.policy).toContain("form-action 'self';");
      const answered = await tally.http().post(page.complete).expect(303);
      expect(answered.headers.location).toBe(payment.next_action!.url);
    });

    it.each([
      ['a relative URL', '/orders/7/paid'],
      ['a URL without a scheme', 'shop.example/orders/7/paid'],
      ['another scheme', 'javascript:alert(1)'],
      ['credentials', 'https://merchant:secret@shop.example/paid'],
      ['more than 2048 characters', `https://shop.example/${'a'.repeat(2030)}`],
    ])('refuses %s, and writes nothing', async (_name, returnUrl) => {
      const { customer } = await payer('tok_3ds_required');
      const invoice = await openInvoice(customer);
      await tally.settle();
      const head = await tally.head();
      const refused = (await api.post(`/v1/invoices/${invoice}/pay`, { return_url: returnUrl }).expect(400)).body;
      expect(refused).toMatchObject({ problem: returnUrl.length > 2048 ? 'request.invalid_body' : 'payment.invalid_return_url', errors: [expect.objectContaining({ field: 'return_url' })] });
      expect(await tally.head()).toBe(head);
      expect((await pay(invoice)).status).toBe('requires_action');
    });
  });

  it('fails a 3DS payment whose action fails; the invoice can be paid again', async () => {
    const { customer } = await payer('tok_3ds_required');
    const invoice = await openInvoice(customer);
    const payment = await pay(invoice);
    const failed = (await api.post(`/v1/test-helpers/payments/${payment.id}/fail-action`).expect(200)).body as Payment;
    expect(failed).toMatchObject({ status: 'failed', last_error: { code: 'authentication_failed', is_retriable: false } });
    await tally.settle();
    expect(await eventTypes(payment.id)).toEqual(['payment.created', 'payment.requires_action', 'payment.action_completed', 'payment.failed']);
    expect((await pay(invoice)).status).toBe('requires_action');
  });

  it('answers the provider SDK’s action for an in-app 3DS payment', async () => {
    const { customer } = await payer('tok_3ds_sdk');
    const payment = await pay(await openInvoice(customer));
    expect(payment.next_action).toEqual({ type: 'use_provider_sdk', provider: 'sandbox', payment_intent_client_secret: expect.stringMatching(/_secret_[0-9a-f]{16}$/) });
  });

  it('cancels a payment waiting for its action; the invoice is payable again', async () => {
    const { customer } = await payer('tok_3ds_required');
    const invoice = await openInvoice(customer);
    const payment = await pay(invoice);
    expect((await api.post(`/v1/payments/${payment.id}/cancel`).expect(200)).body.status).toBe('canceled');
    expect((await api.post(`/v1/payments/${payment.id}/cancel`).expect(200)).body.status).toBe('canceled');
    await tally.settle();
    expect(await eventTypes(payment.id)).toEqual(['payment.created', 'payment.requires_action', 'payment.canceled']);
    const succeeded = (await api.post(`/v1/customers/${customer}/payment-methods`, { type: 'card', token: 'tok_visa' }).expect(200)).body as { id: string };
    expect((await pay(invoice, { payment_method_id: succeeded.id })).status).toBe('succeeded');
  });

  it('records a chargeback and its dispute: lost stays charged back, won makes the payment succeeded again', async () => {
    const { customer } = await payer('tok_chargeback');
    const invoice = await openInvoice(customer);
    // tok_chargeback: the provider reports the dispute with the charge itself.
    const lost = await pay(invoice);
    expect(lost).toMatchObject({ status: 'charged_back', dispute: { status: 'open', amount: '120.00', reason: 'fraudulent', decided_at: null } });
    await tally.settle();
    expect((await invoiceOf(invoice)).status).toBe('paid');
    expect((await api.post(`/v1/test-helpers/payments/${lost.id}/dispute`, {}).expect(409)).body.problem).toBe('payment.already_disputed');
    expect((await api.post(`/v1/test-helpers/payments/${lost.id}/dispute/lost`).expect(200)).body).toMatchObject({ status: 'charged_back', dispute: { status: 'lost' } });
    await tally.settle();
    expect(await eventTypes(lost.id)).toEqual(['payment.created', 'payment.succeeded', 'payment.settled', 'payment.charged_back', 'payment.dispute_lost']);

    const card = ((await api.post(`/v1/customers/${customer}/payment-methods`, { type: 'card', token: 'tok_visa' }).expect(200)).body as { id: string }).id;
    const won = await pay(await openInvoice(customer), { payment_method_id: card });
    expect((await api.post(`/v1/test-helpers/payments/${won.id}/dispute`, { reason: 'product_not_received' }).expect(200)).body).toMatchObject({
      status: 'charged_back',
      dispute: { status: 'open', reason: 'product_not_received' },
    });
    expect((await api.post(`/v1/test-helpers/payments/${won.id}/dispute/won`).expect(200)).body).toMatchObject({ status: 'succeeded', dispute: { status: 'won' } });
    expect((await api.post(`/v1/test-helpers/payments/${won.id}/dispute/lost`).expect(409)).body.problem).toBe('payment.no_open_dispute');
  });

  it('refuses to dispute a payment that did not succeed', async () => {
    const { customer } = await payer('tok_card_declined');
    const failed = await pay(await openInvoice(customer));
    expect((await api.post(`/v1/test-helpers/payments/${failed.id}/dispute`, {}).expect(409)).body.problem).toBe('payment.not_disputable');
  });

  it('refuses to cancel a payment that succeeded', async () => {
    const { customer } = await payer();
    const payment = await pay(await openInvoice(customer));
    expect((await api.post(`/v1/payments/${payment.id}/cancel`).expect(409)).body.problem).toBe('payment.not_cancelable');
  });

  it('debits a verified bank account: processing until the bank settles it', async () => {
    const customer = ((await api.post('/v1/customers', { email: 'bank@example.com' }).expect(200)).body as { id: string }).id;
    const bank = ((await api.post(`/v1/customers/${customer}/payment-methods`, { type: 'bank_account', token: 'tok_bank_account' }).expect(200)).body as { id: string }).id;
    const invoice = await openInvoice(customer);
    const unverified = await api.post(`/v1/invoices/${invoice}/pay`, { payment_method_id: bank }).expect(422);
    expect(unverified.body).toMatchObject({ problem: 'payment.payment_method_unusable', errors: [{ field: 'payment_method_id' }] });
    await api.post(`/v1/payment-methods/${bank}/verify`).expect(200);
    await api.post(`/v1/payment-methods/${bank}/verify/confirm`, { amounts: ['0.32', '0.45'] }).expect(200);
    const payment = await pay(invoice, { payment_method_id: bank });
    expect(payment).toMatchObject({ status: 'processing', settled_at: null });
    tally.clock.advance(2 * 86_400_000);
    const settled = (await api.post(`/v1/test-helpers/payments/${payment.id}/settle`).expect(200)).body as Payment;
    expect(settled).toMatchObject({ status: 'succeeded', amount_settled: '120.00', settled_at: tally.clock.now().toISOString() });
    await tally.settle();
    expect(await eventTypes(payment.id)).toEqual(['payment.created', 'payment.processing', 'payment.succeeded', 'payment.settled']);
    expect((await invoiceOf(invoice)).status).toBe('paid');
  });

  it('charges once when two pay requests race on one invoice', async () => {
    const { customer } = await payer();
    const invoice = await openInvoice(customer);
    const answers = await Promise.all([1, 2, 3].map(() => api.post(`/v1/invoices/${invoice}/pay`, {})));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    for (const refused of answers.filter((answer) => answer.status !== 200)) {
      expect([409, ['invoice.payment_in_progress', 'invoice.not_payable', 'request.concurrent_update'].includes(refused.body.problem)]).toEqual([409, true]);
    }
    await tally.settle();
    const payments = (await api.get(`/v1/payments?invoice_id=${invoice}`).expect(200)).body.data as Payment[];
    expect(payments.map((payment) => payment.status)).toEqual(['succeeded']);
  });

  it('lists payments by status, invoice and customer', async () => {
    const { customer } = await payer('tok_card_declined');
    const invoice = await openInvoice(customer);
    const failed = await pay(invoice);
    await tally.settle();
    const byInvoice = (await api.get(`/v1/payments?invoice_id=${invoice}`).expect(200)).body.data as Payment[];
    expect(byInvoice.map((payment) => payment.id)).toEqual([failed.id]);
    const byCustomerAndStatus = (await api.get(`/v1/payments?customer_id=${customer}&status=failed`).expect(200)).body.data as Payment[];
    expect(byCustomerAndStatus.map((payment) => payment.id)).toEqual([failed.id]);
    expect((await api.get(`/v1/payments?customer_id=${customer}&status=succeeded`).expect(200)).body.data).toEqual([]);
  });

  describe('refusals, which write nothing', () => {
    it.each([
      ['an invoice that does not exist', async () => ({ invoice: 'inv_01JD8X5Z3Q4W2R6T8Y0V1B3N5M', body: {} }), 404, 'invoice.not_found'],
      ['a draft', async () => ({ invoice: ((await api.post('/v1/invoices', { customer_id: (await payer()).customer, currency: 'EUR', lines: [{ description: 'x', quantity: '1', unit_amount: '1.00' }] }).expect(200)).body as { id: string }).id, body: {} }), 409, 'invoice.not_payable'],
      ['a customer without a default method', async () => ({ invoice: await openInvoice(((await api.post('/v1/customers', { name: 'No card' }).expect(200)).body as { id: string }).id), body: {} }), 409, 'payment.no_payment_method'],
      ['another customer’s method', async () => ({ invoice: await openInvoice((await payer()).customer), body: { payment_method_id: (await payer()).method } }), 422, 'payment.payment_method_unusable'],
      ['a malformed method id', async () => ({ invoice: await openInvoice((await payer()).customer), body: { payment_method_id: 'card-1' } }), 400, 'request.invalid_body'],
    ])('refuses to pay %s', async (_name, given, status, problem) => {
      const { invoice, body } = await given();
      await tally.settle();
      const head = await tally.head();
      expect((await api.post(`/v1/invoices/${invoice}/pay`, body).expect(status)).body.problem).toBe(problem);
      expect(await tally.head()).toBe(head);
    });

    it('refuses the test helpers to live keys', async () => {
      const live = tally.as(acme.live);
      expect((await live.post('/v1/test-helpers/payments/pay_01JD8X5Z3Q4W2R6T8Y0V1B3N5M/complete-action').expect(400)).body.problem).toBe('test_helpers.livemode');
    });
  });

  describe('the subscription’s money flow', () => {
    it('charges a subscription’s invoice automatically on finalisation: paid, and the subscription stays active', async () => {
      const { customer } = await payer();
      const subscription = (await api.post('/v1/subscriptions', { customer_id: customer, plan_code: 'monthly' }).expect(200)).body as { id: string };
      await tally.settle();
      const invoices = (await api.get(`/v1/invoices?subscription_id=${subscription.id}`).expect(200)).body.data as { id: string; status: string; payments: string[] }[];
      expect(invoices.map((invoice) => invoice.status)).toEqual(['paid']);
      const payment = (await api.get(`/v1/payments/${invoices[0].payments[0]}`).expect(200)).body as Payment;
      expect(payment).toMatchObject({ status: 'succeeded', reason: 'automatic', subscription_id: subscription.id, amount: '49.00' });
    });

    it('makes an active subscription past due when its payment fails; a new default method retries at once, and the subscription is active again', async () => {
      const { customer } = await payer('tok_card_declined');
      const subscription = (await api.post('/v1/subscriptions', { customer_id: customer, plan_code: 'monthly' }).expect(200)).body as { id: string };
      await tally.settle();
      expect((await api.get(`/v1/subscriptions/${subscription.id}`).expect(200)).body.status).toBe('past_due');
      const invoice = ((await api.get(`/v1/invoices?subscription_id=${subscription.id}`).expect(200)).body.data as { id: string }[])[0].id;
      tally.clock.advance(60_000);
      await api.post(`/v1/customers/${customer}/payment-methods`, { type: 'card', token: 'tok_visa', set_as_default: true }).expect(200);
      await tally.settle();
      const payments = (await api.get(`/v1/payments?invoice_id=${invoice}&sort=created_at:asc`).expect(200)).body.data as Payment[];
      expect(payments.map((payment) => [payment.reason, payment.status])).toEqual([
        ['automatic', 'failed'],
        ['retry', 'succeeded'],
      ]);
      expect((await invoiceOf(invoice)).status).toBe('paid');
      expect((await api.get(`/v1/subscriptions/${subscription.id}`).expect(200)).body.status).toBe('active');
      // Activated once, when the money arrived.
      expect(await eventTypes(subscription.id)).toEqual(['subscription.created', 'subscription.past_due', 'subscription.activated']);
    });
  });
});
