import type { InvoiceResource } from '@tally/invoicing';
import { BillingTimeline } from './support/billing-timeline';
import { TallyUnderTest, type TestTenant } from './support/tally';

/**
 * Usage metering through the HTTP API: batches accepted whole, exact dedupe, every aggregation
 * priced at period close on a test clock (declared events, then the invoice lines), corrections
 * and late events.
 */
describe('usage metering', () => {
  let tally: TallyUnderTest;
  let acme: TestTenant;
  let api: ReturnType<TallyUnderTest['as']>;

  const usage = (meter: string, aggregation: string, unit_amount: string, extra: object = {}) => ({
    code: meter,
    pricing: { model: 'usage', aggregation, tiers: [{ up_to: null, unit_amount }], ...extra },
  });

  beforeAll(async () => {
    ({ tally, acme, api } = await TallyUnderTest.withTenant());
    await tally.liftRateLimits(acme.tenantId);
    await api
      .post('/v1/plans', {
        code: 'metered',
        product_code: 'metered',
        currency: 'EUR',
        interval: 'month',
        interval_count: 1,
        components: [
          { code: 'calls', pricing: { model: 'usage', aggregation: 'sum', tiers: [{ up_to: 1000, unit_amount: '0' }, { up_to: null, unit_amount: '0.01' }] } },
          usage('requests', 'count_agg', '0.10'),
          usage('gb_peak', 'max', '2.00'),
          usage('seats_last', 'latest_agg', '5.00'),
          usage('users', 'unique_count', '3.00', { unique_property: 'user_id' }),
          usage('storage', 'weighted_sum', '1.00'),
          usage('lifetime_calls', 'sum', '0.50', { usage_cycle: 'never' }),
        ],
      })
      .expect(200);
    await api
      .post('/v1/plans', {
        code: 'rebilled',
        product_code: 'rebilled',
        currency: 'EUR',
        interval: 'month',
        interval_count: 1,
        components: [{ code: 'base', pricing: { model: 'flat', amount: '10.00' } }, usage('calls', 'sum', '0.01', { late_events: 'rebill' })],
      })
      .expect(200);
  });

  afterAll(() => tally.stop());

  async function subscribe(start: string, plan_code = 'metered', paying = false): Promise<BillingTimeline> {
    const clock = (await api.post('/v1/test-clocks', { frozen_time: start }).expect(200)).body.id;
    const customer = (await api.post('/v1/customers', { email: 'usage@example.com', test_clock: clock }).expect(200)).body.id;
    if (paying) await api.post(`/v1/customers/${customer}/payment-methods`, { type: 'card', token: 'tok_visa', set_as_default: true }).expect(200);
    const subscription = (await api.post('/v1/subscriptions', { customer_id: customer, plan_code }).expect(200)).body.id;
    return new BillingTimeline(tally, api, clock, subscription);
  }

  const event = (subscription_id: string, meter: string, quantity: string, timestamp: string, extra: object = {}) => ({ subscription_id, meter, quantity, timestamp, ...extra });

  async function summary(subscription: string, query = ''): Promise<Record<string, { quantity: string; events: number; late_events: number }>> {
    const body = (await api.get(`/v1/subscriptions/${subscription}/usage${query}`).expect(200)).body as { meters: { meter: string; quantity: string; events: number; late_events: number }[] };
    return Object.fromEntries(body.meters.map(({ meter, ...reading }) => [meter, reading]));
  }

  it('prices every aggregation at period close, corrections included', async () => {
    const timeline = await subscribe('2026-06-01T00:00:00.000Z');
    const sub = timeline.subscription;
    expect(await timeline.advance('2026-06-28T00:00:00.000Z')).toEqual([['subscription.created', '2026-06-01T00:00:00.000Z']]);

    const batch = [
      event(sub, 'calls', '1500', '2026-06-02T10:00:00Z'),
      event(sub, 'calls', '700', '2026-06-03T10:00:00Z'),
      event(sub, 'calls', '-200', '2026-06-04T10:00:00Z', { external_id: 'correction-1' }),
      ...['2026-06-02', '2026-06-05', '2026-06-09'].map((day) => event(sub, 'requests', '1', `${day}T00:00:00Z`)),
      ...['5', '12.5', '7'].map((gb, i) => event(sub, 'gb_peak', gb, `2026-06-1${i}T00:00:00Z`)),
      event(sub, 'seats_last', '3', '2026-06-05T00:00:00Z'),
      event(sub, 'seats_last', '4', '2026-06-20T00:00:00Z'),
      event(sub, 'seats_last', '2', '2026-06-12T00:00:00Z'),
      ...['u1', 'u2', 'u1', 'u3'].map((user, i) => event(sub, 'users', '1', `2026-06-0${i + 1}T00:00:00Z`, { properties: { user_id: user } })),
      // 10 GB all month, 20 more for the last 15 of 30 days, 10 fewer for the last 6: 10 + 20 × 0.5 − 10 × 0.2 = 18.
      event(sub, 'storage', '10', '2026-06-01T00:00:00Z'),
      event(sub, 'storage', '20', '2026-06-16T00:00:00Z'),
      event(sub, 'storage', '-10', '2026-06-25T00:00:00Z'),
      event(sub, 'lifetime_calls', '4', '2026-06-10T00:00:00Z'),
    ];
    const accepted = await api.post('/v1/usage/batch', { events: batch }).expect(202);
    expect(accepted.body).toEqual({ object: 'usage_batch', id: expect.stringMatching(/^ubat_/), accepted: batch.length, duplicates: [] });

    // Read-your-write: the summary counts the batch without waiting for anything.
    expect(await summary(sub)).toEqual({
      calls: { quantity: '2000', events: 3, late_events: 0 },
      requests: { quantity: '3', events: 3, late_events: 0 },
      gb_peak: { quantity: '12.5', events: 3, late_events: 0 },
      seats_last: { quantity: '4', events: 3, late_events: 0 },
      users: { quantity: '3', events: 4, late_events: 0 },
      storage: { quantity: '18', events: 3, late_events: 0 },
      lifetime_calls: { quantity: '4', events: 1, late_events: 0 },
    });

    expect(await timeline.advance('2026-07-01T00:00:00.000Z')).toEqual([
      ['invoice.created', '2026-07-01T00:00:00.000Z'],
      ['invoice.finalized', '2026-07-01T00:00:00.000Z'],
    ]);
    const [invoice] = await timeline.invoices();
    expect(invoice.lines.map((line) => [line.code, line.quantity, line.amount, line.period_start, line.period_end])).toEqual([
      ['calls', '2000', '10.00', '2026-06-01T00:00:00.000Z', '2026-07-01T00:00:00.000Z'],
      ['requests', '3', '0.30', '2026-06-01T00:00:00.000Z', '2026-07-01T00:00:00.000Z'],
      ['gb_peak', '12.5', '25.00', '2026-06-01T00:00:00.000Z', '2026-07-01T00:00:00.000Z'],
      ['seats_last', '4', '20.00', '2026-06-01T00:00:00.000Z', '2026-07-01T00:00:00.000Z'],
      ['users', '3', '9.00', '2026-06-01T00:00:00.000Z', '2026-07-01T00:00:00.000Z'],
      ['storage', '18', '18.00', '2026-06-01T00:00:00.000Z', '2026-07-01T00:00:00.000Z'],
      ['lifetime_calls', '4', '2.00', '2026-06-01T00:00:00.000Z', '2026-07-01T00:00:00.000Z'],
    ]);

    // July: the counters that reset start again; the one that never resets keeps counting.
    await api.post('/v1/usage', event(sub, 'lifetime_calls', '6', '2026-07-01T00:00:00Z')).expect(202);
    expect(await summary(sub)).toMatchObject({ calls: { quantity: '0', events: 0 }, lifetime_calls: { quantity: '10', events: 2 } });
  });

  it('answers a copy with the event that counts, marked duplicate: one still in flight, one counted, one in the same batch, one tracked', async () => {
    const timeline = await subscribe('2026-06-01T00:00:00.000Z');
    const sub = timeline.subscription;
    await timeline.advance('2026-06-10T00:00:00.000Z');
    const first = event(sub, 'calls', '5', '2026-06-09T00:00:00Z', { external_id: 'order-1' });
    // The worker holds the count: the first event is still in flight when its copy comes.
    await tally.worker.stop();
    let original: Record<string, unknown>;
    try {
      original = (await api.post('/v1/usage', first).expect(202)).body;
      expect(original).toEqual({ object: 'usage_event', subscription_id: sub, meter: 'calls', quantity: '5', timestamp: '2026-06-09T00:00:00.000Z', external_id: 'order-1', properties: null, received_at: '2026-06-10T00:00:00.000Z', duplicate: false });
      expect((await api.post('/v1/usage', { ...first, quantity: '500', timestamp: '2026-06-09T05:00:00Z' }).expect(202)).body).toEqual({ ...original, duplicate: true });
    } finally {
      await tally.worker.start();
    }
    await tally.settle();
    expect((await api.post('/v1/usage', { ...first, quantity: '7' }).expect(202)).body).toEqual({ ...original, duplicate: true });

    const second = event(sub, 'calls', '1', '2026-06-09T01:00:00Z', { external_id: 'order-2' });
    const batch = await api.post('/v1/usage/batch', { events: [{ ...first, quantity: '9' }, second, { ...second, quantity: '2' }] }).expect(202);
    expect([batch.body.accepted, batch.body.duplicates]).toEqual([
      3,
      [
        { index: 0, event: { ...original, duplicate: true } },
        { index: 2, event: { ...original, quantity: '1', timestamp: '2026-06-09T01:00:00.000Z', external_id: 'order-2', duplicate: true } },
      ],
    ]);
    const customer = (await api.get(`/v1/subscriptions/${sub}`).expect(200)).body.customer_id;
    const tracked = await api.post('/v1/track', { customer_id: customer, feature_code: 'calls', value: '3', dedup_key: 'order-2' }).expect(202);
    expect([tracked.body.quantity, tracked.body.duplicate]).toEqual(['1', true]);
    expect((await api.post('/v1/usage/batch', { events: [event(sub, 'calls', '1', '2026-06-09T02:00:00Z', { external_id: 'order-3' })] }).expect(202)).body.duplicates).toEqual([]);
    expect((await summary(sub)).calls).toEqual({ quantity: '7', events: 3, late_events: 0 });
  });

  it('prices unique_count written as the spec writes a usage component (meter, aggregation, tiers): distinct events, each external id once', async () => {
    const logins = { code: 'logins', pricing: { model: 'usage', meter: 'logins', aggregation: 'unique_count', tiers: [{ up_to: 2, unit_amount: '0' }, { up_to: null, unit_amount: '1.00' }] } };
    await api.post('/v1/plans', { code: 'spec-unique', product_code: 'spec-unique', currency: 'EUR', interval: 'month', interval_count: 1, components: [logins] }).expect(200);
    const timeline = await subscribe('2026-06-01T00:00:00.000Z', 'spec-unique');
    const sub = timeline.subscription;
    await timeline.advance('2026-06-20T00:00:00.000Z');
    const login = (external_id: string, day: string) => event(sub, 'logins', '1', `2026-06-${day}T00:00:00Z`, { external_id });
    await api.post('/v1/usage/batch', { events: [login('a', '02'), login('b', '03'), login('a', '04'), login('c', '05')] }).expect(202);
    await api.post('/v1/usage', login('d', '06')).expect(202);
    expect((await summary(sub)).logins).toEqual({ quantity: '4', events: 4, late_events: 0 });
    expect(await timeline.advance('2026-07-01T00:00:00.000Z')).toEqual([
      ['invoice.created', '2026-07-01T00:00:00.000Z'],
      ['invoice.finalized', '2026-07-01T00:00:00.000Z'],
    ]);
    const [invoice] = await timeline.invoices();
    expect(invoice.lines.map((line) => [line.code, line.quantity, line.amount])).toEqual([['logins', '4', '2.00']]);
  });

  it('counts an event once, however often it is sent: the same external id, the Idempotency-Key, across batches', async () => {
    const timeline = await subscribe('2026-06-01T00:00:00.000Z');
    const sub = timeline.subscription;
    await timeline.advance('2026-06-10T00:00:00.000Z');
    const first = event(sub, 'calls', '5', '2026-06-09T00:00:00Z', { external_id: 'evt-1' });
    await api.post('/v1/usage/batch', { events: [first, event(sub, 'calls', '1', '2026-06-09T00:00:00Z', { external_id: 'evt-2' })] }).expect(202);
    await api.post('/v1/usage/batch', { events: [{ ...first, quantity: '500' }, event(sub, 'calls', '1', '2026-06-09T00:00:00Z', { idempotency_key: 'evt-2' })] }).expect(202);
    await api.post('/v1/usage', first).expect(202);
    const key = '5d0c6a2e-9a1b-4c3d-8e2f-0a1b2c3d4e5f';
    const keyed = await api.post('/v1/usage', event(sub, 'calls', '10', '2026-06-09T00:00:00Z')).set('Idempotency-Key', key).expect(202);
    expect(keyed.body.external_id).toBe(key);
    await api.post('/v1/usage/batch', { events: [event(sub, 'calls', '10', '2026-06-09T00:00:00Z', { external_id: key })] }).expect(202);
    expect((await summary(sub)).calls).toEqual({ quantity: '16', events: 3, late_events: 0 });
  });

  it('stores nothing of a batch with one bad event, and names every failing index', async () => {
    const timeline = await subscribe('2026-06-01T00:00:00.000Z');
    const sub = timeline.subscription;
    await timeline.advance('2026-06-10T00:00:00.000Z');
    const good = event(sub, 'calls', '1', '2026-06-09T00:00:00Z');
    const cases: [string, object[], number, string, string[]][] = [
      ['a quantity in exponent notation', [good, { ...good, quantity: '1.0e3' }], 400, 'usage.invalid_quantity', ['events[1].quantity']],
      ['a number for a quantity', [{ ...good, quantity: 3 }], 400, 'usage.invalid_quantity', ['events[0].quantity']],
      ['an unknown subscription', [good, { ...good, subscription_id: 'sub_nope' }, { ...good, subscription_id: 'sub_other' }], 404, 'usage.subscription_not_found', ['events[1].subscription_id', 'events[2].subscription_id']],
      ['a meter of no usage component', [good, { ...good, meter: 'seats' }], 422, 'usage.meter_not_on_subscription', ['events[1].meter']],
      ['a timestamp too old', [{ ...good, timestamp: '2026-04-01T00:00:00Z' }], 400, 'usage.timestamp_out_of_range', ['events[0].timestamp']],
      ['a timestamp without a zone', [{ ...good, timestamp: '2026-06-09T00:00:00' }], 400, 'usage.invalid_timestamp', ['events[0].timestamp']],
      ['an unknown field', [{ ...good, amount: '1' }], 400, 'request.invalid_body', ['events[0].amount']],
      [
        'failures of every kind in several events: a field that is not valid chooses the code',
        [good, { ...good, meter: 'seats' }, { ...good, quantity: '1e3' }, { ...good, subscription_id: 'sub_nope' }, { ...good, timestamp: '2026-04-01T00:00:00Z' }, { ...good, amount: '1' }],
        400,
        'usage.invalid_quantity',
        ['events[1].meter', 'events[2].quantity', 'events[3].subscription_id', 'events[4].timestamp', 'events[5].amount'],
      ],
      ['lookups only: the first kind in the documented order', [{ ...good, timestamp: '2026-04-01T00:00:00Z' }, { ...good, meter: 'seats' }], 422, 'usage.meter_not_on_subscription', ['events[0].timestamp', 'events[1].meter']],
    ];
    for (const [name, events, status, problem, fields] of cases) {
      const refused = await api.post('/v1/usage/batch', { events }).expect(status);
      expect([name, refused.headers['content-type'], refused.body.problem, refused.body.errors.map((e: { field: string }) => e.field)]).toEqual([name, expect.stringContaining('application/problem+json'), problem, fields]);
    }
    expect((await api.post('/v1/usage/batch', { events: [] }).expect(400)).body.problem).toBe('usage.invalid_batch');
    expect((await api.post('/v1/usage/batch', { events: Array(1001).fill(good) }).expect(400)).body.problem).toBe('usage.invalid_batch');
    expect((await summary(sub)).calls).toEqual({ quantity: '0', events: 0, late_events: 0 });
  });

  it('refuses at ingest a quantity no invoice could bill, and bills a sum beyond the money limits up to them: the upcoming invoice and the period close never fail', async () => {
    const timeline = await subscribe('2026-06-01T00:00:00.000Z');
    const sub = timeline.subscription;
    await timeline.advance('2026-06-10T00:00:00.000Z');
    const fields = (body: { errors: { field: string }[] }) => body.errors.map((e) => e.field);
    const tooLarge = [
      event(sub, 'calls', '99999999999999999999', '2026-06-09T00:00:00Z'),
      event(sub, 'gb_peak', '-500000000000', '2026-06-09T00:00:00Z'),
      event(sub, 'requests', '1000000000000', '2026-06-09T00:00:00Z'),
    ];
    const refused = await api.post('/v1/usage/batch', { events: tooLarge }).expect(400);
    expect([refused.body.problem, fields(refused.body)]).toEqual(['usage.quantity_out_of_range', ['events[0].quantity', 'events[1].quantity', 'events[2].quantity']]);
    const customer = (await api.get(`/v1/subscriptions/${sub}`).expect(200)).body.customer_id;
    const tracked = await api.post('/v1/track', { customer_id: customer, feature_code: 'calls', value: '99999999999999999999' }).expect(400);
    expect([tracked.body.problem, fields(tracked.body)]).toEqual(['usage.quantity_out_of_range', ['value']]);

    await api
      .post('/v1/usage/batch', {
        events: [
          event(sub, 'calls', '999999999999', '2026-06-09T00:00:00Z'),
          event(sub, 'calls', '999999999999', '2026-06-09T01:00:00Z'),
          event(sub, 'gb_peak', '499999999999.5', '2026-06-09T00:00:00Z'),
          event(sub, 'storage', '0.000000000001', '2026-06-05T00:00:00Z'),
        ],
      })
      .expect(202);
    expect(await summary(sub)).toMatchObject({
      calls: { quantity: '999999999999.99999999', events: 2 },
      gb_peak: { quantity: '499999999999.5', events: 1 },
      storage: { quantity: '0', events: 1 },
    });
    const billed = [
      ['calls', '999999999999.99999999', '9999999990.00'],
      ['gb_peak', '499999999999.5', '999999999999.00'],
      ['storage', '0', '0.00'],
    ];
    const usageLines = (invoice: InvoiceResource) => invoice.lines.filter((line) => ['calls', 'gb_peak', 'storage'].includes(line.code!)).map((line) => [line.code, line.quantity, line.amount]);
    expect(usageLines((await api.get(`/v1/subscriptions/${sub}/upcoming-invoice`).expect(200)).body)).toEqual(billed);
    expect(await timeline.advance('2026-07-01T00:00:00.000Z')).toEqual([
      ['invoice.created', '2026-07-01T00:00:00.000Z'],
      ['invoice.finalized', '2026-07-01T00:00:00.000Z'],
    ]);
    const [invoice] = await timeline.invoices();
    expect(usageLines(invoice)).toEqual(billed);
  });

  it('refuses usage of another tenant’s subscription (404) and of a canceled one (409)', async () => {
    const timeline = await subscribe('2026-06-01T00:00:00.000Z');
    const sub = timeline.subscription;
    const other = await tally.tenant('Globex', 'eu');
    await tally.liftRateLimits(other.tenantId);
    const globex = tally.as(other.sandbox);
    expect((await globex.post('/v1/usage', event(sub, 'calls', '1', '2026-06-01T00:00:00Z')).expect(404)).body.problem).toBe('usage.subscription_not_found');
    await api.post(`/v1/subscriptions/${sub}/cancel`, { at: 'now' }).expect(200);
    expect((await api.post('/v1/usage', event(sub, 'calls', '1', '2026-06-01T00:00:00Z')).expect(409)).body.problem).toBe('usage.subscription_canceled');
  });

  it('closes the period of a subscription canceled now at the cancel time: the summary, period=closed and the final invoice agree', async () => {
    const timeline = await subscribe('2026-06-01T00:00:00.000Z');
    const sub = timeline.subscription;
    await timeline.advance('2026-06-16T00:00:00.000Z');
    await api.post('/v1/usage/batch', { events: [event(sub, 'calls', '1500', '2026-06-09T00:00:00Z'), event(sub, 'storage', '10', '2026-06-01T00:00:00Z')] }).expect(202);
    await api.post(`/v1/subscriptions/${sub}/cancel`, { at: 'now' }).expect(200);
    expect(await timeline.newEvents()).toEqual([
      ['subscription.canceled', '2026-06-16T00:00:00.000Z'],
      ['invoice.created', '2026-06-16T00:00:00.000Z'],
      ['invoice.finalized', '2026-06-16T00:00:00.000Z'],
    ]);

    const canceledPeriod = { start: '2026-06-01T00:00:00.000Z', end: '2026-06-16T00:00:00.000Z' };
    const read = async (query: string) => {
      const body = (await api.get(`/v1/subscriptions/${sub}/usage${query}`).expect(200)).body as { period: object; meters: { meter: string; quantity: string }[] };
      return [body.period, body.meters.filter((m) => m.meter === 'calls' || m.meter === 'storage').map((m) => [m.meter, m.quantity])];
    };
    const expected = [canceledPeriod, [['calls', '1500'], ['storage', '10']]];
    expect(await read('')).toEqual(expected);
    expect(await read('?period=closed')).toEqual(expected);
    expect(await read('?period=closed&closed_at=2026-06-16')).toEqual(expected);
    expect(await read('?closed_at=2026-06-16T00:00:00Z')).toEqual(expected);
    expect((await api.get(`/v1/subscriptions/${sub}/usage?period=closed&closed_at=2026-06-17`).expect(400)).body.problem).toBe('subscription.period_not_closed');

    const [final] = await timeline.invoices();
    const billed = final.lines.filter((line) => line.code === 'calls' || line.code === 'storage');
    expect(billed.map((line) => [line.code, line.quantity, line.amount, line.period_start, line.period_end])).toEqual([
      ['calls', '1500', '5.00', canceledPeriod.start, canceledPeriod.end],
      ['storage', '10', '10.00', canceledPeriod.start, canceledPeriod.end],
    ]);
  });

  it('counts an event that arrives after its period closed in the next period (next_period)', async () => {
    const timeline = await subscribe('2026-06-01T00:00:00.000Z');
    const sub = timeline.subscription;
    await timeline.advance('2026-06-30T00:00:00.000Z');
    await api.post('/v1/usage', event(sub, 'calls', '1200', '2026-06-29T00:00:00Z')).expect(202);
    expect(await timeline.advance('2026-07-02T00:00:00.000Z')).toEqual([
      ['invoice.created', '2026-07-01T00:00:00.000Z'],
      ['invoice.finalized', '2026-07-01T00:00:00.000Z'],
    ]);
    await api.post('/v1/usage', event(sub, 'calls', '1300', '2026-06-30T12:00:00Z')).expect(202);
    expect((await summary(sub, '?period=closed')).calls).toEqual({ quantity: '1200', events: 1, late_events: 0 });
    expect((await summary(sub)).calls).toEqual({ quantity: '1300', events: 1, late_events: 1 });
    expect(await timeline.advance('2026-08-01T00:00:00.000Z')).toEqual([
      ['invoice.created', '2026-08-01T00:00:00.000Z'],
      ['invoice.finalized', '2026-08-01T00:00:00.000Z'],
    ]);
    const invoices = await timeline.invoices();
    expect(invoices.map((invoice) => invoice.lines.filter((line) => line.code === 'calls').map((line) => [line.quantity, line.amount]))).toEqual([[['1200', '2.00']], [['1300', '3.00']]]);
  });

  it('tracks usage by customer and feature, routed to the one subscription that meters it', async () => {
    const timeline = await subscribe('2026-06-01T00:00:00.000Z');
    const sub = timeline.subscription;
    await timeline.advance('2026-06-10T00:00:00.000Z');
    const customer = (await api.get(`/v1/subscriptions/${sub}`).expect(200)).body.customer_id;

    const tracked = await api.post('/v1/track', { customer_id: customer, feature_code: 'calls', value: 1500, properties: { region: 'eu' } }).set('Idempotency-Key', '0b5e2c1a-4f3d-4a2b-9c8d-7e6f5a4b3c2d').expect(202);
    expect(tracked.body).toMatchObject({ object: 'usage_event', subscription_id: sub, meter: 'calls', quantity: '1500', timestamp: '2026-06-10T00:00:00.000Z', external_id: '0b5e2c1a-4f3d-4a2b-9c8d-7e6f5a4b3c2d' });
    const generated = await api.post('/v1/track', { customer_id: customer, feature_code: 'calls', value: '2' }).expect(202);
    expect(generated.body.external_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const bulk = Array.from({ length: 3 }, (_, i) => ({ customer_id: customer, feature_code: 'calls', value: '1', dedup_key: `bulk-${i % 2}`, timestamp: '2026-06-09T00:00:00Z' }));
    expect((await api.post('/v1/track/bulk', { events: bulk }).expect(202)).body).toMatchObject({ object: 'usage_batch', accepted: 3 });
    expect((await summary(sub)).calls).toEqual({ quantity: '1504', events: 4, late_events: 0 });

    const refused = await api.post('/v1/track/bulk', { events: [bulk[0], { ...bulk[0], feature_code: 'seats' }, { ...bulk[0], value: '1e3' }] }).expect(400);
    expect([refused.body.problem, refused.body.errors.map((e: { field: string }) => e.field)]).toEqual(['usage.invalid_quantity', ['events[1].feature_code', 'events[2].value']]);
    const misnamed = await api.post('/v1/track', { customer_id: customer, feature_code: 'calls', value: '1', meter: 'calls', subscription_id: sub }).expect(400);
    expect([misnamed.body.problem, misnamed.body.errors.map((e: { field: string }) => e.field)]).toEqual(['request.invalid_body', ['meter', 'subscription_id']]);
    const unrouted = await api.post('/v1/track', { customer_id: customer, feature_code: 'seats', value: '1' }).expect(409);
    expect([unrouted.body.problem, unrouted.body.errors[0].field]).toEqual(['track.no_subscription', 'feature_code']);

    await api.post('/v1/subscriptions', { customer_id: customer, plan_code: 'metered' }).expect(200);
    await tally.settle();
    expect((await api.post('/v1/track', { customer_id: customer, feature_code: 'calls', value: '1' }).expect(409)).body.problem).toBe('track.ambiguous_subscription');
    expect((await api.post('/v1/track', { customer_id: 'cus_unknown', feature_code: 'calls', value: '1' }).expect(409)).body.problem).toBe('track.no_subscription');
    expect((await summary(sub)).calls.events).toBe(4);
  });

  it('fires a usage alert once a period when the aggregate reaches its threshold', async () => {
    const timeline = await subscribe('2026-06-01T00:00:00.000Z');
    const sub = timeline.subscription;
    await timeline.advance('2026-06-10T00:00:00.000Z');
    const alert = (await api.post('/v1/usage-alerts', { subscription_id: sub, meter: 'calls', threshold: '1000', title: 'Free tier used' }).expect(200)).body;
    expect(alert).toMatchObject({ object: 'usage_alert', subscription_id: sub, meter: 'calls', threshold: '1000', status: 'active', last_triggered: null });
    const crossings = async () => (await api.get(`/v1/events?aggregate_id=${alert.id}&type=subscription.usage_threshold_crossed&sort=created_at:asc`).expect(200)).body.data.map((e: { created_at: string; data: { last_triggered: unknown } }) => [e.created_at, e.data.last_triggered]);

    await api.post('/v1/usage', event(sub, 'calls', '600', '2026-06-09T00:00:00Z')).expect(202);
    await tally.settle();
    expect(await crossings()).toEqual([]);
    await api.post('/v1/usage/batch', { events: [event(sub, 'calls', '400', '2026-06-09T01:00:00Z'), event(sub, 'requests', '1', '2026-06-09T01:00:00Z')] }).expect(202);
    await tally.settle();
    await api.post('/v1/usage', event(sub, 'calls', '100', '2026-06-09T02:00:00Z')).expect(202);
    await tally.settle();
    const june = { period_start: '2026-06-01T00:00:00.000Z', quantity: '1000', triggered_at: '2026-06-10T00:00:00.000Z' };
    expect(await crossings()).toEqual([['2026-06-10T00:00:00.000Z', june]]);

    await timeline.advance('2026-07-05T00:00:00.000Z');
    await api.post('/v1/usage', event(sub, 'calls', '2500', '2026-07-04T00:00:00Z')).expect(202);
    await tally.settle();
    const july = { period_start: '2026-07-01T00:00:00.000Z', quantity: '2500', triggered_at: '2026-07-05T00:00:00.000Z' };
    expect(await crossings()).toEqual([['2026-06-10T00:00:00.000Z', june], ['2026-07-05T00:00:00.000Z', july]]);

    expect((await api.post(`/v1/usage-alerts/${alert.id}/archive`).expect(200)).body.status).toBe('archived');
    expect((await api.get(`/v1/usage-alerts?subscription_id=${sub}`).expect(200)).body.data.map((a: { id: string; status: string }) => [a.id, a.status])).toEqual([[alert.id, 'archived']]);
  });

  it('fires each alert of a subscription that one batch crosses, once, the alerts checked in one step of the reaction', async () => {
    const timeline = await subscribe('2026-06-01T00:00:00.000Z');
    const sub = timeline.subscription;
    await timeline.advance('2026-06-10T00:00:00.000Z');
    const create = async (meter: string, threshold: string) => (await api.post('/v1/usage-alerts', { subscription_id: sub, meter, threshold }).expect(200)).body.id as string;
    const alerts = [await create('calls', '100'), await create('requests', '2'), await create('calls', '5000')];
    const crossings = async () =>
      Promise.all(
        alerts.map(async (id) =>
          (await api.get(`/v1/events?aggregate_id=${id}&type=subscription.usage_threshold_crossed`).expect(200)).body.data.map((e: { data: { last_triggered: { quantity: string } } }) => e.data.last_triggered.quantity),
        ),
      );

    const batch = [event(sub, 'calls', '150', '2026-06-09T00:00:00Z'), event(sub, 'requests', '1', '2026-06-09T00:00:00Z'), event(sub, 'requests', '1', '2026-06-09T00:01:00Z')];
    await api.post('/v1/usage/batch', { events: batch }).expect(202);
    await tally.settle();
    expect(await crossings()).toEqual([['150'], ['2'], []]);

    await api.post('/v1/usage/batch', { events: [event(sub, 'calls', '10', '2026-06-09T01:00:00Z'), event(sub, 'requests', '1', '2026-06-09T01:00:00Z')] }).expect(202);
    await tally.settle();
    expect(await crossings()).toEqual([['150'], ['2'], []]);
    expect((await api.get(`/v1/usage-alerts/${alerts[2]}`).expect(200)).body.last_triggered).toBeNull();
  });

  it('checks an alert against the first batch after its creation, and an archived one no more', async () => {
    const timeline = await subscribe('2026-06-01T00:00:00.000Z');
    const sub = timeline.subscription;
    await timeline.advance('2026-06-10T00:00:00.000Z');
    const alert = (await api.post('/v1/usage-alerts', { subscription_id: sub, meter: 'calls', threshold: '100' }).expect(200)).body as { id: string };
    await api.post('/v1/usage', event(sub, 'calls', '150', '2026-06-09T00:00:00Z')).expect(202);
    await tally.settle();
    const crossings = async () => (await api.get(`/v1/events?aggregate_id=${alert.id}&type=subscription.usage_threshold_crossed`).expect(200)).body.data.map((e: { data: { last_triggered: { period_start: string } } }) => e.data.last_triggered.period_start);
    expect(await crossings()).toEqual(['2026-06-01T00:00:00.000Z']);

    await api.post(`/v1/usage-alerts/${alert.id}/archive`).expect(200);
    await timeline.advance('2026-07-05T00:00:00.000Z');
    await api.post('/v1/usage', event(sub, 'calls', '500', '2026-07-04T00:00:00Z')).expect(202);
    await tally.settle();
    expect(await crossings()).toEqual(['2026-06-01T00:00:00.000Z']);
  });

  it('refuses an alert on a meter the subscription does not bill, or with a threshold that is not above 0', async () => {
    const timeline = await subscribe('2026-06-01T00:00:00.000Z');
    const sub = timeline.subscription;
    const refused = async (body: object, status: number) => (await api.post('/v1/usage-alerts', body).expect(status)).body.problem;
    expect(await refused({ subscription_id: sub, meter: 'seats', threshold: '10' }, 422)).toBe('usage.meter_not_on_subscription');
    expect(await refused({ subscription_id: 'sub_missing', meter: 'calls', threshold: '10' }, 404)).toBe('usage.subscription_not_found');
    expect(await refused({ subscription_id: sub, meter: 'calls', threshold: '0' }, 400)).toBe('usage_alert.invalid_threshold');
    expect(await refused({ subscription_id: sub, meter: 'calls', threshold: '1e3' }, 400)).toBe('request.invalid_body');
    expect((await api.get('/v1/usage-alerts/ualt_missing').expect(404)).body.problem).toBe('usage_alert.not_found');
  });

  describe('late events under rebill', () => {
    const lines = (invoice: InvoiceResource) => invoice.lines.map((line) => [line.code, line.quantity, line.amount, line.period_start]);

    it('voids the unpaid invoice of a period closed less than 24 hours ago and issues a corrected one with the late events', async () => {
      const timeline = await subscribe('2026-06-01T00:00:00.000Z', 'rebilled');
      const sub = timeline.subscription;
      await timeline.advance('2026-06-30T00:00:00.000Z');
      await api.post('/v1/usage', event(sub, 'calls', '1000', '2026-06-29T00:00:00Z')).expect(202);
      await timeline.advance('2026-07-01T12:00:00.000Z');
      const [, july] = await timeline.invoices();
      expect([july.status, july.total, lines(july)]).toEqual(['open', '20.00', [['base', '1', '10.00', '2026-07-01T00:00:00.000Z'], ['calls', '1000', '10.00', '2026-06-01T00:00:00.000Z']]]);

      await api.post('/v1/usage', event(sub, 'calls', '500', '2026-06-30T10:00:00Z')).expect(202);
      expect(await timeline.newEvents()).toEqual([
        ['invoice.voided', '2026-07-01T12:00:00.000Z'],
        ['invoice.created', '2026-07-01T12:00:00.000Z'],
        ['invoice.finalized', '2026-07-01T12:00:00.000Z'],
      ]);
      const [, voided, corrected] = await timeline.invoices();
      expect([voided.id, voided.status]).toEqual([july.id, 'void']);
      expect([corrected.status, corrected.total, lines(corrected)]).toEqual(['open', '25.00', [['base', '1', '10.00', '2026-07-01T00:00:00.000Z'], ['calls', '1500', '15.00', '2026-06-01T00:00:00.000Z']]]);
      expect((await summary(sub, '?period=closed')).calls).toEqual({ quantity: '1500', events: 2, late_events: 0 });
      expect((await summary(sub)).calls).toEqual({ quantity: '0', events: 0, late_events: 0 });
    });

    it('counts them in the next period once the period closed more than 24 hours ago', async () => {
      const timeline = await subscribe('2026-06-01T00:00:00.000Z', 'rebilled');
      const sub = timeline.subscription;
      await timeline.advance('2026-07-02T00:00:01.000Z');
      await timeline.newEvents();
      await api.post('/v1/usage', event(sub, 'calls', '500', '2026-06-30T10:00:00Z')).expect(202);
      expect(await timeline.newEvents()).toEqual([]);
      expect((await summary(sub)).calls).toEqual({ quantity: '500', events: 1, late_events: 1 });
    });

    it('counts them in the next period when the period’s invoice is paid', async () => {
      const timeline = await subscribe('2026-06-01T00:00:00.000Z', 'rebilled', true);
      const sub = timeline.subscription;
      await timeline.advance('2026-07-01T01:00:00.000Z');
      const [, july] = await timeline.invoices();
      expect(july.status).toBe('paid');
      await timeline.newEvents();
      await api.post('/v1/usage', event(sub, 'calls', '500', '2026-06-30T10:00:00Z')).expect(202);
      await tally.settle();
      expect(await timeline.newEvents()).toEqual([]);
      expect((await summary(sub)).calls).toEqual({ quantity: '500', events: 1, late_events: 1 });
      expect((await summary(sub, '?period=closed')).calls).toEqual({ quantity: '0', events: 0, late_events: 0 });
    });
  });
});
