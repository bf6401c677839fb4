import { TallyUnderTest } from './support/tally';

/**
 * Every retrieve takes `as_of`: the resource rebuilt from its events as it was at that moment,
 * 404 (its not-found code) a moment before it existed, and its earlier state between two writes.
 */
describe('retrieves as of a moment, through the HTTP API', () => {
  let tally: TallyUnderTest;
  let api: ReturnType<TallyUnderTest['as']>;

  beforeAll(async () => ({ tally, api } = await TallyUnderTest.withTenant()));

  afterAll(() => tally.stop());

  /** A moment between two writes: the clock moves on before and after it. */
  const moment = (): string => {
    tally.clock.advance(60_000);
    const at = tally.clock.now().toISOString();
    tally.clock.advance(60_000);
    return at;
  };
  const asOf = (path: string, at: string) => api.get(`${path}?as_of=${encodeURIComponent(at)}`);
  const body = async (path: string, at?: string) => (await (at ? asOf(path, at) : api.get(path)).expect(200)).body;
  const notYet = async (path: string, at: string) => (await asOf(path, at).expect(404)).body.problem;

  const customer = async () => (await api.post('/v1/customers', { email: 'ada@example.com' }).expect(200)).body.id as string;
  const plan = { product_code: 'pro', currency: 'EUR', interval: 'month', interval_count: 1, components: [{ code: 'base', pricing: { model: 'flat', amount: '49.00' } }] };

  it('plans, by code or id', async () => {
    const before = moment();
    const created = (await api.post('/v1/plans', { ...plan, code: 'as-of', metadata: { v: '1' } }).expect(200)).body;
    const between = moment();
    await api.patch('/v1/plans/as-of', { metadata: { v: '2' } }).expect(200);

    expect(await notYet('/v1/plans/as-of', before)).toBe('plan.not_found');
    const earlier = await asOf(`/v1/plans/${created.id}`, between).expect(200);
    expect([earlier.body.metadata, earlier.headers['etag']]).toEqual([{ v: '1' }, 'W/"0"']);
    expect((await body('/v1/plans/as-of', between)).components).toEqual(created.components);
    expect((await body('/v1/plans/as-of')).metadata).toEqual({ v: '2' });
  });

  it('coupons, by code or id', async () => {
    const before = moment();
    const created = (await api.post('/v1/coupons', { code: 'ASOF', name: 'First', percent_off: '10', duration: 'once' }).expect(200)).body;
    const between = moment();
    await api.patch('/v1/coupons/ASOF', { name: 'Second' }).expect(200);

    expect(await notYet(`/v1/coupons/${created.id}`, before)).toBe('coupon.not_found');
    expect(await body('/v1/coupons/ASOF', between)).toEqual(created);
    expect((await body('/v1/coupons/ASOF')).name).toBe('Second');
  });

  it('payment methods, with is_default as their customer had it then', async () => {
    const owner = await customer();
    const before = moment();
    const method = (await api.post(`/v1/customers/${owner}/payment-methods`, { type: 'card', token: 'tok_visa', metadata: { v: '1' } }).expect(200)).body;
    const between = moment();
    await api.patch(`/v1/payment-methods/${method.id}`, { is_default: true, metadata: { v: '2' } }).expect(200);
    await tally.settle();

    expect(await notYet(`/v1/payment-methods/${method.id}`, before)).toBe('payment_method.not_found');
    expect(await body(`/v1/payment-methods/${method.id}`, between)).toEqual(method);
    expect(await body(`/v1/payment-methods/${method.id}`)).toMatchObject({ is_default: true, metadata: { v: '2' } });
    expect(await body(`/v1/payment-methods/${method.id}`, tally.clock.now().toISOString())).toMatchObject({ is_default: true, metadata: { v: '2' } });
  });

  it('payments', async () => {
    const payer = await customer();
    await api.post(`/v1/customers/${payer}/payment-methods`, { type: 'card', token: 'tok_3ds_required', set_as_default: true }).expect(200);
    const draft = (await api.post('/v1/invoices', { customer_id: payer, currency: 'EUR', auto_charge: false, lines: [{ description: 'Consulting', quantity: '1', unit_amount: '120.00' }] }).expect(200)).body;
    await api.post(`/v1/invoices/${draft.id}/finalize`).expect(200);
    const before = moment();
    const payment = (await api.post(`/v1/invoices/${draft.id}/pay`, {}).expect(200)).body;
    expect(payment.status).toBe('requires_action');
    const between = moment();
    await api.post(`/v1/test-helpers/payments/${payment.id}/complete-action`).expect(200);
    await tally.settle();

    expect(await notYet(`/v1/payments/${payment.id}`, before)).toBe('payment.not_found');
    expect((await body(`/v1/payments/${payment.id}`, between)).status).toBe('requires_action');
    expect((await body(`/v1/payments/${payment.id}`)).status).toBe('succeeded');
  });

  it('setup intents', async () => {
    const owner = await customer();
    const before = moment();
    const intent = (await api.post('/v1/setup-intents', { customer_id: owner }).expect(200)).body;
    const between = moment();
    await api.post(`/v1/setup-intents/${intent.id}/cancel`, { cancellation_reason: 'abandoned' }).expect(200);

    expect(await notYet(`/v1/setup-intents/${intent.id}`, before)).toBe('setup_intent.not_found');
    expect(await body(`/v1/setup-intents/${intent.id}`, between)).toEqual(intent);
    expect((await body(`/v1/setup-intents/${intent.id}`)).status).toBe('canceled');
  });

  it('invoices and subscriptions', async () => {
    await api.post('/v1/plans', { ...plan, code: 'as-of-sub' }).expect(200);
    const owner = await customer();
    const before = moment();
    const draft = (await api.post('/v1/invoices', { customer_id: owner, currency: 'EUR', lines: [] }).expect(200)).body;
    const subscription = (await api.post('/v1/subscriptions', { customer_id: owner, plan_code: 'as-of-sub', metadata: { v: '1' } }).expect(200)).body;
    const between = moment();
    await api.patch(`/v1/invoices/${draft.id}`, { description: 'Later' }).expect(200);
    await api.patch(`/v1/subscriptions/${subscription.id}`, { metadata: { v: '2' } }).expect(200);
    await tally.settle();

    expect(await notYet(`/v1/invoices/${draft.id}`, before)).toBe('invoice.not_found');
    expect((await body(`/v1/invoices/${draft.id}`, between)).description).toBeNull();
    expect((await body(`/v1/invoices/${draft.id}`)).description).toBe('Later');
    expect(await notYet(`/v1/subscriptions/${subscription.id}`, before)).toBe('subscription.not_found');
    expect((await body(`/v1/subscriptions/${subscription.id}`, between)).metadata).toEqual({ v: '1' });
    expect((await body(`/v1/subscriptions/${subscription.id}`)).metadata).toEqual({ v: '2' });
  });

  it('usage alerts', async () => {
    await api.post('/v1/plans', { ...plan, code: 'as-of-metered', components: [{ code: 'calls', pricing: { model: 'usage', aggregation: 'sum', tiers: [{ up_to: null, unit_amount: '0.01' }] } }] }).expect(200);
    const subscription = (await api.post('/v1/subscriptions', { customer_id: await customer(), plan_code: 'as-of-metered' }).expect(200)).body.id;
    await tally.settle();
    const before = moment();
    const alert = (await api.post('/v1/usage-alerts', { subscription_id: subscription, meter: 'calls', threshold: '1000' }).expect(200)).body;
    const between = moment();
    await api.post(`/v1/usage-alerts/${alert.id}/archive`).expect(200);

    expect(await notYet(`/v1/usage-alerts/${alert.id}`, before)).toBe('usage_alert.not_found');
    expect(await body(`/v1/usage-alerts/${alert.id}`, between)).toEqual(alert);
    expect((await body(`/v1/usage-alerts/${alert.id}`)).status).toBe('archived');
  });

  it('webhook endpoints, never with their secret', async () => {
    const before = moment();
    const created = (await api.post('/v1/admin/webhook-endpoints', { url: 'http://127.0.0.1:9/hooks', events: ['*'], description: 'First' }).expect(200)).body;
    const between = moment();
    await api.patch(`/v1/admin/webhook-endpoints/${created.id}`, { description: 'Second' }).expect(200);

    expect(await notYet(`/v1/admin/webhook-endpoints/${created.id}`, before)).toBe('webhook_endpoint.not_found');
    const earlier = await body(`/v1/admin/webhook-endpoints/${created.id}`, between);
    expect(earlier).toMatchObject({ id: created.id, description: 'First' });
    expect(earlier).not.toHaveProperty('secret');
    expect((await body(`/v1/admin/webhook-endpoints/${created.id}`)).description).toBe('Second');
  });

  it('test clocks', async () => {
    const before = moment();
    const clock = (await api.post('/v1/test-clocks', { frozen_time: '2026-01-01T00:00:00Z' }).expect(200)).body;
    const between = moment();
    await api.post(`/v1/test-clocks/${clock.id}/advance`, { frozen_time: '2026-02-01T00:00:00Z' }).expect(200);
    await tally.settle();

    expect(await notYet(`/v1/test-clocks/${clock.id}`, before)).toBe('test_clock.not_found');
    expect(await body(`/v1/test-clocks/${clock.id}`, between)).toEqual(clock);
    expect((await body(`/v1/test-clocks/${clock.id}`)).frozen_time).toBe('2026-02-01T00:00:00.000Z');
  });

  it('the tax settings: pending before any were set', async () => {
    const before = moment();
    await api.patch('/v1/tax/settings', { origin: { country: 'DE' } }).expect(200);
    const between = moment();
    await api.patch('/v1/tax/settings', { origin: { country: 'FR' } }).expect(200);

    const pending = await asOf('/v1/tax/settings', before).expect(200);
    expect([pending.body.status, pending.body.origin, pending.headers['etag']]).toEqual(['pending', null, 'W/"-1"']);
    const earlier = await asOf('/v1/tax/settings', between).expect(200);
    expect([earlier.body.origin.country, earlier.headers['etag']]).toEqual(['DE', 'W/"0"']);
    expect((await body('/v1/tax/settings')).origin.country).toBe('FR');
  });

  it('refuses an as_of that is not a moment, and writes nothing', async () => {
    const head = await tally.head();
    expect((await asOf('/v1/plans/as-of', 'yesterday').expect(400)).body.problem).toBe('request.invalid_parameter');
    expect(await tally.head()).toBe(head);
  });
});
