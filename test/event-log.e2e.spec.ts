import { bindingsFor, rebuildProjections } from '@tally/runtime';
import { CONTEXTS } from '../apps/contexts';
import { TallyUnderTest, type TestTenant } from './support/tally';

describe('the public event log, auditors and personal data', () => {
  let tally: TallyUnderTest;
  let acme: TestTenant;
  let api: ReturnType<TallyUnderTest['as']>;

  beforeAll(async () => ({ tally, acme, api } = await TallyUnderTest.withTenant()));

  afterAll(() => tally.stop());

  it('publishes customer.created and customer.updated with the full resource and previous_attributes', async () => {
    const created = (await api.post('/v1/customers', { email: 'ada@example.com', name: 'Ada' }).expect(200)).body;
    tally.clock.advance(5);
    const updated = (await api.patch(`/v1/customers/${created.id}`, { name: 'Ada L.' }).expect(200)).body;
    await tally.settle();

    const { body } = await api.get(`/v1/events?aggregate_id=${created.id}&sort=created_at:desc`).expect(200);
    expect(body.data.map((e: { type: string }) => e.type)).toEqual(['customer.updated', 'customer.created']);
    const [update, creation] = body.data;
    expect(creation).toEqual({
      id: expect.stringMatching(/^evt_[0-9A-Z]{26}$/),
      object: 'event',
      type: 'customer.created',
      occurred_at: created.created_at,
      created_at: created.created_at,
      schema_version: 1,
      tenant_id: acme.tenantId,
      aggregate_type: 'customer',
      aggregate_id: created.id,
      sequence: 1,
      data: created,
      request: { id: expect.stringMatching(/^req_/) },
    });
    expect(update.occurred_at).toMatch(/\.\d{3}Z$/);
    expect(update.data).toEqual(updated);
    expect(update.previous_attributes).toEqual({ name: 'Ada', updated_at: created.updated_at });

    const one = await api.get(`/v1/events/${update.id}`).expect(200);
    expect(one.body).toEqual(update);
  });

  it('filters events by type and time, and hides them from other tenants', async () => {
    const since = tally.clock.advance(60_000).toISOString();
    const customer = (await api.post('/v1/customers', { name: 'Later' }).expect(200)).body;
    await tally.settle();
    const recent = await api.get(`/v1/events?type=customer.created&created_at[gte]=${since}`).expect(200);
    expect(recent.body.data.map((e: { aggregate_id: string }) => e.aggregate_id)).toEqual([customer.id]);
    const older = await api.get(`/v1/events?created_at[lt]=${since}`).expect(200);
    expect(older.body.data.map((e: { aggregate_id: string }) => e.aggregate_id)).not.toContain(customer.id);

    const other = tally.as((await tally.tenant('Other', 'eu')).sandbox);
    expect((await other.get('/v1/events').expect(200)).body.data).toEqual([]);
    await other.get(`/v1/events/${recent.body.data[0].id}`).expect(404);
  });

  it('filters by a category as webhook endpoints do (type=customer.*, type=*), page by page, and refuses a type it does not know', async () => {
    const since = tally.clock.advance(60_000).toISOString();
    const customer = (await api.post('/v1/customers', { name: 'Category' }).expect(200)).body;
    await api.patch(`/v1/customers/${customer.id}`, { name: 'Category 2' }).expect(200);
    await api.post('/v1/plans', { code: 'category', product_code: 'category', currency: 'EUR', interval: 'month', interval_count: 1 }).expect(200);
    await tally.settle();
    const types = async (query: string) => (await api.get(`/v1/events?created_at[gte]=${since}&sort=created_at:asc&${query}`).expect(200)).body.data.map((e: { type: string }) => e.type);
    expect(await types('type=customer.*')).toEqual(['customer.created', 'customer.updated']);
    expect(await types('type=plan.*')).toEqual(['plan.created']);
    expect(await types('type=*')).toEqual(['customer.created', 'customer.updated', 'plan.created']);
    expect(await types('type=customer.updated,plan.created')).toEqual(['customer.updated', 'plan.created']);

    const first = await api.get(`/v1/events?created_at[gte]=${since}&type=customer.*&limit=1`).expect(200);
    const second = await api.get(`/v1/events?created_at[gte]=${since}&type=customer.*&limit=1&cursor=${first.body.next_cursor}`).expect(200);
    expect([...first.body.data, ...second.body.data].map((e: { type: string }) => e.type)).toEqual(['customer.updated', 'customer.created']);
    expect(second.body).toMatchObject({ has_more: false, next_cursor: null });
    expect((await api.get(`/v1/events?created_at[gte]=${since}&type=plan.*&cursor=${first.body.next_cursor}`).expect(400)).body.problem).toBe('pagination.cursor_invalid');

    for (const type of ['customer.craeted', 'bogus.*', 'customer', 'customer.*.*']) {
      const refused = await api.get(`/v1/events?type=${type}`).expect(400);
      expect(refused.body).toMatchObject({ problem: 'event.unknown_type', errors: [{ field: 'type', code: 'event.unknown_type' }] });
    }
    const mixed = await api.get('/v1/events?type=customer.*,plan.created').expect(400);
    expect(mixed.body.problem).toBe('request.invalid_parameter');
  });

  it('shows an auditor every stored event of an aggregate with its metadata, page by page', async () => {
    const customer = (await api.post('/v1/customers', { name: 'v0' }).expect(200)).body;
    for (let i = 1; i <= 4; i++) await api.patch(`/v1/customers/${customer.id}`, { name: `v${i}` }).expect(200);
    const reads = jest.spyOn(tally.cells.cell('eu').events, 'readStream');
    const first = await api.get(`/v1/admin/aggregates/${customer.id}/history?limit=3`).expect(200);
    expect(first.body.data.map((e: { revision: number }) => e.revision)).toEqual([0, 1, 2]);
    expect(first.body.data[0]).toMatchObject({
      object: 'stored_event',
      type: 'CustomerCreated',
      stream: `customer-${customer.id}`,
      data: { customer_id: customer.id, name: 'v0' },
      metadata: { tenant_id: acme.tenantId, environment: 'sandbox', actor: expect.stringMatching(/^key:key_/), request_id: expect.stringMatching(/^req_/), schema_version: 1 },
    });
    const second = await api.get(`/v1/admin/aggregates/${customer.id}/history?limit=3&cursor=${first.body.next_cursor}`).expect(200);
    expect(second.body.data.map((e: { revision: number }) => e.revision)).toEqual([3, 4]);
    expect(second.body).toMatchObject({ has_more: false, next_cursor: null });
    const limits = reads.mock.calls.filter(([stream]) => stream === `customer-${customer.id}`).map(([, options]) => options?.limit);
    reads.mockRestore();
    expect(limits.length).toBeGreaterThan(0);
    for (const limit of limits) expect(limit).toBeLessThanOrEqual(4);
  });

  it('rebuilds a customer as it was at a moment (as_of)', async () => {
    const customer = (await api.post('/v1/customers', { name: 'First name', metadata: { stage: 'lead' } }).expect(200)).body;
    const between = tally.clock.advance(1_000).toISOString();
    tally.clock.advance(1_000);
    await api.patch(`/v1/customers/${customer.id}`, { name: 'Second name', metadata: { stage: 'customer' } }).expect(200);
    const then = await api.get(`/v1/customers/${customer.id}?as_of=${between}`).expect(200);
    expect(then.body).toEqual(customer);
    const now = await api.get(`/v1/customers/${customer.id}?as_of=${tally.clock.now().toISOString()}`).expect(200);
    expect(now.body.name).toBe('Second name');
    const before = await api.get(`/v1/customers/${customer.id}?as_of=2000-01-01T00:00:00Z`).expect(404);
    expect(before.body.problem).toBe('customer.not_found');
    await api.get(`/v1/customers/${customer.id}?as_of=yesterday`).expect(400);
  });

  it('rebuilds every read model from the log into exactly the live documents', async () => {
    await tally.settle();
    await tally.worker.stop();
    const collections = ['customers', 'events', 'timers', 'tenants', 'api_keys'];
    const snapshot = async () => {
      const cell = tally.cells.cell('eu');
      return Promise.all(collections.map((c) => (['tenants', 'api_keys'].includes(c) ? tally.cells.directory : cell.readModels).all(c)));
    };
    const live = await snapshot();
    expect(live[0].length).toBeGreaterThan(3);
    const bindings = tally.cells.all().flatMap((cell) => bindingsFor(cell, tally.cells, CONTEXTS.projections));
    await rebuildProjections(bindings);
    expect(await snapshot()).toEqual(live);
    await tally.worker.start();
  });

  it('stores personal data encrypted, and after the data key is destroyed replays show placeholders while ids survive', async () => {
    const customer = (await api.post('/v1/customers', { email: 'secret@example.com', name: 'Secret Person', metadata: { ssn: 'ssn:123-45-6789' } }).expect(200)).body;
    await api.post(`/v1/customers/${customer.id}/tax-ids`, { type: 'eu_vat', value: 'DE 136 695 976' }).expect(200);

    const cell = tally.cells.cell('eu');
    const stored = await cell.events.readStream(`customer-${customer.id}`);
    const raw = JSON.stringify(stored.map((e) => e.data));
    // Each marker holds a character base64 never produces, so no ciphertext can contain it by chance.
    for (const secret of ['secret@example.com', 'Secret Person', 'ssn:123-45-6789', 'DE 136 695 976']) expect(raw).not.toContain(secret);
    expect(raw).toContain(customer.id);

    await cell.dataKeys.destroy(customer.id);
    cell.pii.forget(customer.id);
    const history = await api.get(`/v1/admin/aggregates/${customer.id}/history`).expect(200);
    expect(history.body.data[0].data).toEqual({ customer_id: customer.id, email: '[redacted]', name: '[redacted]', billing_address: null, metadata: {} });
    expect(history.body.data[1].data).toMatchObject({ customer_id: customer.id, type: 'eu_vat', value: '[redacted]' });
    const replayed = await api.get(`/v1/customers/${customer.id}?as_of=${tally.clock.now().toISOString()}`).expect(200);
    expect(replayed.body).toMatchObject({ id: customer.id, email: '[redacted]', name: '[redacted]', metadata: {} });
  });

  it('reports liveness and readiness of every cell', async () => {
    await tally.http().get('/health/live').expect(200, { status: 'ok' });
    const ready = await tally.http().get('/health/ready').expect(200);
    expect(ready.body).toEqual({ status: 'ok', cells: { us: 'ok', eu: 'ok', apac: 'ok' } });
  });

  it('answers problem+json for unknown routes and methods', async () => {
    const response = await api.get('/v1/nothing-here').expect(404);
    expect(response.headers['content-type']).toMatch(/problem\+json/);
    expect(response.body.problem).toBe('route.not_found');
    const wrongMethod = await api.delete('/v1/customers').expect(405);
    expect(wrongMethod.headers['content-type']).toMatch(/problem\+json/);
    expect(wrongMethod.headers['allow']).toBe('GET, POST');
    expect(wrongMethod.body.problem).toBe('route.method_not_allowed');
  });
});
