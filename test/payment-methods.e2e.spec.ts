import { paymentMethodAggregate } from '@tally/payments';
import { CommandRuntime } from '@tally/runtime';
import type { RequestContext } from '@tally/cells';
import { TallyUnderTest, type TestTenant } from './support/tally';

type Method = { id: string; is_default: boolean; status: string; customer_id: string | null } & Record<string, unknown>;

describe('payment methods through the HTTP API', () => {
  let tally: TallyUnderTest;
  let api: ReturnType<TallyUnderTest['as']>;
  let acme: TestTenant;

  beforeAll(async () => {
    ({ tally, acme, api } = await TallyUnderTest.withTenant());
    await tally.liftRateLimits(acme.tenantId);
    await api
      .post('/v1/plans', { code: 'basic', product_code: 'basic', currency: 'EUR', interval: 'month', components: [{ code: 'base', pricing: { model: 'flat', amount: '10.00' } }] })
      .expect(200);
  });
  afterAll(() => tally.stop());

  const customer = async (body: object = { email: 'payer@example.com' }) => ((await api.post('/v1/customers', body).expect(200)).body as { id: string }).id;
  const attach = async (customerId: string, body: object) => (await api.post(`/v1/customers/${customerId}/payment-methods`, body).expect(200)).body as Method;
  const retrieve = async (id: string) => (await api.get(`/v1/payment-methods/${id}`).expect(200)).body as Method;
  const defaultOf = async (customerId: string) => ((await api.get(`/v1/customers/${customerId}`).expect(200)).body as { default_payment_method_id: string | null }).default_payment_method_id;
  /** The tenant's sandbox request context, as the API builds it. */
  const sandbox = (): RequestContext => ({ tenantId: acme.tenantId, environment: 'sandbox', region: 'eu', actor: 'test', requestId: null, correlationId: null, causationId: null });
  const eventTypes = async (aggregateId: string) =>
    ((await api.get(`/v1/events?aggregate_id=${aggregateId}&sort=created_at:asc&limit=100`).expect(200)).body.data as { type: string }[]).map((event) => event.type);

  describe('POST /v1/customers/{id}/payment-methods', () => {
    it('attaches a card and answers what the provider validated; only the card object is set', async () => {
      const owner = await customer();
      const method = await attach(owner, { type: 'card', token: 'tok_visa', metadata: { label: 'work' } });
      expect(method).toEqual({
        id: expect.stringMatching(/^pm_[0-9A-Z]{26}$/),
        object: 'payment_method',
        customer_id: owner,
        type: 'card',
        status: 'active',
        is_default: false,
        verified: false,
        card: { brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2034, country: 'US', funding: 'credit' },
        bank_account: null,
        wallet: null,
        billing_address: null,
        metadata: { label: 'work' },
        livemode: false,
        created_at: tally.clock.now().toISOString(),
        updated_at: tally.clock.now().toISOString(),
      });
      await tally.settle();
      expect(await retrieve(method.id)).toEqual(method);
      expect(await eventTypes(owner)).toEqual(['customer.created', 'customer.payment_method_attached']);
    });

    it('attaches wallets and bank accounts with their own objects', async () => {
      const owner = await customer();
      const paypal = await attach(owner, { type: 'paypal', token: 'tok_paypal' });
      expect(paypal).toMatchObject({ type: 'paypal', verified: true, card: null, bank_account: null, wallet: { kind: 'paypal', email: 'buyer@example.com' } });
      const applePay = await attach(owner, { type: 'wallet', token: 'tok_apple_pay' });
      expect(applePay).toMatchObject({ type: 'wallet', verified: true, wallet: { kind: 'apple_pay', email: null } });
      const bank = await attach(owner, { type: 'bank_account', token: 'tok_bank_account' });
      expect(bank).toMatchObject({ type: 'bank_account', verified: false, card: null, wallet: null, bank_account: { last4: '6789', routing: '110000000', holder: 'Jenny Rosen', status: 'new' } });
    });

    it('makes a method the default on request, demoting the previous one, and the customer follows', async () => {
      const owner = await customer();
      const first = await attach(owner, { type: 'card', token: 'tok_visa', set_as_default: true });
      expect(first.is_default).toBe(true);
      const second = await attach(owner, { type: 'card', token: 'tok_mastercard', set_as_default: true });
      expect(second.is_default).toBe(true);
      await tally.settle();
      expect(await defaultOf(owner)).toBe(second.id);
      expect((await retrieve(first.id)).is_default).toBe(false);
      expect((await retrieve(second.id)).is_default).toBe(true);
    });

    it.each([
      ['a card number as the token (refused, never echoed)', { type: 'card', token: '4242 4242 4242 4242' }, 400, 'payment_method.card_number_refused'],
      ['an unknown token', { type: 'card', token: 'tok_nonsense' }, 422, 'payment_method.token_invalid'],
      ['a token of another type', { type: 'bank_account', token: 'tok_visa' }, 422, 'payment_method.token_type_mismatch'],
      ['an unknown type', { type: 'crypto', token: 'tok_visa' }, 400, 'request.invalid_body'],
      ['no token', { type: 'card' }, 400, 'request.invalid_body'],
    ])('refuses %s and writes nothing', async (_name, body, status, problem) => {
      const owner = await customer();
      await tally.settle();
      const head = await tally.head();
      const response = await api.post(`/v1/customers/${owner}/payment-methods`, body).expect(status);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.body.problem).toBe(problem);
      expect(JSON.stringify(response.body)).not.toContain('4242 4242');
      expect(await tally.head()).toBe(head);
    });

    it('answers 404 for a customer that does not exist', async () => {
      const response = await api.post('/v1/customers/cus_01JD8X5Z3Q4W2R6T8Y0V1B3N5M/payment-methods', { type: 'card', token: 'tok_visa' }).expect(404);
      expect(response.body.problem).toBe('customer.not_found');
    });
  });

  describe('GET /v1/customers/{id}/payment-methods', () => {
    it('lists the customer’s attached methods, newest first, and not another customer’s', async () => {
      const owner = await customer();
      const other = await customer();
      const card = await attach(owner, { type: 'card', token: 'tok_visa' });
      tally.clock.advance(1_000);
      const wallet = await attach(owner, { type: 'wallet', token: 'tok_google_pay' });
      await attach(other, { type: 'card', token: 'tok_amex' });
      await tally.settle();
      const listed = (await api.get(`/v1/customers/${owner}/payment-methods`).expect(200)).body as { data: Method[] };
      expect(listed.data.map((method) => method.id)).toEqual([wallet.id, card.id]);
      const cards = (await api.get(`/v1/customers/${owner}/payment-methods?type=card`).expect(200)).body as { data: Method[] };
      expect(cards.data.map((method) => method.id)).toEqual([card.id]);
    });

    it('answers 404 for an unknown customer', async () => {
      expect((await api.get('/v1/customers/cus_01JD8X5Z3Q4W2R6T8Y0V1B3N5M/payment-methods').expect(404)).body.problem).toBe('customer.not_found');
    });
  });

  describe('PATCH /v1/payment-methods/{id}', () => {
    it('merges the billing address and metadata', async () => {
      const owner = await customer();
      const method = await attach(owner, { type: 'card', token: 'tok_visa', metadata: { a: '1' } });
      const updated = await api.patch(`/v1/payment-methods/${method.id}`, { billing_address: { country: 'DE', city: 'Berlin' }, metadata: { a: '', b: '2' } }).expect(200);
      expect(updated.body).toMatchObject({ billing_address: { line1: null, city: 'Berlin', region: null, country: 'DE', postal_code: null }, metadata: { b: '2' } });
      expect(updated.headers['etag']).toBe('W/"1"');
    });

    it('answers 412 when If-Match names an old revision, and applies nothing, the default included', async () => {
      const owner = await customer();
      const method = await attach(owner, { type: 'card', token: 'tok_visa', metadata: { a: '1' } });
      const current = await api.patch(`/v1/payment-methods/${method.id}`, { metadata: { a: '2' } }).set('If-Match', 'W/"0"').expect(200);
      expect(current.headers['etag']).toBe('W/"1"');
      const stale = await api.patch(`/v1/payment-methods/${method.id}`, { metadata: { a: '3' }, is_default: true }).set('If-Match', 'W/"0"').expect(412);
      expect(stale.body.problem).toBe('request.precondition_failed');
      expect(await retrieve(method.id)).toMatchObject({ metadata: { a: '2' }, is_default: false });
      expect(await defaultOf(owner)).toBeNull();
    });

    it('sets and unsets the default; the customer’s default_payment_method_id follows', async () => {
      const owner = await customer();
      const first = await attach(owner, { type: 'card', token: 'tok_visa', set_as_default: true });
      const second = await attach(owner, { type: 'card', token: 'tok_visa_debit' });
      expect((await api.patch(`/v1/payment-methods/${second.id}`, { is_default: true }).expect(200)).body.is_default).toBe(true);
      await tally.settle();
      expect(await defaultOf(owner)).toBe(second.id);
      expect((await retrieve(first.id)).is_default).toBe(false);
      expect((await api.patch(`/v1/payment-methods/${second.id}`, { is_default: false }).expect(200)).body.is_default).toBe(false);
      await tally.settle();
      expect(await defaultOf(owner)).toBeNull();
    });

    it('answers 404 for an unknown method', async () => {
      expect((await api.patch('/v1/payment-methods/pm_01JD8X5Z3Q4W2R6T8Y0V1B3N5M', { metadata: { a: '1' } }).expect(404)).body.problem).toBe('payment_method.not_found');
    });
  });

  describe('POST /v1/payment-methods/{id}/verify', () => {
    it('verifies a card at once and publishes payment_method.verified', async () => {
      const owner = await customer();
      const method = await attach(owner, { type: 'card', token: 'tok_visa' });
      expect((await api.post(`/v1/payment-methods/${method.id}/verify`).expect(200)).body).toMatchObject({ id: method.id, verified: true });
      await tally.settle();
      expect(await eventTypes(method.id)).toEqual(['payment_method.verified']);
      // Verifying again changes nothing.
      expect((await api.post(`/v1/payment-methods/${method.id}/verify`).expect(200)).headers['etag']).toBe('W/"1"');
    });

    it('verifies a bank account by micro-deposits: verifying, then the two amounts confirm it', async () => {
      const owner = await customer();
      const bank = await attach(owner, { type: 'bank_account', token: 'tok_bank_account' });
      const confirmEarly = await api.post(`/v1/payment-methods/${bank.id}/verify/confirm`, { amounts: ['0.32', '0.45'] }).expect(409);
      expect(confirmEarly.body.problem).toBe('payment_method.not_verifying');
      const started = await api.post(`/v1/payment-methods/${bank.id}/verify`).expect(200);
      expect(started.body).toMatchObject({ verified: false, bank_account: { status: 'verifying' } });
      const wrong = await api.post(`/v1/payment-methods/${bank.id}/verify/confirm`, { amounts: ['0.45', '0.33'] }).expect(422);
      expect(wrong.body.problem).toBe('payment_method.microdeposits_mismatch');
      const confirmed = await api.post(`/v1/payment-methods/${bank.id}/verify/confirm`, { amounts: ['0.32', '0.45'] }).expect(200);
      expect(confirmed.body).toMatchObject({ verified: true, bank_account: { status: 'verified' } });
    });

    it('refuses malformed micro-deposit amounts', async () => {
      const owner = await customer();
      const bank = await attach(owner, { type: 'bank_account', token: 'tok_bank_account' });
      expect((await api.post(`/v1/payment-methods/${bank.id}/verify/confirm`, { amounts: ['0.32'] }).expect(400)).body.problem).toBe('request.invalid_body');
      expect((await api.post(`/v1/payment-methods/${bank.id}/verify/confirm`, { amounts: ['32 cents', '0.45'] }).expect(400)).body.problem).toBe('request.invalid_body');
    });
  });

  describe('DELETE /v1/payment-methods/{id}', () => {
    it('detaches the default method: the customer has no default after it', async () => {
      const owner = await customer();
      const method = await attach(owner, { type: 'card', token: 'tok_visa', set_as_default: true });
      const detached = await api.delete(`/v1/payment-methods/${method.id}`).expect(200);
      expect(detached.body).toMatchObject({ id: method.id, status: 'detached', customer_id: null, is_default: false });
      await tally.settle();
      expect(await defaultOf(owner)).toBeNull();
      expect(await eventTypes(owner)).toEqual(['customer.created', 'customer.payment_method_attached', 'customer.updated', 'customer.payment_method_detached', 'customer.updated']);
      expect(((await api.get(`/v1/customers/${owner}/payment-methods`).expect(200)).body as { data: Method[] }).data).toEqual([]);
      const again = await api.patch(`/v1/payment-methods/${method.id}`, { metadata: { a: '1' } }).expect(409);
      expect(again.body.problem).toBe('payment_method.detached');
    });

    it('refuses to detach the method of a subscription that still bills, and writes nothing', async () => {
      const owner = await customer();
      const method = await attach(owner, { type: 'card', token: 'tok_visa' });
      await api.post('/v1/subscriptions', { customer_id: owner, plan_code: 'basic', default_payment_method_id: method.id }).expect(200);
      await tally.settle();
      const head = await tally.head();
      const refused = await api.delete(`/v1/payment-methods/${method.id}`).expect(409);
      expect(refused.body.problem).toBe('payment_method.in_use');
      expect(await tally.head()).toBe(head);
    });

    it('refuses to detach the customer’s default while a subscription without a method of its own bills it, and writes nothing', async () => {
      const owner = await customer();
      const method = await attach(owner, { type: 'card', token: 'tok_visa', set_as_default: true });
      const other = await attach(owner, { type: 'card', token: 'tok_mastercard' });
      await api.post('/v1/subscriptions', { customer_id: owner, plan_code: 'basic' }).expect(200);
      await tally.settle();
      const head = await tally.head();
      const refused = await api.delete(`/v1/payment-methods/${method.id}`).expect(409);
      expect(refused.body).toMatchObject({ problem: 'payment_method.in_use', detail: expect.stringContaining('default') });
      expect(await tally.head()).toBe(head);
      expect(await defaultOf(owner)).toBe(method.id);
      // A method that is neither the default nor a subscription's own is free to go.
      await api.delete(`/v1/payment-methods/${other.id}`).expect(200);
    });

    it('detaches a method once the subscriptions that billed it, as their own or inherited, are canceled', async () => {
      const owner = await customer();
      const method = await attach(owner, { type: 'card', token: 'tok_visa', set_as_default: true });
      const inheriting = (await api.post('/v1/subscriptions', { customer_id: owner, plan_code: 'basic' }).expect(200)).body as { id: string };
      const naming = (await api.post('/v1/subscriptions', { customer_id: owner, plan_code: 'basic', default_payment_method_id: method.id }).expect(200)).body as { id: string };
      await api.post(`/v1/subscriptions/${naming.id}/cancel`, { at: 'now' }).expect(200);
      await tally.settle();
      expect((await api.delete(`/v1/payment-methods/${method.id}`).expect(409)).body.problem).toBe('payment_method.in_use');
      await api.post(`/v1/subscriptions/${inheriting.id}/cancel`, { at: 'now' }).expect(200);
      await tally.settle();
      expect((await api.delete(`/v1/payment-methods/${method.id}`).expect(200)).body).toMatchObject({ id: method.id, status: 'detached' });
    });

    it('follows a subscription that changes its method: the old one is free to go, the new one is in use', async () => {
      const owner = await customer();
      const first = await attach(owner, { type: 'card', token: 'tok_visa' });
      const second = await attach(owner, { type: 'card', token: 'tok_mastercard' });
      const subscription = (await api.post('/v1/subscriptions', { customer_id: owner, plan_code: 'basic', default_payment_method_id: first.id }).expect(200)).body as { id: string };
      await api.patch(`/v1/subscriptions/${subscription.id}`, { default_payment_method_id: second.id }).expect(200);
      await tally.settle();
      const head = await tally.head();
      expect((await api.delete(`/v1/payment-methods/${second.id}`).expect(409)).body.problem).toBe('payment_method.in_use');
      expect(await tally.head()).toBe(head);
      expect((await api.delete(`/v1/payment-methods/${first.id}`).expect(200)).body).toMatchObject({ id: first.id, status: 'detached' });
    });
  });

  describe('setup intents (client-side capture)', () => {
    it('is created for a customer, confirmed with a token, and then names the method it attached', async () => {
      const owner = await customer();
      const created = (await api.post('/v1/setup-intents', { customer_id: owner, set_as_default: true, metadata: { flow: 'onboarding' } }).expect(200)).body;
      expect(created).toMatchObject({
        id: expect.stringMatching(/^seti_/),
        object: 'setup_intent',
        customer_id: owner,
        status: 'requires_payment_method',
        payment_method_types: ['card'],
        usage: 'off_session',
        payment_method_id: null,
        client_secret: expect.stringMatching(new RegExp(`^${created.id}_secret_`)),
        metadata: { flow: 'onboarding' },
      });
      const confirmed = (await api.post(`/v1/setup-intents/${created.id}/confirm`, { type: 'card', token: 'tok_mastercard' }).expect(200)).body;
      expect(confirmed).toMatchObject({ status: 'succeeded', payment_method_id: expect.stringMatching(/^pm_/) });
      await tally.settle();
      expect(await retrieve(confirmed.payment_method_id)).toMatchObject({ customer_id: owner, is_default: true, card: { brand: 'mastercard' } });
      expect((await api.get(`/v1/setup-intents/${created.id}`).expect(200)).body).toEqual(confirmed);
      const again = await api.post(`/v1/setup-intents/${created.id}/confirm`, { type: 'card', token: 'tok_visa' }).expect(409);
      expect(again.body.problem).toBe('setup_intent.unexpected_state');
    });

    it('refuses a method of a type it was not created for, a card number, and a canceled intent, attaching nothing', async () => {
      const owner = await customer();
      const intent = (await api.post('/v1/setup-intents', { customer_id: owner, payment_method_types: ['bank_account'] }).expect(200)).body as { id: string };
      await tally.settle();
      const head = await tally.head();
      expect((await api.post(`/v1/setup-intents/${intent.id}/confirm`, { type: 'card', token: 'tok_visa' }).expect(422)).body.problem).toBe('setup_intent.payment_method_type_not_allowed');
      expect((await api.post(`/v1/setup-intents/${intent.id}/confirm`, { type: 'bank_account', token: '4000 0566 5566 5556' }).expect(400)).body.problem).toBe('payment_method.card_number_refused');
      expect(await tally.head()).toBe(head);
      expect((await api.post(`/v1/setup-intents/${intent.id}/cancel`, { cancellation_reason: 'abandoned' }).expect(200)).body).toMatchObject({ status: 'canceled', cancellation_reason: 'abandoned' });
      expect((await api.post(`/v1/setup-intents/${intent.id}/confirm`, { type: 'bank_account', token: 'tok_bank_account' }).expect(409)).body.problem).toBe('setup_intent.unexpected_state');
    });

    it('answers 404 for an unknown customer or intent', async () => {
      expect((await api.post('/v1/setup-intents', { customer_id: 'cus_01JD8X5Z3Q4W2R6T8Y0V1B3N5M' }).expect(404)).body.problem).toBe('customer.not_found');
      expect((await api.get('/v1/setup-intents/seti_01JD8X5Z3Q4W2R6T8Y0V1B3N5M').expect(404)).body.problem).toBe('setup_intent.not_found');
    });
  });

  describe('a subscription’s own payment method', () => {
    it('must be one its customer has attached, on create and on update; nothing is written otherwise', async () => {
      const owner = await customer();
      const stranger = await attach(await customer(), { type: 'card', token: 'tok_visa' });
      await tally.settle();
      const head = await tally.head();
      const refused = await api.post('/v1/subscriptions', { customer_id: owner, plan_code: 'basic', default_payment_method_id: stranger.id }).expect(422);
      expect(refused.body).toMatchObject({ problem: 'customer.payment_method_not_attached', errors: [{ field: 'default_payment_method_id' }] });
      expect(await tally.head()).toBe(head);

      const own = await attach(owner, { type: 'card', token: 'tok_mastercard' });
      const subscription = (await api.post('/v1/subscriptions', { customer_id: owner, plan_code: 'basic', default_payment_method_id: own.id }).expect(200)).body as { id: string; default_payment_method_id: string };
      expect(subscription.default_payment_method_id).toBe(own.id);
      const patched = await api.patch(`/v1/subscriptions/${subscription.id}`, { default_payment_method_id: stranger.id }).expect(422);
      expect(patched.body.problem).toBe('customer.payment_method_not_attached');
    });
  });

  describe('a crash between the method’s append and the customer’s', () => {
    it('is completed by the attachment reaction: the customer records the method and its default', async () => {
      const owner = await customer();
      const runtime = tally.app.get(CommandRuntime);
      const context = sandbox();
      const id = 'pm_01JCRASHED0000000000000000';
      // The request that died appended the method only.
      await runtime.execute(
        paymentMethodAggregate,
        id,
        {
          type: 'AttachPaymentMethod',
          data: {
            payment_method_id: id,
            customer_id: owner,
            type: 'wallet',
            provider: 'sandbox',
            provider_ref: 'sbx_pm_crashed',
            card: null,
            bank_account: null,
            wallet: { kind: 'google_pay', email: null },
            verified: true,
            expires_at: null,
            billing_address: null,
            metadata: {},
            set_as_default: true,
          },
        },
        context,
      );
      await tally.settle();
      expect(await defaultOf(owner)).toBe(id);
      expect(await retrieve(id)).toMatchObject({ customer_id: owner, is_default: true });
      expect(await eventTypes(owner)).toEqual(['customer.created', 'customer.payment_method_attached', 'customer.updated']);
    });
  });

  describe('card expiry', () => {
    it('announces the expiry 30 days ahead and expires the card at the end of its month, on the customer’s test clock', async () => {
      const clock = ((await api.post('/v1/test-clocks', { frozen_time: '2026-11-10T00:00:00.000Z' }).expect(200)).body as { id: string }).id;
      const owner = await customer({ email: 'clocked@example.com', test_clock: clock });
      const card = await attach(owner, { type: 'card', token: 'tok_expiring' });
      expect(card.card).toMatchObject({ exp_month: 11, exp_year: 2026 });
      await tally.settle();
      expect(await eventTypes(card.id)).toEqual([]);

      await api.post(`/v1/test-clocks/${clock}/advance`, { frozen_time: '2026-11-11T00:00:00.000Z' }).expect(200);
      await tally.settle();
      expect(await eventTypes(card.id)).toEqual(['payment_method.expiring']);

      await api.post(`/v1/test-clocks/${clock}/advance`, { frozen_time: '2026-12-01T00:00:00.000Z' }).expect(200);
      await tally.settle();
      expect(await eventTypes(card.id)).toEqual(['payment_method.expiring', 'payment_method.expired']);
      expect(await retrieve(card.id)).toMatchObject({ status: 'expired', updated_at: '2026-12-01T00:00:00.000Z' });
    });
  });
});
