import { createHmac } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hashApiKey } from '@tally/http';
import { ANNOUNCED_EVENT_TYPES } from '@tally/webhooks';
import Stripe from 'stripe';
import { TallyUnderTest, WEBHOOK_TIMEOUT_MS } from './support/tally';
import { settleRetries, WebhookReceiver, type Behaviour, type ReceivedDelivery } from './support/webhook-receiver';
import { CONTEXTS } from '../apps/contexts';

const stripe = new Stripe('sk_test_unused');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
/** Stripe's default tolerance, and the spec's since version 2026-04-01. */
const TOLERANCE_S = 300;

/**
 * Webhooks through the HTTP API, delivered to real receivers on 127.0.0.1: signatures checked by
 * Stripe's own library and by hand, commit order per aggregate under failures, retries on the
 * service's clock, rotation, disabling, replays, and the failure event after the last retry.
 * `tally.settle()` returns once every delivery due on its clock was attempted and recorded, so
 * each test asserts exactly what arrived by then, and moves a clock to bring retries due.
 */
describe('webhooks', () => {
  let tally: TallyUnderTest;
  const receivers: WebhookReceiver[] = [];

  beforeAll(async () => {
    tally = await TallyUnderTest.start();
  });

  afterAll(async () => {
    await tally.stop();
    await Promise.all(receivers.map((receiver) => receiver.stop()));
  });

  /** A tenant of its own per test, so that one test's endpoints never see another's events. */
  async function sandbox() {
    const tenant = await tally.tenant();
    await tally.liftRateLimits(tenant.tenantId);
    return tally.as(tenant.sandbox);
  }

  async function receiver(behaviour?: Behaviour): Promise<WebhookReceiver> {
    const started = await WebhookReceiver.start(behaviour, () => tally.clock.now());
    receivers.push(started);
    return started;
  }

  type Api = Awaited<ReturnType<typeof sandbox>>;

  async function endpoint(api: Api, url: string, events: string[], extra: object = {}): Promise<{ id: string; secret: string }> {
    return (await api.post('/v1/admin/webhook-endpoints', { url, events, ...extra }).expect(200)).body;
  }

  const newCustomer = async (api: Api, email = 'hooks@example.com'): Promise<string> => (await api.post('/v1/customers', { email }).expect(200)).body.id;

  /** Checks a delivery's signature with Stripe's library at the time it arrived, and by the spec's formula. */
  function expectSigned(delivery: ReceivedDelivery, secret: string, header = 'service-signature'): void {
    const value = delivery.headers[header] as string;
    const receivedAt = Math.floor(delivery.at.getTime() / 1000);
    expect(stripe.webhooks.constructEvent(delivery.body, value, secret, TOLERANCE_S, undefined, receivedAt).id).toBe(delivery.event.id);
    const [t, ...signatures] = value.split(',');
    expect(signatures).toContain(`v1=${createHmac('sha256', secret).update(`${t.slice('t='.length)}.${delivery.body}`).digest('hex')}`);
  }

  /** Per aggregate, no event arrived before every earlier one of its aggregate had been acknowledged. */
  function expectCommitOrder(received: readonly ReceivedDelivery[]): void {
    const acknowledged = new Map<string, Set<number>>();
    for (const delivery of received) {
      const { aggregate_id, sequence } = delivery.event;
      const done = acknowledged.get(aggregate_id) ?? new Set<number>();
      acknowledged.set(aggregate_id, done);
      const earlier = received.filter((other) => other.event.aggregate_id === aggregate_id && other.event.sequence < sequence).map((other) => other.event.sequence);
      expect({ event: delivery.event.id, missing: earlier.filter((s) => !done.has(s)) }).toEqual({ event: delivery.event.id, missing: [] });
      if (delivery.answered !== 'nothing' && delivery.answered < 300) done.add(sequence);
    }
  }

  type PendingDelivery = { attempt_count: number; next_attempt_at: string | null };
  const pendingOf = async (api: Api, endpointId: string): Promise<PendingDelivery[]> =>
    (await api.get(`/v1/admin/webhook-endpoints/${endpointId}/deliveries?status=pending&limit=100`).expect(200)).body.data;

  it('delivers every event once, signed, and shows the secret only at creation', async () => {
    const api = await sandbox();
    const hooks = await receiver();
    const created = await endpoint(api, hooks.url, ['customer.*']);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
    expect((await api.get(`/v1/admin/webhook-endpoints/${created.id}`).expect(200)).body).not.toHaveProperty('secret');
    expect((await api.get('/v1/admin/webhook-endpoints').expect(200)).body.data[0]).not.toHaveProperty('secret');

    const customer = await newCustomer(api);
    tally.clock.advance(1000);
    await api.patch(`/v1/customers/${customer}`, { name: 'Ada' }).expect(200);
    await tally.settle();

    expect(hooks.received).toHaveLength(2);
    const [first, second] = hooks.acknowledged;
    expect([first.event.type, second.event.type]).toEqual(['customer.created', 'customer.updated']);
    expect(first.event).toMatchObject({ object: 'event', aggregate_type: 'customer', aggregate_id: customer, schema_version: 1, data: { id: customer, email: 'hooks@example.com' } });
    expect(first.event.occurred_at).toMatch(/\.\d{3}Z$/);
    expect(second.event.previous_attributes).toEqual({ name: null, updated_at: first.event.data.updated_at });
    for (const delivery of [first, second]) {
      expectSigned(delivery, created.secret);
      expect(delivery.headers['content-type']).toBe('application/json');
      expect(delivery.headers['service-event-id']).toBe(delivery.event.id);
      expect(delivery.headers['service-event-type']).toBe(delivery.event.type);
      expect(delivery.headers['service-delivery-id']).toMatch(/^del_/);
    }
    const logged = (await api.get(`/v1/events/${first.event.id}`).expect(200)).body;
    expect(JSON.parse(first.body)).toEqual({ ...logged });
  });

  it('keeps commit order per aggregate through failures, slow answers and a timeout, and delivers everything', async () => {
    const api = await sandbox();
    let requests = 0;
    // Every third request fails, some are slow, and the 5th one gets no answer (cut off after WEBHOOK_TIMEOUT_MS).
    const flaky = await receiver(() => {
      requests++;
      if (requests === 5) return 'hang';
      if (requests % 10 < 3) return { status: 503, delayMs: requests % 2 === 0 ? 30 : 0 };
      return { status: 200, delayMs: requests % 4 === 0 ? 40 : 0 };
    });
    const { id: endpointId, secret } = await endpoint(api, flaky.url, ['customer.created', 'customer.updated']);
    const customers = await Promise.all(Array.from({ length: 5 }, (_, n) => newCustomer(api, `c${n}@example.com`)));
    for (let round = 1; round <= 4; round++) {
      await Promise.all(customers.map((customer) => api.patch(`/v1/customers/${customer}`, { name: `round ${round}` }).expect(200)));
    }
    const events = customers.length * 5;
    // The unanswered attempt is cut off, then retried 5 s later on the service's clock, as the failed ones are.
    await settleRetries(tally, api, endpointId);

    expect(new Set(flaky.acknowledged.map((delivery) => delivery.event.id)).size).toBe(events);
    expect(flaky.received.length).toBeGreaterThan(events);
    const [unanswered, ...more] = flaky.received.filter((delivery) => delivery.answered === 'nothing');
    expect(more).toEqual([]);
    const unansweredRecord = (await api.get(`/v1/admin/webhook-endpoints/${endpointId}/deliveries?limit=100`).expect(200)).body.data.find((record: { event_id: string }) => record.event_id === unanswered.event.id);
    expect(unansweredRecord.attempts.filter((attempt: { error: string | null }) => attempt.error === 'timeout')).toHaveLength(1);
    expect(unanswered.cutOffMs! - unanswered.arrivedMs).toBeLessThan(WEBHOOK_TIMEOUT_MS + 1_000);
    expectCommitOrder(flaky.received);
    for (const delivery of flaky.acknowledged) expectSigned(delivery, secret);
    const perAggregate = customers.map((customer) => flaky.acknowledged.filter((delivery) => delivery.event.aggregate_id === customer).map((delivery) => delivery.event.data.name));
    expect(perAggregate).toEqual(customers.map(() => [null, 'round 1', 'round 2', 'round 3', 'round 4']));
  });

  it('never lets a receiver that stalls on one aggregate delay its other aggregates or the other endpoints', async () => {
    const api = await sandbox();
    const slow = await receiver((delivery) => (delivery.event.data.email === 'stalled@example.com' ? 'hang' : { status: 200 }));
    const other = await receiver();
    await endpoint(api, slow.url, ['customer.*']);
    await endpoint(api, other.url, ['customer.*']);
    const stalled = await newCustomer(api, 'stalled@example.com');
    await api.patch(`/v1/customers/${stalled}`, { name: 'Waits' }).expect(200);
    const flowing = await Promise.all([1, 2, 3].map((n) => newCustomer(api, `flowing${n}@example.com`)));
    // Settling waits until the stalled attempt is cut off (its retry is not due on the unmoved clock).
    await tally.settle();

    expect(slow.acknowledged).toHaveLength(3);
    expect(other.acknowledged).toHaveLength(5);
    const [stall] = slow.received.filter((delivery) => delivery.answered === 'nothing');
    for (const delivery of [...slow.acknowledged, ...other.acknowledged]) expect(delivery.arrivedMs).toBeLessThan(stall.cutOffMs!);
    expect(new Set(slow.acknowledged.map((delivery) => delivery.event.aggregate_id))).toEqual(new Set(flowing));
    // The stalled aggregate's update waits behind its creation, whose retry is not due yet.
    expect(slow.received.filter((delivery) => delivery.event.aggregate_id === stalled).map((delivery) => delivery.event.type)).toEqual(['customer.created']);
    await slow.stop();
  });

  it('lists each delivery with its body, every attempt and the last answer, filtered and paginated', async () => {
    const api = await sandbox();
    let calls = 0;
    const once = await receiver(() => (++calls === 1 ? { status: 500 } : { status: 200 }));
    const { id } = await endpoint(api, once.url, ['customer.created']);
    const customer = await newCustomer(api);
    await newCustomer(api, 'second@example.com');
    expect(await settleRetries(tally, api, id)).toBe(1);
    expect(once.received.map((delivery) => delivery.answered)).toEqual([500, 200, 200]);
    expect(once.acknowledged).toHaveLength(2);

    const listed = (await api.get(`/v1/admin/webhook-endpoints/${id}/deliveries?limit=1`).expect(200)).body;
    expect(listed.has_more).toBe(true);
    const next = (await api.get(`/v1/admin/webhook-endpoints/${id}/deliveries?limit=1&cursor=${listed.next_cursor}`).expect(200)).body;
    expect(next.has_more).toBe(false);
    const all = [...listed.data, ...next.data];
    const retried = all.find((delivery) => delivery.aggregate_id === customer);
    expect(retried).toMatchObject({ object: 'webhook_delivery', webhook_endpoint_id: id, event_type: 'customer.created', status: 'succeeded', attempt_count: 2, response_status: 200, response_body: 'ok', next_attempt_at: null });
    expect(retried.attempts.map((attempt: { response_status: number }) => attempt.response_status)).toEqual([500, 200]);
    expect(retried.attempts[0].duration_ms).toEqual(expect.any(Number));
    expect(retried.request.body).toBe(once.acknowledged.find((delivery) => delivery.event.aggregate_id === customer)!.body);

    const failedFirst = (await api.get(`/v1/admin/webhook-endpoints/${id}/deliveries?status=succeeded&event_type=customer.created&created_at[gte]=2026-01-01`).expect(200)).body;
    expect(failedFirst.data).toHaveLength(2);
    expect((await api.get(`/v1/admin/webhook-endpoints/${id}/deliveries?status=failed`).expect(200)).body.data).toEqual([]);
    await api.get(`/v1/admin/webhook-endpoints/${id}/deliveries?colour=red`).expect(400);
    await api.get('/v1/admin/webhook-endpoints/we_missing/deliveries').expect(404);
  });

  it('signs with both secrets while a rotated one overlaps, then with the new one alone', async () => {
    const api = await sandbox();
    const hooks = await receiver();
    const { id, secret: old } = await endpoint(api, hooks.url, ['customer.*']);
    const rotated = (await api.post(`/v1/admin/webhook-endpoints/${id}/rotate-secret`, { expires_in: 3600 }).expect(200)).body;
    expect(rotated.secret).not.toBe(old);
    expect(rotated.secret_rotated_at).toBe(tally.clock.now().toISOString());

    await newCustomer(api);
    await tally.settle();
    expect(hooks.received).toHaveLength(1);
    const during = hooks.acknowledged[0];
    expect((during.headers['service-signature'] as string).split(',').filter((part) => part.startsWith('v1='))).toHaveLength(2);
    expectSigned(during, old);
    expectSigned(during, rotated.secret);

    tally.clock.advance(HOUR + 1000);
    await newCustomer(api, 'later@example.com');
    await tally.settle();
    expect(hooks.received).toHaveLength(2);
    const after = hooks.acknowledged[1];
    expect((after.headers['service-signature'] as string).split(',')).toHaveLength(2);
    expectSigned(after, rotated.secret);
    expect(() => stripe.webhooks.constructEvent(after.body, after.headers['service-signature'] as string, old, TOLERANCE_S, undefined, Math.floor(after.at.getTime() / 1000))).toThrow();
  });

  it('seals signing secrets at rest and never shows one again, nor a key’s hash, while deliveries still verify after rotations', async () => {
    const tenant = await tally.tenant();
    await tally.liftRateLimits(tenant.tenantId);
    const api = tally.as(tenant.sandbox);
    const hooks = await receiver();
    const created = await endpoint(api, hooks.url, ['customer.*']);
    const overlapping = (await api.post(`/v1/admin/webhook-endpoints/${created.id}/rotate-secret`, { expires_in: 3600 }).expect(200)).body.secret as string;
    await newCustomer(api);
    await tally.settle();
    expect(hooks.received).toHaveLength(1);
    expectSigned(hooks.acknowledged[0], created.secret);
    expectSigned(hooks.acknowledged[0], overlapping);
    const last = (await api.post(`/v1/admin/webhook-endpoints/${created.id}/rotate-secret`).expect(200)).body.secret as string;
    await newCustomer(api);
    await tally.settle();
    expect(hooks.received).toHaveLength(2);
    expectSigned(hooks.acknowledged[1], last);
    expect(() => expectSigned(hooks.acknowledged[1], overlapping)).toThrow();

    const secrets = [created.secret, overlapping, last];
    const history = (await api.get(`/v1/admin/aggregates/${created.id}/history`).expect(200)).body;
    expect(history.data.filter((event: { data: { secret?: string } }) => event.data.secret !== undefined).map((event: { data: { secret: string } }) => event.data.secret)).toEqual(['[redacted]', '[redacted]', '[redacted]']);
    const events = (await api.get('/v1/events?limit=100').expect(200)).body;
    const endpoints = (await api.get('/v1/admin/webhook-endpoints').expect(200)).body;
    const deliveries = (await api.get(`/v1/admin/webhook-endpoints/${created.id}/deliveries`).expect(200)).body;
    for (const shown of [history, events, endpoints, deliveries]) for (const secret of secrets) expect(JSON.stringify(shown)).not.toContain(secret);
    // At rest: the region's files (events, read models, idempotency records) hold none of them.
    const stored = Buffer.concat(readdirSync(tally.dataDir).filter((file) => file.startsWith('eu.sqlite')).map((file) => readFileSync(join(tally.dataDir, file))));
    expect(stored.includes(created.id)).toBe(true);
    for (const secret of secrets) expect({ secret, stored: stored.includes(secret) }).toEqual({ secret, stored: false });

    const tenantHistory = (await tally.as(tenant.live).get(`/v1/admin/aggregates/${tenant.tenantId}/history`).expect(200)).body;
    const keysCreated = tenantHistory.data.filter((event: { type: string }) => event.type === 'ApiKeyCreated');
    expect(keysCreated.map((event: { data: object }) => event.data)).toEqual([
      expect.objectContaining({ key_hash: '[redacted]', last4: tenant.live.slice(-4) }),
      expect.objectContaining({ key_hash: '[redacted]', last4: tenant.sandbox.slice(-4) }),
    ]);
    for (const key of [tenant.live, tenant.sandbox]) expect(JSON.stringify(tenantHistory)).not.toContain(hashApiKey(key));
  });

  it('sends a disabled endpoint nothing new, and resumes with the events after it is enabled again', async () => {
    const api = await sandbox();
    const hooks = await receiver();
    const witness = await receiver();
    const { id } = await endpoint(api, hooks.url, ['customer.created']);
    await endpoint(api, witness.url, ['customer.created']);
    expect((await api.patch(`/v1/admin/webhook-endpoints/${id}`, { status: 'disabled' }).expect(200)).body.status).toBe('disabled');
    const whileDisabled = await newCustomer(api, 'quiet@example.com');
    await tally.settle();
    expect(witness.acknowledged).toHaveLength(1);
    expect(hooks.received).toEqual([]);

    await api.patch(`/v1/admin/webhook-endpoints/${id}`, { status: 'enabled' }).expect(200);
    const afterwards = await newCustomer(api, 'loud@example.com');
    await tally.settle();
    expect(hooks.received.map((delivery) => delivery.event.aggregate_id)).toEqual([afterwards]);
    expect(witness.acknowledged.map((delivery) => delivery.event.aggregate_id)).toEqual([whileDisabled, afterwards]);
  });

  it('attempts nothing more for a deleted endpoint, its retries included, while the others go on', async () => {
    const api = await sandbox();
    const failing = await receiver(() => ({ status: 500 }));
    const witness = await receiver();
    const { id } = await endpoint(api, failing.url, ['customer.created']);
    await endpoint(api, witness.url, ['customer.created']);
    await newCustomer(api, 'first@example.com');
    await tally.settle();
    expect([failing.received.length, witness.acknowledged.length]).toEqual([1, 1]);
    const [{ next_attempt_at: retryAt }] = await pendingOf(api, id);
    expect(retryAt).not.toBeNull();

    // Settled after the deletion, the dispatcher has passed it: a retry that fell due before then would still be made, as an attempt under way finishes.
    await api.delete(`/v1/admin/webhook-endpoints/${id}`).expect(200);
    await tally.settle();
    tally.clock.set(new Date(Date.parse(retryAt!) + 1000).toISOString());
    const second = await newCustomer(api, 'second@example.com');
    await tally.settle();

    expect(failing.received).toHaveLength(1);
    expect(witness.acknowledged.map((delivery) => delivery.event.aggregate_id)).toEqual([expect.any(String), second]);
  });

  it('replays a window in commit order per aggregate with the same event ids, and retries one delivery', async () => {
    const api = await sandbox();
    const hooks = await receiver();
    const { id } = await endpoint(api, hooks.url, ['customer.*']);
    const from = tally.clock.now().toISOString();
    const customers = [await newCustomer(api, 'a@example.com'), await newCustomer(api, 'b@example.com')];
    for (const customer of customers) await api.patch(`/v1/customers/${customer}`, { name: 'Grace' }).expect(200);
    await tally.settle();
    expect(hooks.received).toHaveLength(4);
    tally.clock.advance(1000);

    const replay = (await api.post(`/v1/admin/webhook-endpoints/${id}/replay`, { from, to: tally.clock.now().toISOString(), types: ['customer.created', 'customer.updated'] }).expect(202)).body;
    expect(replay).toMatchObject({ object: 'webhook_replay', webhook_endpoint_id: id, deliveries: 4 });
    await tally.settle();
    expect(hooks.received).toHaveLength(8);
    const replayed = hooks.acknowledged.slice(4);
    expect(new Set(replayed.map((delivery) => delivery.event.id))).toEqual(new Set(hooks.acknowledged.slice(0, 4).map((delivery) => delivery.event.id)));
    expectCommitOrder(replayed);

    const only = (await api.post(`/v1/admin/webhook-endpoints/${id}/replay`, { from, to: tally.clock.now().toISOString(), types: ['customer.updated'] }).expect(202)).body;
    expect(only.deliveries).toBe(2);
    await tally.settle();
    expect(hooks.received).toHaveLength(10);

    const [delivery] = (await api.get(`/v1/admin/webhook-endpoints/${id}/deliveries?event_type=customer.created&limit=1`).expect(200)).body.data;
    const retried = (await api.post(`/v1/admin/webhook-endpoints/${id}/deliveries/${delivery.id}/retry`).expect(202)).body;
    expect(retried).toMatchObject({ id: delivery.id, event_id: delivery.event_id, status: 'pending' });
    await tally.settle();
    expect(hooks.received).toHaveLength(11);
    expect(hooks.acknowledged[10].event.id).toBe(delivery.event_id);
    expect(hooks.acknowledged[10].headers['service-delivery-id']).toBe(delivery.id);
  });

  it('gives up after 24 hours of retries, then emits webhook_endpoint.delivery_failed to the other endpoints', async () => {
    const api = await sandbox();
    const broken = await receiver(() => ({ status: 500 }));
    const watcher = await receiver();
    const failing = await endpoint(api, broken.url, ['*']);
    await endpoint(api, watcher.url, ['webhook_endpoint.*']);
    const customer = await newCustomer(api);
    await tally.settle();
    expect(broken.received).toHaveLength(1);
    const firstAt = broken.received[0].at.getTime();

    // Each time the record shows the next attempt's time, the clock moves there.
    for (let attempt = 1; attempt < 8; attempt++) {
      const [pending] = await pendingOf(api, failing.id);
      expect(pending.attempt_count).toBe(attempt);
      tally.clock.set(pending.next_attempt_at!);
      await tally.settle();
    }
    expect(watcher.acknowledged).toHaveLength(1);
    const gaps = broken.received.slice(1).map((delivery, n) => delivery.at.getTime() - broken.received[n].at.getTime());
    const schedule = [5_000, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR];
    gaps.slice(0, -1).forEach((gap, n) => expect(Math.abs(gap - schedule[n])).toBeLessThanOrEqual(schedule[n] / 10));
    expect(broken.received).toHaveLength(8);
    expect(broken.received[7].at.getTime() - firstAt).toBe(24 * HOUR);

    const failure = watcher.acknowledged[0].event;
    expect(failure).toMatchObject({ type: 'webhook_endpoint.delivery_failed', aggregate_type: 'webhook_endpoint', aggregate_id: failing.id });
    expect(failure.data).toMatchObject({ id: failing.id, last_failed_delivery: { event_id: broken.received[0].event.id, event_type: 'customer.created', attempts: 8 } });
    expect(broken.received.every((delivery) => delivery.event.aggregate_id === customer)).toBe(true);
    const [record] = (await api.get(`/v1/admin/webhook-endpoints/${failing.id}/deliveries?status=failed`).expect(200)).body.data;
    expect(record).toMatchObject({ attempt_count: 8, response_status: 500, next_attempt_at: null });
    expect((await api.get(`/v1/events?type=webhook_endpoint.delivery_failed`).expect(200)).body.data).toHaveLength(1);
  });

  it('retries the events of a resource on a test clock when that clock advances, not the system clock', async () => {
    const api = await sandbox();
    let calls = 0;
    const once = await receiver(() => (++calls === 1 ? { status: 500 } : { status: 200 }));
    const { id } = await endpoint(api, once.url, ['customer.created']);
    const start = '2027-01-01T00:00:00.000Z';
    const clock = (await api.post('/v1/test-clocks', { frozen_time: start }).expect(200)).body.id;
    await api.post('/v1/customers', { email: 'clocked@example.com', test_clock: clock }).expect(200);
    await tally.settle();
    expect(once.received).toHaveLength(1);
    const [delivery] = (await api.get(`/v1/admin/webhook-endpoints/${id}/deliveries`).expect(200)).body.data;
    expect(delivery.attempts[0].attempted_at).toBe(start);
    expect(Date.parse(delivery.next_attempt_at) - Date.parse(start)).toBeLessThanOrEqual(5_500);

    expect(delivery.attempt_count).toBe(1);
    tally.clock.advance(HOUR);
    await tally.settle();
    expect(once.received).toHaveLength(1);

    await api.post(`/v1/test-clocks/${clock}/advance`, { frozen_time: '2027-01-01T00:00:06.000Z' }).expect(200);
    await tally.settle();
    expect(once.received.map((received) => received.answered)).toEqual([500, 200]);
  });

  it('makes every attempt a test clock’s advance passes, each at its own time and in order: 25 hours in one go bring all eight, then the failure event', async () => {
    const api = await sandbox();
    const broken = await receiver(() => ({ status: 503 }));
    const watcher = await receiver();
    const failing = await endpoint(api, broken.url, ['customer.*']);
    await endpoint(api, watcher.url, ['webhook_endpoint.delivery_failed']);
    const start = '2027-02-01T00:00:00.000Z';
    const clock = (await api.post('/v1/test-clocks', { frozen_time: start }).expect(200)).body.id;
    await api.post('/v1/customers', { email: 'retried@example.com', test_clock: clock }).expect(200);
    // Whether the first attempt is made before the advance or during it, it is made at the event's time.
    await api.post(`/v1/test-clocks/${clock}/advance`, { frozen_time: new Date(Date.parse(start) + 25 * HOUR).toISOString() }).expect(200);

    await tally.settle();
    expect(watcher.acknowledged).toHaveLength(1);
    expect(broken.received).toHaveLength(8);
    const [record] = (await api.get(`/v1/admin/webhook-endpoints/${failing.id}/deliveries`).expect(200)).body.data;
    expect(record).toMatchObject({ status: 'failed', attempt_count: 8, next_attempt_at: null });
    const times = (record.attempts as { attempted_at: string }[]).map((attempt) => Date.parse(attempt.attempted_at));
    expect(times[0]).toBe(Date.parse(start));
    const schedule = [5_000, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR];
    schedule.forEach((pause, n) => expect(Math.abs(times[n + 1] - times[n] - pause)).toBeLessThanOrEqual(pause / 10));
    expect(times[7] - times[0]).toBe(24 * HOUR);
    expect(watcher.acknowledged[0].event.data).toMatchObject({ id: failing.id, last_failed_delivery: { id: record.id, attempts: 8, failed_at: new Date(times[7]).toISOString() } });
  });

  it('numbers an aggregate’s published events without gaps: renewals, which publish nothing, take no number', async () => {
    const api = await sandbox();
    const hooks = await receiver();
    await endpoint(api, hooks.url, ['subscription.*']);
    await api.post('/v1/plans', { code: 'monthly', product_code: 'monthly', currency: 'EUR', interval: 'month', interval_count: 1, components: [{ code: 'base', pricing: { model: 'flat', amount: '31.00' } }] }).expect(200);
    const clock = (await api.post('/v1/test-clocks', { frozen_time: '2027-01-05T00:00:00.000Z' }).expect(200)).body.id;
    const customer = (await api.post('/v1/customers', { email: 'renewals@example.com', test_clock: clock }).expect(200)).body.id;
    const subscription = (await api.post('/v1/subscriptions', { customer_id: customer, plan_code: 'monthly' }).expect(200)).body.id;
    await api.post(`/v1/test-clocks/${clock}/advance`, { frozen_time: '2027-03-10T00:00:00.000Z' }).expect(200);
    await tally.settle();
    await api.patch(`/v1/subscriptions/${subscription}`, { metadata: { renewed: 'twice' } }).expect(200);
    await tally.settle();

    const stored = (await api.get(`/v1/admin/aggregates/${subscription}/history?limit=100`).expect(200)).body.data as { type: string }[];
    expect(stored.filter((event) => event.type === 'SubscriptionRenewed')).toHaveLength(2);
    const published = (await api.get(`/v1/events?aggregate_id=${subscription}&sort=created_at:asc&limit=100`).expect(200)).body.data as { type: string; sequence: number }[];
    expect(published.length).toBeLessThan(stored.length);
    expect(published.map((event) => event.sequence)).toEqual(published.map((_, index) => index + 1));
    expect(published.at(-1)).toMatchObject({ type: 'subscription.updated', sequence: published.length });
    expect(hooks.received).toHaveLength(published.length);
    expect(hooks.acknowledged.map((delivery) => delivery.event.sequence)).toEqual(published.map((event) => event.sequence));
  });

  it('renders deliveries in the endpoint’s API version, with the old signature header before 2025-04-01', async () => {
    const api = await sandbox();
    const hooks = await receiver();
    const { secret } = await endpoint(api, hooks.url, ['customer.created'], { api_version: '2024-10-01' });
    await newCustomer(api);
    await tally.settle();
    expect(hooks.received).toHaveLength(1);
    expect(hooks.acknowledged[0].headers).not.toHaveProperty('service-signature');
    expectSigned(hooks.acknowledged[0], secret, 'x-service-signature');
  });

  it('keeps delivery records 90 days', async () => {
    const api = await sandbox();
    const hooks = await receiver();
    const { id } = await endpoint(api, hooks.url, ['customer.created']);
    await newCustomer(api);
    const records = async () => {
      await tally.settle();
      return (await api.get(`/v1/admin/webhook-endpoints/${id}/deliveries`).expect(200)).body.data as { status: string }[];
    };
    expect((await records()).map((record) => record.status)).toEqual(['succeeded']);
    tally.clock.advance(89 * 24 * HOUR);
    expect(await records()).toHaveLength(1);
    tally.clock.advance(2 * 24 * HOUR);
    expect(await records()).toEqual([]);
  });

  it('subscribes to the spec’s `service.*` family of platform notices, of which no type exists yet', async () => {
    const api = await sandbox();
    const hooks = await receiver();
    const notices = await endpoint(api, hooks.url, ['service.*']);
    expect((await api.get(`/v1/admin/webhook-endpoints/${notices.id}`).expect(200)).body.events).toEqual(['service.*']);
    const both = await endpoint(api, hooks.url, ['service.*', 'customer.created']);
    await newCustomer(api);
    await tally.settle();
    expect((await api.get(`/v1/admin/webhook-endpoints/${notices.id}/deliveries`).expect(200)).body.data).toEqual([]);
    expect(hooks.acknowledged.map((delivery) => delivery.event.type)).toEqual(['customer.created']);
    expect((await api.get(`/v1/admin/webhook-endpoints/${both.id}/deliveries`).expect(200)).body.data).toHaveLength(1);
    const refused = (await api.post('/v1/admin/webhook-endpoints', { url: hooks.url, events: ['service.outage'] }).expect(400)).body;
    expect(refused).toMatchObject({ problem: 'webhook_endpoint.unknown_event_type', errors: [{ field: 'events[0]' }] });
  });

  it('takes every type the contexts declare and the spec’s announced ones, in an endpoint, its deliveries’ filter and a replay, and no other', async () => {
    const api = await sandbox();
    const types = [...CONTEXTS.publicEventTypes];
    expect(types).toEqual(expect.arrayContaining(['customer.created', 'plan.archived', 'subscription.usage_threshold_crossed', 'webhook_endpoint.delivery_failed', ...ANNOUNCED_EVENT_TYPES]));
    const { id } = await endpoint(api, 'https://example.com/hooks', types);
    const to = tally.clock.now().toISOString();
    const from = new Date(tally.clock.now().getTime() - HOUR).toISOString();
    for (const type of ['wallet.credited', 'tax.settings.updated']) {
      expect((await api.get(`/v1/admin/webhook-endpoints/${id}/deliveries?event_type=${type}`).expect(200)).body.data).toEqual([]);
      expect((await api.post(`/v1/admin/webhook-endpoints/${id}/replay`, { from, to, types: [type] }).expect(202)).body.deliveries).toBe(0);
    }
    expect((await api.get(`/v1/admin/webhook-endpoints/${id}/deliveries?event_type=wallet.exploded`).expect(400)).body.problem).toBe('request.invalid_parameter');
    expect((await api.post(`/v1/admin/webhook-endpoints/${id}/replay`, { from, to, types: ['wallet.exploded'] }).expect(400)).body.problem).toBe('webhook_endpoint.unknown_event_type');
    expect((await api.patch(`/v1/admin/webhook-endpoints/${id}`, { events: ['wallet.exploded'] }).expect(400)).body.problem).toBe('webhook_endpoint.unknown_event_type');
  });

  describe('refuses bad input with a problem and writes nothing', () => {
    it.each([
      ['an unknown event type', { url: 'https://example.com/hooks', events: ['customer.created', 'customer.exploded'] }, 'webhook_endpoint.unknown_event_type', 'events[1]'],
      ['an unknown category', { url: 'https://example.com/hooks', events: ['charges.*'] }, 'webhook_endpoint.unknown_event_type', 'events[0]'],
      ['http to another host in sandbox', { url: 'http://example.com/hooks', events: ['*'] }, 'webhook_endpoint.invalid_url', 'url'],
      ['a URL with credentials', { url: 'https://user:secret@example.com/hooks', events: ['*'] }, 'webhook_endpoint.invalid_url', 'url'],
      ['no events', { url: 'https://example.com/hooks', events: [] }, 'request.invalid_body', 'events'],
      ['no url', { events: ['*'] }, 'request.invalid_body', 'url'],
      ['an unknown API version', { url: 'https://example.com/hooks', events: ['*'], api_version: '2023-01-01' }, 'request.invalid_body', 'api_version'],
    ])('%s', async (_case, body, code, field) => {
      const api = await sandbox();
      const refused = await api.post('/v1/admin/webhook-endpoints', body).expect(400);
      expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(refused.body.problem).toBe(code);
      expect(refused.body.errors.map((error: { field: string }) => error.field)).toContain(field);
      expect((await api.get('/v1/admin/webhook-endpoints').expect(200)).body.data).toEqual([]);
    });

    it('takes only https in live mode', async () => {
      const tenant = await tally.tenant();
      const live = tally.as(tenant.live);
      expect((await live.post('/v1/admin/webhook-endpoints', { url: 'http://127.0.0.1:9/hooks', events: ['*'] }).expect(400)).body.problem).toBe('webhook_endpoint.invalid_url');
      expect((await live.post('/v1/admin/webhook-endpoints', { url: 'https://example.com/hooks', events: ['*'] }).expect(200)).body.livemode).toBe(true);
    });

    it('answers 404 for another tenant’s endpoint and refuses bad replay windows and retries', async () => {
      const api = await sandbox();
      const other = await sandbox();
      const { id } = await endpoint(api, 'https://example.com/hooks', ['*']);
      await other.get(`/v1/admin/webhook-endpoints/${id}`).expect(404);
      await other.patch(`/v1/admin/webhook-endpoints/${id}`, { status: 'disabled' }).expect(404);
      await other.delete(`/v1/admin/webhook-endpoints/${id}`).expect(404);
      const week = (await api.post(`/v1/admin/webhook-endpoints/${id}/replay`, { from: '2026-04-01T00:00:00Z', to: '2026-04-09T00:00:00Z' }).expect(400)).body;
      expect(week.problem).toBe('webhook_endpoint.invalid_replay_window');
      await api.post(`/v1/admin/webhook-endpoints/${id}/replay`, { from: '2026-04-02T00:00:00Z', to: '2026-04-01T00:00:00Z' }).expect(400);
      await api.post(`/v1/admin/webhook-endpoints/${id}/replay`, { from: '2026-04-01T00:00:00Z', to: '2026-04-02T00:00:00Z', types: ['nope.nope'] }).expect(400);
      await api.post(`/v1/admin/webhook-endpoints/${id}/replay`, { from: 'yesterday', to: '2026-04-02T00:00:00Z' }).expect(400);
      await api.post(`/v1/admin/webhook-endpoints/${id}/deliveries/del_missing/retry`).expect(404);
      await api.patch(`/v1/admin/webhook-endpoints/${id}`, { events: ['nope'] }).expect(400);
      expect((await api.get(`/v1/admin/webhook-endpoints/${id}`).expect(200)).body).toMatchObject({ events: ['*'], status: 'enabled' });
      expect((await api.delete(`/v1/admin/webhook-endpoints/${id}`).expect(200)).body).toEqual({ id, object: 'webhook_endpoint', deleted: true });
      await api.get(`/v1/admin/webhook-endpoints/${id}`).expect(404);
    });
  });
});
