import { TallyUnderTest } from './support/tally';

/** Keys a user may choose that are also names of members of every plain JavaScript object. */
const BUILT_IN_KEYS = ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf', 'isPrototypeOf'];
const metadataWithBuiltIns = Object.fromEntries([...BUILT_IN_KEYS.map((key) => [key, `v-${key}`]), ['plan', 'gold']]);
/** JSON text, since an object literal with a `__proto__` key would set a prototype instead of sending the key. */
const metadataJson = `{${[...BUILT_IN_KEYS, 'plan'].map((key) => `"${key}":"${key === 'plan' ? 'gold' : `v-${key}`}"`).join(',')}}`;

describe('keys the user chooses are stored as sent, and unknown fields are refused whatever their name', () => {
  let tally: TallyUnderTest;
  let api: ReturnType<TallyUnderTest['as']>;

  beforeAll(async () => ({ tally, api } = await TallyUnderTest.withTenant()));
  afterAll(() => tally.stop());

  const postJson = (path: string, json: string) => api.post(path).set('Content-Type', 'application/json').send(json);
  const patchJson = (path: string, json: string) => api.patch(path).set('Content-Type', 'application/json').send(json);

  it('keeps metadata keys named like object built-ins through create, retrieve, list, the event log and history', async () => {
    const created = await postJson('/v1/customers', `{"email":"keys@example.com","metadata":${metadataJson}}`).expect(200);
    expect(created.body.metadata).toEqual(metadataWithBuiltIns);
    await tally.settle();
    const retrieved = await api.get(`/v1/customers/${created.body.id}`).expect(200);
    expect(retrieved.text).toContain('"__proto__":"v-__proto__"');
    expect(retrieved.body.metadata).toEqual(metadataWithBuiltIns);
    const listed = await api.get('/v1/customers?email=keys@example.com').expect(200);
    expect(listed.body.data[0].metadata).toEqual(metadataWithBuiltIns);
    const events = await api.get(`/v1/events?aggregate_id=${created.body.id}`).expect(200);
    expect(events.body.data[0].data.metadata).toEqual(metadataWithBuiltIns);
    const history = await api.get(`/v1/admin/aggregates/${created.body.id}/history`).expect(200);
    expect(history.body.data[0].data.metadata).toEqual(metadataWithBuiltIns);
  });

  it('merges and removes built-in-named keys on update', async () => {
    const created = await api.post('/v1/customers', { metadata: { plan: 'gold' } }).expect(200);
    const updated = await patchJson(`/v1/customers/${created.body.id}`, `{"metadata":{"constructor":"c","__proto__":"p"}}`).expect(200);
    expect(updated.body.metadata).toEqual({ plan: 'gold', constructor: 'c', ['__proto__']: 'p' });
    expect(updated.headers['etag']).toBe('W/"1"');
    const removed = await patchJson(`/v1/customers/${created.body.id}`, `{"metadata":{"__proto__":""}}`).expect(200);
    expect(removed.body.metadata).toEqual({ plan: 'gold', constructor: 'c' });
    expect(Object.keys(removed.body.metadata)).not.toContain('__proto__');
    await tally.settle();
    const events = await api.get(`/v1/events?aggregate_id=${created.body.id}&sort=created_at:asc`).expect(200);
    expect(events.body.data.map((event: { type: string }) => event.type)).toEqual(['customer.created', 'customer.updated', 'customer.updated']);
  });

  it('keeps built-in-named metadata keys on plans and coupons', async () => {
    const plan = await postJson('/v1/plans', `{"code":"keys","product_code":"p","currency":"EUR","interval":"month","interval_count":1,"components":[{"code":"base","pricing":{"model":"flat","amount":"49.00"}}],"metadata":${metadataJson}}`).expect(200);
    expect(plan.body.metadata).toEqual(metadataWithBuiltIns);
    const coupon = await postJson('/v1/coupons', `{"code":"KEYS","percent_off":"10","duration":"once","metadata":${metadataJson}}`).expect(200);
    expect(coupon.body.metadata).toEqual(metadataWithBuiltIns);
  });

  it('prices quantities and usage keyed by a meter named like a built-in', async () => {
    const plan = (code: string, pricing: string) =>
      postJson('/v1/plans', `{"code":"${code}","product_code":"p","currency":"EUR","interval":"month","interval_count":1,"components":[{"code":"c","pricing":${pricing}}]}`).expect(200);
    await plan('built-in-seats', '{"model":"per_unit","unit_amount":"2.00","meter":"constructor"}');
    await plan('built-in-usage', '{"model":"usage","meter":"constructor","aggregation":"sum","tiers":[{"up_to":null,"unit_amount":"0.50"}]}');
    const seats = await postJson('/v1/invoices/preview', '{"plan":"built-in-seats","quantities":{"constructor":5}}').expect(200);
    expect(seats.body.lines.map((line: Record<string, unknown>) => [line.quantity, line.amount])).toEqual([['5', '10.00']]);
    const usage = await postJson('/v1/invoices/preview', '{"plan":"built-in-usage","usage":{"constructor":"4"}}').expect(200);
    expect(usage.body.lines.map((line: Record<string, unknown>) => [line.quantity, line.amount])).toEqual([['4', '2.00']]);
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])('refuses an unknown top-level field named %s and writes nothing', async (field) => {
    const before = await tally.head();
    const response = await postJson('/v1/customers', `{"email":"x@example.com","${field}":{"admin":true}}`).expect(400);
    expect(response.body).toMatchObject({ problem: 'request.invalid_body', errors: [{ field, code: 'field.unknown' }] });
    expect(await tally.head()).toBe(before);
  });

  it('refuses an unknown nested field named like a built-in', async () => {
    const response = await postJson('/v1/customers', `{"billing_address":{"country":"DE","constructor":"x"}}`).expect(400);
    expect(response.body).toMatchObject({ problem: 'request.invalid_body', errors: [{ field: 'billing_address.constructor', code: 'field.unknown' }] });
  });

  it('refuses a built-in name inside a free-form field as an unknown field', async () => {
    const response = await postJson('/v1/plans', `{"code":"free-form","product_code":"p","currency":"EUR","interval":"month","interval_count":1,"components":[{"code":"base","pricing":{"model":"flat","amount":"1.00","constructor":"x"}}]}`).expect(400);
    expect(response.body).toMatchObject({ problem: 'request.invalid_body', errors: [{ field: 'components[0].pricing.constructor', code: 'field.unknown' }] });
  });

  it('refuses a filter named like a built-in as an unknown parameter', async () => {
    for (const parameter of ['constructor', 'toString', '__proto__']) {
      const response = await api.get(`/v1/customers?${parameter}=x`).expect(400);
      expect(response.body.problem).toBe('request.invalid_parameter');
    }
  });
});
