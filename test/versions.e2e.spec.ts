import { API_VERSIONS, CURRENT_API_VERSION } from '@tally/http';
import { CONTEXTS } from '../apps/contexts';
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

  describe('wallet events, which exist from 2025-10-01', () => {
    const OLDER = '2025-04-01';
    type Event = { id: string; type: string };
    let customer: string;
    let wallet: string;
    /** The customer's and the wallet's events, newest first: a customer created, its wallet credited three times, the customer updated. */
    let scope: string;
    let credited: Event;

    beforeAll(async () => {
      const since = tally.clock.advance(60_000).toISOString();
      customer = (await api.post('/v1/customers', { email: 'wallet-events@example.com' }).expect(200)).body.id;
      tally.clock.advance(1_000);
      wallet = (await api.post(`/v1/customers/${customer}/wallets`, { currency: 'EUR' }).set('Service-Version', CURRENT_API_VERSION).expect(200)).body.id;
      for (const amount of ['1.00', '2.00', '3.00']) {
        tally.clock.advance(1_000);
        await api.post(`/v1/wallets/${wallet}/credits`, { amount, reason: 'manual_topup' }).set('Service-Version', CURRENT_API_VERSION).expect(200);
      }
      tally.clock.advance(1_000);
      await api.patch(`/v1/customers/${customer}`, { name: 'Wallet Events' }).expect(200);
      await tally.settle();
      scope = `aggregate_id=${customer},${wallet}&created_at[gte]=${since}`;
      credited = (await api.get(`/v1/events?type=wallet.credited&aggregate_id=${wallet}&limit=1`).set('Service-Version', CURRENT_API_VERSION).expect(200)).body.data[0];
    });

    const page = async (version: string, query: string) => (await api.get(`/v1/events?${scope}&${query}`).set('Service-Version', version).expect(200)).body;
    const types = (body: { data: Event[] }) => body.data.map((event) => event.type);

    it('lists them to the newest version, and not to an older one, whose pages still come back full', async () => {
      const newest = await page(CURRENT_API_VERSION, 'limit=2');
      expect([types(newest), newest.has_more]).toEqual([['customer.updated', 'wallet.credited'], true]);
      const older = await page(OLDER, 'limit=2');
      expect([types(older), older.has_more]).toEqual([['customer.updated', 'customer.created'], false]);
      const first = await page(OLDER, 'limit=1');
      const second = await page(OLDER, `limit=1&cursor=${first.next_cursor}`);
      expect([types(first), first.has_more, types(second), second.has_more]).toEqual([['customer.updated'], true, ['customer.created'], false]);
      expect(types(await page('2025-10-01', 'limit=10'))).toEqual(['customer.updated', 'wallet.credited', 'wallet.credited', 'wallet.credited', 'customer.created']);
      expect(types(await page(OLDER, 'type=*'))).toEqual(['customer.updated', 'customer.created']);
      expect(types(await page(OLDER, 'type[starts]=wal'))).toEqual([]);
    });

    it('retrieves one in the newest version; an older one answers 404 event.not_found, as for an id that does not exist', async () => {
      expect((await api.get(`/v1/events/${credited.id}`).set('Service-Version', CURRENT_API_VERSION).expect(200)).body).toMatchObject({ id: credited.id, type: 'wallet.credited' });
      for (const id of [credited.id, 'evt_00000000000000000000000000']) {
        const refused = await api.get(`/v1/events/${id}`).set('Service-Version', OLDER).expect(404);
        expect([refused.headers['content-type'], refused.body.problem]).toEqual([expect.stringMatching(/^application\/problem\+json/), 'event.not_found']);
      }
    });

    it('refuses a filter on their types or category in an older version as an unknown type, and takes it in the newest', async () => {
      for (const filter of ['wallet.credited', 'wallet.*', 'customer.created,wallet.debited']) {
        const refused = await api.get(`/v1/events?type=${filter}`).set('Service-Version', OLDER).expect(400);
        expect(refused.body).toMatchObject({ problem: 'event.unknown_type', errors: [{ field: 'type', code: 'event.unknown_type' }] });
        await api.get(`/v1/events?type=${filter}`).set('Service-Version', CURRENT_API_VERSION).expect(200);
      }
      expect(types(await page(CURRENT_API_VERSION, 'type=wallet.*'))).toEqual(['wallet.credited', 'wallet.credited', 'wallet.credited']);
    });

    it('refuses them, as unknown event types, in the filter of an endpoint pinned before 2025-10-01, which still takes `*`', async () => {
      const create = (events: string[], version: string, header = CURRENT_API_VERSION) =>
        api.post('/v1/admin/webhook-endpoints', { url: 'https://example.com/hooks', events, api_version: version }).set('Service-Version', header);
      for (const events of [['wallet.credited'], ['customer.created', 'wallet.*']]) {
        const refused = await create(events, OLDER).expect(400);
        expect(refused.body).toMatchObject({ problem: 'webhook_endpoint.unknown_event_type', errors: [{ field: `events[${events.length - 1}]`, code: 'webhook_endpoint.unknown_event_type' }] });
      }
      // Without api_version an endpoint takes the request's.
      const unpinned = await api.post('/v1/admin/webhook-endpoints', { url: 'https://example.com/hooks', events: ['wallet.credited'] }).set('Service-Version', OLDER).expect(400);
      expect(unpinned.body.problem).toBe('webhook_endpoint.unknown_event_type');
      const everything = (await create(['*'], OLDER).expect(200)).body.id;
      const patched = await api.patch(`/v1/admin/webhook-endpoints/${everything}`, { events: ['wallet.debited'] }).set('Service-Version', CURRENT_API_VERSION).expect(400);
      expect(patched.body.problem).toBe('webhook_endpoint.unknown_event_type');
      const to = tally.clock.now().toISOString();
      const from = new Date(tally.clock.now().getTime() - 3_600_000).toISOString();
      expect((await api.post(`/v1/admin/webhook-endpoints/${everything}/replay`, { from, to, types: ['wallet.credited'] }).expect(400)).body.problem).toBe('webhook_endpoint.unknown_event_type');
      expect((await api.get(`/v1/admin/webhook-endpoints/${everything}/deliveries?event_type=wallet.credited`).expect(400)).body.problem).toBe('request.invalid_parameter');
      const fromWallets = (await create(['wallet.credited'], '2025-10-01').expect(200)).body.id;
      await api.get(`/v1/admin/webhook-endpoints/${fromWallets}/deliveries?event_type=wallet.credited`).expect(200);
    });

    it('names no wallet event type in the OpenAPI documents of older versions', async () => {
      const walletTypes = CONTEXTS.publicEventTypes.filter((type) => type.startsWith('wallet.'));
      const mentions = async (version: string) => {
        const document = JSON.stringify((await api.get(`/openapi.json?version=${version}`).expect(200)).body);
        return walletTypes.filter((type) => document.includes(type));
      };
      expect(await mentions(CURRENT_API_VERSION)).toContain('wallet.credited');
      for (const version of API_VERSIONS.filter((version) => version < '2025-10-01')) expect(await mentions(version)).toEqual([]);
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
