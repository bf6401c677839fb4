import type { Response } from 'supertest';
import { ERRORS_BASE_URL } from '@tally/http';
import { TallyUnderTest, type TestTenant } from './support/tally';

/**
 * Sandbox limits per second: reads 100, writes 20, admin 5; a bucket holds a burst of twice that.
 * The clock stands still unless a test moves it, so every request of a test falls in one instant.
 */
describe('rate limits through the HTTP API', () => {
  let tally: TallyUnderTest;
  let tenants = 0;

  beforeAll(async () => {
    tally = await TallyUnderTest.start();
  });

  afterAll(() => tally.stop());

  const newTenant = (): Promise<TestTenant> => tally.tenant(`Tenant ${++tenants}`, 'eu');
  const nowSeconds = () => tally.clock.now().getTime() / 1000;
  const headersOf = (response: Response) => ({
    limit: Number(response.headers['x-ratelimit-limit']),
    remaining: Number(response.headers['x-ratelimit-remaining']),
    reset: Number(response.headers['x-ratelimit-reset']),
  });

  /** Sends `count` requests, a few at a time, and answers their statuses. */
  async function send(count: number, request: () => PromiseLike<Response>): Promise<number[]> {
    const statuses: number[] = [];
    for (let sent = 0; sent < count; sent += 10) {
      const batch = await Promise.all(Array.from({ length: Math.min(10, count - sent) }, () => request()));
      statuses.push(...batch.map((r) => r.status));
    }
    return statuses;
  }

  const readAuditLog = (key: string) => tally.as(key).get('/v1/admin/audit-log');

  it('sets the three headers on successes and errors alike', async () => {
    const acme = await newTenant();
    const api = tally.as(acme.sandbox);
    const listed = await api.get('/v1/customers').expect(200);
    expect(headersOf(listed)).toEqual({ limit: 200, remaining: 199, reset: nowSeconds() + 1 });
    const missing = await api.get('/v1/customers/cus_01JNOPE000000000000000000').expect(404);
    expect(headersOf(missing)).toEqual({ limit: 200, remaining: 198, reset: nowSeconds() + 1 });
    const invalid = await api.post('/v1/customers', { email: 42 }).expect(400);
    expect(headersOf(invalid)).toEqual({ limit: 40, remaining: 39, reset: nowSeconds() + 1 });
    expect(invalid.headers['retry-after']).toBeUndefined();
  });

  it('counts and marks the answers given before any route runs: an unknown route, a wrong method, a body it cannot read', async () => {
    const acme = await newTenant();
    const api = tally.as(acme.sandbox);
    const reset = nowSeconds() + 1;
    const unknown = await api.get('/v1/nothing-here').expect(404);
    expect(unknown.body.problem).toBe('route.not_found');
    expect(headersOf(unknown)).toEqual({ limit: 200, remaining: 199, reset });
    const wrongMethod = await api.delete('/v1/customers').expect(405);
    expect(headersOf(wrongMethod)).toEqual({ limit: 40, remaining: 39, reset });
    const malformed = await api.post('/v1/customers').set('Content-Type', 'application/json').send('{"email":').expect(400);
    expect(malformed.body.problem).toBe('request.malformed_json');
    expect(headersOf(malformed)).toEqual({ limit: 40, remaining: 38, reset });
    const utf16 = await api.post('/v1/customers').set('Content-Type', 'application/json; charset=utf-16').send('{}').expect(415);
    expect(headersOf(utf16)).toEqual({ limit: 40, remaining: 37, reset });
    const badVersion = await api.get('/v1/customers').set('Service-Version', '1999-01-01').expect(400);
    expect(badVersion.body.problem).toBe('api_version.unknown');
    expect(headersOf(badVersion)).toEqual({ limit: 200, remaining: 198, reset });
    expect(headersOf(await api.get('/v1/admin/nothing-here').expect(404))).toEqual({ limit: 10, remaining: 9, reset });
  });

  it('answers an unknown route past the budget with 429, and one without a valid key with a plain 404 that counts nowhere', async () => {
    const acme = await newTenant();
    await send(10, () => readAuditLog(acme.sandbox));
    const refused = await tally.as(acme.sandbox).get('/v1/admin/nothing-here').expect(429);
    expect(refused.body.problem).toBe('rate_limit.exceeded');
    expect(refused.headers['retry-after']).toBe('1');
    for (const anonymous of [tally.http().get('/v1/nothing-here'), tally.as('sk_test_not-a-key').get('/v1/nothing-here')]) {
      const response = await anonymous.expect(404);
      expect(response.headers['x-ratelimit-limit']).toBeUndefined();
    }
  });

  it('refuses a sandbox tenant past its read budget with a 429 problem, and admits it again once the window slides', async () => {
    const acme = await newTenant();
    const api = tally.as(acme.sandbox);
    expect(new Set(await send(200, () => api.get('/v1/customers')))).toEqual(new Set([200]));

    tally.clock.advance(250);
    const refused = await api.get('/v1/customers').expect(429);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.body).toEqual({
      type: `${ERRORS_BASE_URL}/rate_limit.exceeded`,
      title: 'Too many requests',
      status: 429,
      problem: 'rate_limit.exceeded',
      detail: expect.stringContaining('100 per second'),
      trace_id: refused.headers['request-id'],
    });
    expect(refused.headers['retry-after']).toBe('1');
    expect(headersOf(refused)).toEqual({ limit: 200, remaining: 0, reset: Math.ceil(nowSeconds() + 0.75) });

    tally.clock.advance(749);
    await api.get('/v1/customers').expect(429);
    tally.clock.advance(1);
    const admitted = await api.get('/v1/customers').expect(200);
    expect(headersOf(admitted).remaining).toBe(199);
  });

  it('refuses a write without appending anything', async () => {
    const acme = await newTenant();
    const api = tally.as(acme.sandbox);
    expect(new Set(await send(40, () => api.post('/v1/customers', { email: 'ada@example.com' })))).toEqual(new Set([200]));
    const head = await tally.head();
    const refused = await api.post('/v1/customers', { email: 'grace@example.com' }).expect(429);
    expect(refused.body.problem).toBe('rate_limit.exceeded');
    expect(await tally.head()).toBe(head);
  });

  it('limits before idempotency: over the limit, even a replay is refused, and the key stays usable', async () => {
    const acme = await newTenant();
    const api = tally.as(acme.sandbox);
    const create = () => api.post('/v1/customers', { email: 'ada@example.com' }).set('Idempotency-Key', 'a5f1c7c2-5a0e-4a43-9d5b-0f3f1f0c2b11');
    const first = await create().expect(200);
    await send(39, () => api.post('/v1/customers', { email: 'grace@example.com' }));
    await create().expect(429);
    tally.clock.advance(1000);
    const replayed = await create().expect(200);
    expect(replayed.headers['idempotent-replayed']).toBe('true');
    expect(replayed.body).toEqual(first.body);
  });

  it('shares a bucket between the keys of a tenant', async () => {
    const acme = await newTenant();
    const issued = await tally.operator().post(`/v1/operator/tenants/${acme.tenantId}/api-keys`, { environment: 'sandbox' }).expect(200);
    await tally.settle();
    expect(new Set(await send(5, () => readAuditLog(acme.sandbox)))).toEqual(new Set([200]));
    expect(new Set(await send(5, () => readAuditLog(issued.body.secret)))).toEqual(new Set([200]));
    await readAuditLog(acme.sandbox).expect(429);
    await readAuditLog(issued.body.secret).expect(429);
  });

  it('keeps tenants, environments and groups in separate buckets', async () => {
    const [acme, globex] = [await newTenant(), await newTenant()];
    await send(10, () => readAuditLog(acme.sandbox));
    await readAuditLog(acme.sandbox).expect(429);

    expect(headersOf(await readAuditLog(globex.sandbox).expect(200))).toMatchObject({ limit: 10, remaining: 9 });
    expect(headersOf(await readAuditLog(acme.live).expect(200))).toMatchObject({ limit: 100, remaining: 99 });
    expect(headersOf(await tally.as(acme.sandbox).get('/v1/customers').expect(200))).toMatchObject({ limit: 200, remaining: 199 });
  });

  it('applies a limit the operator raised from the next request on, with the clock standing still', async () => {
    const acme = await newTenant();
    expect(headersOf(await readAuditLog(acme.sandbox).expect(200)).limit).toBe(10);
    await tally.operator().patch(`/v1/operator/tenants/${acme.tenantId}`, { rate_limits: { admin: 300 } }).expect(200);
    const raised = await readAuditLog(acme.sandbox).expect(200);
    // The request before the raise is still in the window: two taken.
    expect(headersOf(raised)).toMatchObject({ limit: 60, remaining: 58 });
    expect(headersOf(await readAuditLog(acme.live).expect(200))).toMatchObject({ limit: 600, remaining: 599 });
  });

  it('does not limit the operator API', async () => {
    const response = await tally.operator().get('/v1/operator/tenants').expect(200);
    expect(response.headers['x-ratelimit-limit']).toBeUndefined();
  });
});
