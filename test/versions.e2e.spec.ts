import { API_VERSIONS, CURRENT_API_VERSION } from '@tally/http';
import { TallyUnderTest, type TestTenant } from './support/tally';

describe('API versions through the HTTP API', () => {
  let tally: TallyUnderTest;
  let acme: TestTenant;
  let api: ReturnType<TallyUnderTest['as']>;

  beforeAll(async () => {
    ({ tally, acme, api } = await TallyUnderTest.withTenant());
    await api.post('/v1/customers', { email: 'ada@example.com', name: 'Ada' }).expect(200);
    await tally.settle();
  });

  afterAll(() => tally.stop());

  describe('every response names the version that served it', () => {
    it.each([
      ['a success', () => api.get('/v1/customers'), 200],
      ['a missing resource', () => api.get('/v1/customers/cus_00000000000000000000000000'), 404],
      ['an unknown route', () => api.get('/v1/nowhere'), 404],
      ['a body that fails validation', () => api.post('/v1/customers', { nickname: 'x' }), 400],
      ['malformed JSON', () => api.post('/v1/customers').set('Content-Type', 'application/json').send('{"email":'), 400],
      ['a missing API key', () => tally.http().get('/v1/customers'), 401],
      ['a route outside /v1', () => tally.http().get('/health/live'), 200],
    ])('%s', async (_case, send, status) => {
      const response = await send().expect(status);
      expect(response.headers['service-version']).toBe('2026-04-01');
    });

    it('names the version asked for on errors too', async () => {
      const response = await api.get('/v1/customers/cus_00000000000000000000000000').set('Service-Version', '2024-10-01').expect(404);
      expect(response.headers['service-version']).toBe('2024-10-01');
      expect(response.body.problem).toBe('customer.not_found');
    });
  });

  it('refuses an unknown version with api_version.unknown', async () => {
    const response = await api.get('/v1/customers').set('Service-Version', '2023-01-01').expect(400);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.headers['service-version']).toBe('2026-04-01');
    expect(response.body).toMatchObject({ status: 400, problem: 'api_version.unknown', errors: [{ field: 'Service-Version', code: 'api_version.unknown' }] });
  });

  it('serves Service-Version: 2024-10-01', async () => {
    const current = await api.get('/v1/customers').expect(200);
    const old = await api.get('/v1/customers').set('Service-Version', '2024-10-01').expect(200);
    expect(old.headers['service-version']).toBe('2024-10-01');
    expect(old.body).toEqual(current.body);
  });

  describe('each version’s responses, held to its own OpenAPI document', () => {
    let invoice: string;

    beforeAll(async () => {
      const customer = (await api.post('/v1/customers', { email: 'grace@example.com' }).expect(200)).body.id;
      invoice = (await api.post('/v1/invoices', { customer_id: customer, currency: 'EUR', lines: [{ description: 'Workshop', quantity: '1', unit_amount: '100.00' }] }).expect(200)).body.id;
      await tally.settle();
    });

    // The agent checks every response against the document of the version that served it.
    it.each(API_VERSIONS)('answers an untaxed invoice without payments as the document of %s describes it', async (version) => {
      const answer = await api.get(`/v1/invoices/${invoice}`).set('Service-Version', version).expect(200);
      expect(answer.headers['service-version']).toBe(version);
      const before2025_04 = version < '2025-04-01';
      const before2026_04 = version < '2026-04-01';
      expect([answer.body.tax, answer.body.payments]).toEqual([before2025_04 ? undefined : '0.00', before2026_04 ? null : []]);
    });

    it('would break the newest document with an older version’s invoice, and the reverse', async () => {
      const url = `/v1/invoices/${invoice}`;
      const oldest = await api.get(url).set('Service-Version', API_VERSIONS[0]).expect(200);
      const newest = await api.get(url).expect(200);
      expect(() => tally.contract.of(CURRENT_API_VERSION).check('GET', url, oldest)).toThrow(/must have required property 'tax'/);
      expect(() => tally.contract.of(API_VERSIONS[0]).check('GET', url, newest)).toThrow(/\/payments must be (string|null)/);
    });
  });

  describe('the tenant’s pinned version', () => {
    beforeAll(async () => {
      await tally.operator().patch(`/v1/operator/tenants/${acme.tenantId}`, { api_version: '2025-04-01' }).expect(200);
      await tally.settle();
    });

    it('serves requests without a Service-Version header', async () => {
      const response = await api.get('/v1/customers').expect(200);
      expect(response.headers['service-version']).toBe('2025-04-01');
    });

    it('yields to the Service-Version header', async () => {
      const response = await api.get('/v1/customers').set('Service-Version', '2026-04-01').expect(200);
      expect(response.headers['service-version']).toBe('2026-04-01');
    });
  });
});
