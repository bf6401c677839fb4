import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OPERATOR_KEY, TallyUnderTest, type TestTenant } from './support/tally';

const encode = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/** What a new user or a fuzzer sends at the edge, and what every such request must answer. */
describe('the HTTP edge refuses what it cannot honour, clearly', () => {
  let tally: TallyUnderTest;
  let acme: TestTenant;
  let api: ReturnType<TallyUnderTest['as']>;

  beforeAll(async () => {
    ({ tally, acme, api } = await TallyUnderTest.withTenant());
    await tally.liftRateLimits(acme.tenantId);
    await tally.settle();
    for (const name of ['a', 'b', 'c']) await api.post('/v1/customers', { email: `${name}@example.com` }).expect(200);
    await tally.settle();
  });
  afterAll(() => tally.stop());

  const expectProblem = (response: { status: number; headers: Record<string, string>; body: { problem?: string } }, status: number, problem: string) => {
    expect(response.status).toBe(status);
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.body.problem).toBe(problem);
  };

  describe('cursors', () => {
    const lists = ['/v1/customers', '/v1/events', '/v1/plans', '/v1/coupons', '/v1/admin/audit-log'];

    it('pages with the cursors it issues', async () => {
      const first = await api.get('/v1/customers?limit=2').expect(200);
      const second = await api.get(`/v1/customers?limit=2&cursor=${first.body.next_cursor}`).expect(200);
      expect(second.body.data).toHaveLength(1);
      expect(second.body.data[0].id).not.toBe(first.body.data[1].id);
    });

    it.each(lists)('refuses forged cursors on %s with pagination.cursor_invalid', async (path) => {
      const forged = [
        encode({ s: 'created_at:desc', v: { $gt: '' }, id: 'cus_x' }),
        encode({ s: 'created_at:desc', v: '2026-01-01T00:00:00.000Z', id: 'cus_x' }),
        `${encode({ s: 'created_at:desc', v: '2026-01-01T00:00:00.000Z', id: 'cus_x' })}.${Buffer.alloc(16).toString('base64url')}`,
        encode([1, 2]),
        encode('text'),
        'not base64 at all!',
        '',
      ];
      for (const cursor of forged) expectProblem(await api.get(`${path}?cursor=${encodeURIComponent(cursor)}`), 400, 'pagination.cursor_invalid');
    });

    it('refuses a cursor whose payload was altered', async () => {
      const { next_cursor: cursor } = (await api.get('/v1/customers?limit=1').expect(200)).body as { next_cursor: string };
      const [payload, mac] = cursor.split('.');
      const altered = JSON.parse(Buffer.from(payload, 'base64url').toString()) as { id: string };
      altered.id = 'cus_0';
      expectProblem(await api.get(`/v1/customers?cursor=${encode(altered)}.${mac}`), 400, 'pagination.cursor_invalid');
    });

    it('refuses a cursor of one list on another: customers to invoices, payments, events, and a customer’s lists to another customer', async () => {
      const { next_cursor: cursor } = (await api.get('/v1/customers?limit=1').expect(200)).body as { next_cursor: string };
      for (const path of ['/v1/invoices', '/v1/payments', '/v1/events', '/v1/subscriptions', '/v1/admin/audit-log']) {
        expectProblem(await api.get(`${path}?cursor=${cursor}`), 400, 'pagination.cursor_invalid');
      }
      const [first, second] = (await api.get('/v1/customers?limit=2').expect(200)).body.data as { id: string }[];
      for (const value of ['DE136695976', 'FR40303265045']) await api.post(`/v1/customers/${first.id}/tax-ids`, { type: 'eu_vat', value }).expect(200);
      await tally.settle();
      const { next_cursor: taxIds } = (await api.get(`/v1/customers/${first.id}/tax-ids?limit=1`).expect(200)).body as { next_cursor: string };
      await api.get(`/v1/customers/${first.id}/tax-ids?limit=1&cursor=${taxIds}`).expect(200);
      expectProblem(await api.get(`/v1/customers/${second.id}/tax-ids?cursor=${taxIds}`), 400, 'pagination.cursor_invalid');
    });

    it('refuses a cursor under other filters than the page that issued it', async () => {
      const since = 'created_at[gte]=2000-01-01';
      const { next_cursor: cursor } = (await api.get(`/v1/customers?limit=1&${since}`).expect(200)).body as { next_cursor: string };
      expect(cursor).toEqual(expect.any(String));
      // The same filter, written otherwise, is the same filter.
      const next = await api.get(`/v1/customers?cursor=${cursor}&created_at[gte]=2000-01-01T00:00:00Z&limit=1`).expect(200);
      expect(next.body.data).toHaveLength(1);
      expectProblem(await api.get(`/v1/customers?limit=1&cursor=${cursor}`), 400, 'pagination.cursor_invalid');
      expectProblem(await api.get(`/v1/customers?limit=1&created_at[gte]=2001-01-01&cursor=${cursor}`), 400, 'pagination.cursor_invalid');
      expectProblem(await api.get(`/v1/customers?limit=1&${since}&email[starts]=a&cursor=${cursor}`), 400, 'pagination.cursor_invalid');
    });

    it('refuses another cell’s cursor', async () => {
      const other = await tally.tenant('Other', 'us');
      const otherApi = tally.as(other.sandbox);
      for (const email of ['x@example.com', 'y@example.com']) await otherApi.post('/v1/customers', { email }).expect(200);
      await tally.settle();
      const { next_cursor: cursor } = (await otherApi.get('/v1/customers?limit=1').expect(200)).body as { next_cursor: string };
      expectProblem(await api.get(`/v1/customers?cursor=${cursor}`), 400, 'pagination.cursor_invalid');
    });
  });

  describe('enum filters', () => {
    it.each([
      ['/v1/subscriptions?status=bogus', 'status'],
      ['/v1/subscriptions?status=active,bogus', 'status'],
      ['/v1/invoices?status=payed', 'status'],
      ['/v1/payments?status=Succeeded', 'status'],
      ['/v1/plans?status=retired', 'status'],
      ['/v1/coupons?duration=weekly', 'duration'],
      ['/v1/usage-alerts?status=bogus', 'status'],
      ['/v1/admin/webhook-endpoints?status=paused', 'status'],
      ['/v1/admin/audit-log?subject_type=customer', 'subject_type'],
      ['/v1/admin/audit-log?action=tenant.exploded', 'action'],
    ])('refuses the unknown value of %s, as it refuses an unknown filter', async (path, field) => {
      const response = await api.get(path);
      expectProblem(response, 400, 'request.invalid_parameter');
      expect(response.body.errors).toEqual([expect.objectContaining({ field, code: 'request.invalid_parameter' })]);
    });

    it('refuses an unknown payment method type on a customer’s methods, and an unknown region on the operator’s tenants', async () => {
      const [customer] = (await api.get('/v1/customers?limit=1').expect(200)).body.data as { id: string }[];
      expectProblem(await api.get(`/v1/customers/${customer.id}/payment-methods?type=cheque`), 400, 'request.invalid_parameter');
      await api.get(`/v1/customers/${customer.id}/payment-methods?type=card,paypal`).expect(200);
      expectProblem(await tally.operator().get('/v1/operator/tenants?region=mars'), 400, 'request.invalid_parameter');
      await tally.operator().get('/v1/operator/tenants?region=eu,us').expect(200);
    });

    it('takes the known values, one or several', async () => {
      for (const path of ['/v1/subscriptions?status=active,past_due', '/v1/invoices?status=draft', '/v1/payments?status=succeeded,failed', '/v1/plans?status=archived', '/v1/coupons?duration=once', '/v1/admin/audit-log?action=tenant.created']) {
        await api.get(path).expect(200);
      }
    });
  });

  describe('query parameters a route does not take', () => {
    it('are refused on a retrieve, naming the parameter, while the ones it takes still work', async () => {
      const [customer] = (await api.get('/v1/customers?limit=1').expect(200)).body.data as { id: string }[];
      const response = await api.get(`/v1/customers/${customer.id}?expand=tax_ids`);
      expectProblem(response, 400, 'request.invalid_parameter');
      expect(response.body.errors).toEqual([expect.objectContaining({ field: 'expand' })]);
      await api.get(`/v1/customers/${customer.id}?as_of=${tally.clock.now().toISOString()}`).expect(200);
      expectProblem(await api.get(`/v1/customers/${customer.id}?as_of=${tally.clock.now().toISOString()}&debug=1`), 400, 'request.invalid_parameter');
      expectProblem(await api.get(`/v1/admin/aggregates/${customer.id}/history?limit=1&verbose=true`), 400, 'request.invalid_parameter');
    });

    it('are refused on a write, which then writes nothing', async () => {
      const before = await tally.head();
      expectProblem(await api.post('/v1/customers?email=ada@example.com', { name: 'Ada' }), 400, 'request.invalid_parameter');
      expect(await tally.head()).toBe(before);
    });
  });

  describe('dates in filters', () => {
    it.each(['2026-02-30T00:00:00Z', '2026-02-29', '2026-13-01', '2026-04-31T00:00:00Z', '2026-05-01T24:00:00Z', '2026-05-01T10:60:00Z', '2026-05-01T10:00:00', '2026-05-01T10:00:00+25:00'])(
      'refuses the impossible or zone-less date %s',
      async (value) => {
        const response = await api.get(`/v1/customers?created_at[gte]=${encodeURIComponent(value)}`);
        expectProblem(response, 400, 'request.invalid_parameter');
        expect(response.body.errors).toEqual([expect.objectContaining({ field: 'created_at[gte]' })]);
      },
    );

    it.each(['2028-02-29', '2026-05-01T10:00:00Z', '2026-05-01T12:00:00.123+02:00'])('takes the real date %s', async (value) => {
      await api.get(`/v1/customers?created_at[gte]=${encodeURIComponent(value)}`).expect(200);
    });
  });

  describe('bodies', () => {
    const raw = (body: string | Buffer) => api.post('/v1/customers').set('Content-Type', 'application/json').send(body);

    it.each(['"hi"', 'null', '42', 'true', '[1,2]'])('answers the JSON %s, which is not an object, with request.invalid_body and writes nothing', async (body) => {
      const before = await tally.head();
      expectProblem(await raw(body), 400, 'request.invalid_body');
      expect(await tally.head()).toBe(before);
    });

    it('refuses bytes that are not UTF-8', async () => {
      const before = await tally.head();
      expectProblem(await raw(Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')])), 400, 'request.invalid_body');
      expect(await tally.head()).toBe(before);
    });

    it.each([
      ['a NUL character', '{"name":"Ada\\u0000"}', 'name'],
      ['a lone high surrogate', '{"name":"\\ud800"}', 'name'],
      ['a lone low surrogate in metadata', '{"metadata":{"k":"\\udc00x"}}', 'metadata.k'],
      ['a NUL in a metadata key', '{"metadata":{"k\\u0000":"v"}}', 'metadata'],
    ])('refuses %s and writes nothing', async (_name, body, field) => {
      const before = await tally.head();
      const response = await raw(body);
      expectProblem(response, 400, 'request.invalid_body');
      expect(response.body.errors).toEqual([expect.objectContaining({ field, code: 'field.invalid_text' })]);
      expect(await tally.head()).toBe(before);
    });

    it.each(['utf-16', 'UTF-16LE', 'iso-8859-1', 'utf8', ''])('answers a body declared in charset=%s with 415 and writes nothing', async (charset) => {
      const before = await tally.head();
      const response = await api.post('/v1/customers').set('Content-Type', `application/json; charset=${charset}`).send(Buffer.from('{"name":"Ada"}', charset.toLowerCase().startsWith('utf-16') ? 'utf16le' : 'utf8'));
      expectProblem(response, 415, 'request.unsupported_media_type');
      expect(await tally.head()).toBe(before);
    });

    it.each(['application/json; charset=utf-8', 'application/json;charset=UTF-8', 'application/json; charset="utf-8"', 'application/json'])('takes a body declared %s', async (contentType) => {
      await api.post('/v1/customers').set('Content-Type', contentType).send('{"name":"Ada"}').expect(200);
    });

    it('stores a surrogate pair (an emoji) as sent', async () => {
      const created = await raw('{"name":"Ada \\ud83d\\ude00"}').expect(200);
      expect(created.body.name).toBe('Ada 😀');
    });
  });

  describe('authentication', () => {
    it.each(['bearer', 'BEARER', 'BeArEr'])('takes the scheme written %s', async (scheme) => {
      await tally.http().get('/v1/customers').set('Authorization', `${scheme} ${acme.sandbox}`).expect(200);
    });

    it('answers a key of the wrong kind with auth.invalid_api_key, and no key with auth.missing_api_key', async () => {
      expectProblem(await tally.http().get('/v1/customers').set('Authorization', `Bearer ${OPERATOR_KEY}`), 401, 'auth.invalid_api_key');
      expectProblem(await tally.http().get('/v1/customers').set('Authorization', 'Bearer pk_test_123'), 401, 'auth.invalid_api_key');
      expectProblem(await tally.http().get('/v1/customers'), 401, 'auth.missing_api_key');
      expectProblem(await tally.http().get('/v1/customers').set('Authorization', `Basic ${acme.sandbox}`), 401, 'auth.missing_api_key');
    });
  });

  describe('ETags', () => {
    it('are only the revisions of resources, never on errors or lists', async () => {
      const created = await api.post('/v1/customers', { email: 'etag@example.com' }).expect(200);
      expect(created.headers['etag']).toBe('W/"0"');
      const stale = await api.patch(`/v1/customers/${created.body.id}`, { name: 'X' }).set('If-Match', 'W/"7"');
      expectProblem(stale, 412, 'request.precondition_failed');
      expect(stale.headers['etag']).toBeUndefined();
      expect((await api.get('/v1/customers/cus_00000000000000000000000000')).headers['etag']).toBeUndefined();
      expect((await api.get('/v1/customers')).headers['etag']).toBeUndefined();
      expect((await tally.http().get('/health/live')).headers['etag']).toBeUndefined();
    });
  });

  it('answers request headers over the limit with 431 as problem+json', async () => {
    const server = tally.app.getHttpServer();
    if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const answer = await new Promise<{ status: number; type: string; body: string }>((resolve, reject) => {
      const outgoing = httpRequest({ host: '127.0.0.1', port, path: '/v1/customers', headers: { 'X-Padding': 'x'.repeat(20_000) } }, (incoming) => {
        let body = '';
        incoming.on('data', (chunk: Buffer) => (body += chunk.toString()));
        incoming.on('end', () => resolve({ status: incoming.statusCode!, type: String(incoming.headers['content-type']), body }));
      });
      outgoing.on('error', reject);
      outgoing.end();
    });
    expect(answer.status).toBe(431);
    expect(answer.type).toMatch(/^application\/problem\+json/);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 431, problem: 'request.headers_too_large' });
  });
});
