import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { Response } from 'supertest';
import { TallyUnderTest, type TestTenant } from './support/tally';

const HOUR = 3_600_000;

describe('Idempotency-Key', () => {
  let tally: TallyUnderTest;
  let acme: TestTenant;
  let api: ReturnType<TallyUnderTest['as']>;

  beforeAll(async () => ({ tally, acme, api } = await TallyUnderTest.withTenant()));

  afterAll(() => tally.stop());

  const createCustomer = (key: string, body: object = { email: 'ada@example.com', name: 'Ada' }, as = api) =>
    as.post('/v1/customers', body).set('Idempotency-Key', key);

  const sameResponse = (replay: Response, first: Response) => {
    expect(replay.status).toBe(first.status);
    expect(replay.body).toEqual(first.body);
    expect(replay.headers['etag']).toBe(first.headers['etag']);
    expect(replay.headers['content-type']).toBe(first.headers['content-type']);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.headers['original-request']).toBe(first.headers['request-id']);
  };

  it('answers a retry on the same route with the stored response and runs the request once', async () => {
    const key = randomUUID();
    const before = await tally.head();
    const first = await createCustomer(key).expect(200);
    const moved = (await tally.head()) - before;
    const retry = await createCustomer(key).expect(200);
    sameResponse(retry, first);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(await tally.head()).toBe(before + moved);
  });

  it('treats the key as a UUID whatever its letter case, and the body whatever its key order', async () => {
    const key = randomUUID();
    const first = await createCustomer(key, { email: 'ada@example.com', name: 'Ada' }).expect(200);
    const retry = await createCustomer(key.toUpperCase(), { name: 'Ada', email: 'ada@example.com' }).expect(200);
    sameResponse(retry, first);
  });

  it('runs the same key again on another route', async () => {
    const key = randomUUID();
    const customer = await createCustomer(key).expect(200);
    const other = await createCustomer(randomUUID()).expect(200);
    const taxId = (id: string) => api.post(`/v1/customers/${id}/tax-ids`, { type: 'eu_vat', value: 'DE136695976' }).set('Idempotency-Key', key);
    const first = await taxId(customer.body.id).expect(200);
    const second = await taxId(other.body.id).expect(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    await tally.settle();
    for (const id of [customer.body.id, other.body.id]) {
      expect((await api.get(`/v1/customers/${id}`).expect(200)).body.tax_ids).toHaveLength(1);
    }
  });

  it('runs concurrent requests with one key once and gives each the same answer', async () => {
    const key = randomUUID();
    const before = await tally.head();
    const responses = await Promise.all([1, 2, 3, 4, 5].map(() => createCustomer(key, { name: 'Concurrent' })));
    for (const response of responses) {
      expect(response.status).toBe(200);
      expect(response.body).toEqual(responses[0].body);
    }
    expect(responses.filter((response) => response.headers['idempotent-replayed'] === 'true')).toHaveLength(4);
    expect(await tally.head()).toBe(before + 1n);
  });

  it.each([['not-a-uuid'], ['4f1c1a0e93a44c3b9a530d1f8d7b2e11'], ['4f1c1a0e-93a4-4c3b-9a53-0d1f8d7b2e1'], ['']])('refuses the key %p with 400 and runs nothing', async (key) => {
    const before = await tally.head();
    const response = await createCustomer(key).expect(400);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body).toMatchObject({ problem: 'idempotency.invalid_key', errors: [{ field: 'Idempotency-Key', code: 'idempotency.invalid_key' }] });
    expect(await tally.head()).toBe(before);
  });

  it('answers a key reused with another body with the first response, flagged as a body mismatch, and runs nothing', async () => {
    const key = randomUUID();
    const first = await createCustomer(key, { name: 'First' }).expect(200);
    expect(first.headers['idempotent-body-mismatch']).toBeUndefined();
    const before = await tally.head();
    const reused = await createCustomer(key, { name: 'Second' }).expect(200);
    sameResponse(reused, first);
    expect(reused.body.name).toBe('First');
    expect(reused.headers['idempotent-body-mismatch']).toBe('true');
    expect(await tally.head()).toBe(before);
    const retried = await createCustomer(key, { name: 'First' }).expect(200);
    sameResponse(retried, first);
    expect(retried.headers['idempotent-body-mismatch']).toBeUndefined();
  });

  it('keeps a key for 24 hours', async () => {
    const key = randomUUID();
    const first = await createCustomer(key).expect(200);
    tally.clock.advance(24 * HOUR - 1);
    sameResponse(await createCustomer(key).expect(200), first);
    tally.clock.advance(1);
    const after = await createCustomer(key).expect(200);
    expect(after.headers['idempotent-replayed']).toBeUndefined();
    expect(after.body.id).not.toBe(first.body.id);
  });

  it('keeps a key for 12 hours in versions before 2025-10-01', async () => {
    const key = randomUUID();
    const create = () => createCustomer(key).set('Service-Version', '2025-04-01');
    const first = await create().expect(200);
    tally.clock.advance(12 * HOUR - 1);
    sameResponse(await create().expect(200), first);
    tally.clock.advance(1);
    const after = await create().expect(200);
    expect(after.headers['idempotent-replayed']).toBeUndefined();
    expect(after.body.id).not.toBe(first.body.id);
  });

  it('keeps keys apart between tenants and between environments', async () => {
    const globex = await tally.tenant('Globex', 'eu');
    const key = randomUUID();
    const before = await tally.head();
    const responses = [
      await createCustomer(key).expect(200),
      await createCustomer(key, undefined, tally.as(acme.live)).expect(200),
      await createCustomer(key, undefined, tally.as(globex.sandbox)).expect(200),
    ];
    expect(responses.map((response) => response.headers['idempotent-replayed'])).toEqual([undefined, undefined, undefined]);
    expect(new Set(responses.map((response) => response.body.id)).size).toBe(3);
    expect(await tally.head()).toBe(before + 3n);
  });

  it('replays an error answer of the endpoint', async () => {
    const key = randomUUID();
    const addTaxId = () => api.post('/v1/customers/cus_01JNOPE000000000000000000/tax-ids', { type: 'eu_vat', value: 'DE136695976' }).set('Idempotency-Key', key);
    const first = await addTaxId().expect(404);
    expect(first.body).toMatchObject({ problem: 'customer.not_found', trace_id: first.headers['request-id'] });
    sameResponse(await addTaxId().expect(404), first);
  });

  it('does not keep a refusal of invalid parameters, so a corrected retry may use the key', async () => {
    const key = randomUUID();
    await createCustomer(key, { email: 42 }).expect(400);
    const corrected = await createCustomer(key, { email: 'ada@example.com' }).expect(200);
    expect(corrected.headers['idempotent-replayed']).toBeUndefined();
    sameResponse(await createCustomer(key, { email: 'ada@example.com' }).expect(200), corrected);
  });

  it('ignores the header on requests that are not POSTs', async () => {
    await api.get('/v1/customers').set('Idempotency-Key', 'not-a-uuid').expect(200);
  });

  it('makes operator creates idempotent, and keeps the shown-once key secrets sealed at rest', async () => {
    const key = randomUUID();
    const create = () => tally.operator().post('/v1/operator/tenants', { name: 'Initech', region: 'us' }).set('Idempotency-Key', key);
    const first = await create().expect(200);
    const retry = await create().expect(200);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    const secrets: string[] = first.body.api_keys.map((apiKey: { secret: string }) => apiKey.secret);
    expect(secrets).toHaveLength(2);
    const directory = new Database(join(tally.dataDir, 'directory.sqlite'), { readonly: true });
    try {
      const stored = directory.prepare('SELECT response FROM idempotency_keys').all() as { response: string }[];
      expect(stored).toHaveLength(1);
      for (const secret of secrets) expect(stored[0].response).not.toContain(secret);
      expect(stored[0].response).not.toContain('Initech');
    } finally {
      directory.close();
    }
  });
});
