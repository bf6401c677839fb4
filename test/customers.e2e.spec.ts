import { TallyUnderTest, type TestTenant } from './support/tally';

describe('customers through the HTTP API', () => {
  let tally: TallyUnderTest;
  let acme: TestTenant;
  let api: ReturnType<TallyUnderTest['as']>;

  beforeAll(async () => ({ tally, acme, api } = await TallyUnderTest.withTenant()));

  afterAll(() => tally.stop());

  const create = async (body: object) => {
    const response = await api.post('/v1/customers', body).expect(200);
    return response.body as { id: string } & Record<string, unknown>;
  };

  describe('POST /v1/customers', () => {
    it('creates a customer and answers with it and its ETag', async () => {
      const response = await api
        .post('/v1/customers', {
          email: 'ada@example.com',
          name: 'Ada Lovelace',
          billing_address: { line1: '1 Analytical Row', city: 'London', country: 'GB', postal_code: 'N1' },
          metadata: { crm_id: '42' },
        })
        .expect(200);
      expect(response.headers['etag']).toBe('W/"0"');
      expect(response.body).toEqual({
        id: expect.stringMatching(/^cus_[0-9A-Z]{26}$/),
        object: 'customer',
        email: 'ada@example.com',
        name: 'Ada Lovelace',
        billing_address: { line1: '1 Analytical Row', city: 'London', region: null, country: 'GB', postal_code: 'N1' },
        metadata: { crm_id: '42' },
        default_payment_method_id: null,
        tax_ids: [],
        tax_id_invalid: false,
        test_clock: null,
        livemode: false,
        created_at: tally.clock.now().toISOString(),
        updated_at: tally.clock.now().toISOString(),
      });
    });

    it('reads back what it wrote, from the read model', async () => {
      const customer = await create({ email: 'grace@example.com', name: 'Grace' });
      await tally.settle();
      const response = await api.get(`/v1/customers/${customer.id}`).expect(200);
      expect(response.body).toEqual(customer);
      expect(response.headers['etag']).toBe('W/"0"');
    });
  });

  describe('bad input appends nothing', () => {
    const refusals: [string, () => Promise<{ status: number; body: Record<string, unknown>; headers: Record<string, string> }>, number, string][] = [
      ['malformed JSON', () => api.post('/v1/customers').set('Content-Type', 'application/json').send('{"email":'), 400, 'request.malformed_json'],
      ['an unknown field', () => api.post('/v1/customers', { email: 'a@example.com', nickname: 'x' }), 400, 'request.invalid_body'],
      ['a mistyped field', () => api.post('/v1/customers', { email: 42 }), 400, 'request.invalid_body'],
      ['a null test clock (leave it out instead)', () => api.post('/v1/customers', { email: 'a@example.com', test_clock: null }), 400, 'request.invalid_body'],
      ['a nested mistyped field', () => api.post('/v1/customers', { billing_address: { country: 'germany' } }), 400, 'request.invalid_body'],
      ['an unassigned country code', () => api.post('/v1/customers', { billing_address: { country: 'XX' } }), 400, 'request.invalid_body'],
      ['an unassigned country code in an update', () => api.patch('/v1/customers/cus_01JNOPE000000000000000000', { billing_address: { country: 'XX' } }), 400, 'request.invalid_body'],
      ['a body that is not an object', () => api.post('/v1/customers').set('Content-Type', 'application/json').send('[1,2]'), 400, 'request.invalid_body'],
      ['too many metadata keys', () => api.post('/v1/customers', { metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v'])) }), 400, 'request.invalid_metadata'],
      ['a metadata value over 500 bytes', () => api.post('/v1/customers', { metadata: { note: 'x'.repeat(501) } }), 400, 'request.invalid_metadata'],
      ['a non-string metadata value', () => api.post('/v1/customers', { metadata: { n: 5 } }), 400, 'request.invalid_metadata'],
      ['a body that is not JSON', () => api.post('/v1/customers').set('Content-Type', 'text/plain').send('email=a'), 415, 'request.unsupported_media_type'],
      ['an unknown customer', () => api.patch('/v1/customers/cus_01JNOPE000000000000000000', { name: 'x' }), 404, 'customer.not_found'],
      ['an unsupported tax ID type', () => api.post('/v1/customers/cus_01JNOPE000000000000000000/tax-ids', { type: 'eu_vat', value: '' }), 400, 'request.invalid_body'],
    ];

    it.each(refusals)('refuses %s with problem+json', async (_name, send, status, code) => {
      const before = await tally.head();
      const response = await send();
      expect(response.status).toBe(status);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(response.body).toMatchObject({ status, problem: code, type: expect.stringContaining(code), title: expect.any(String), detail: expect.any(String) });
      expect(response.body.trace_id).toBe(response.headers['request-id']);
      expect(await tally.head()).toBe(before);
    });

    it('lists the failing fields with their paths', async () => {
      const response = await api.post('/v1/customers', { nickname: 'x', billing_address: { country: 'germany' } }).expect(400);
      const fields = (response.body.errors as { field: string }[]).map((e) => e.field).sort();
      expect(fields).toEqual(['billing_address.country', 'nickname']);
    });

    it('names a country code that ISO 3166-1 does not assign', async () => {
      const response = await api.post('/v1/customers', { billing_address: { city: 'Nowhere', country: 'XX' } }).expect(400);
      expect(response.body.errors).toEqual([{ field: 'billing_address.country', code: 'field.isCountryCode', message: expect.any(String) }]);
    });
  });

  describe('authentication and tenancy', () => {
    it('refuses a request without a key, and one with an unknown key', async () => {
      const missing = await tally.http().get('/v1/customers').expect(401);
      expect(missing.body.problem).toBe('auth.missing_api_key');
      const unknown = await tally.as('sk_test_unknownunknownunknown').get('/v1/customers').expect(401);
      expect(unknown.body.problem).toBe('auth.invalid_api_key');
    });

    it('routes paths case-sensitively, so no other spelling of a path slips past authentication', async () => {
      expect((await tally.http().get('/V1/customers').expect(404)).body.problem).toBe('route.not_found');
      expect((await api.get('/v1/Customers').expect(404)).body.problem).toBe('route.not_found');
    });

    it("answers 404 for another tenant's customer, and for the other environment's", async () => {
      const customer = await create({ email: 'private@example.com' });
      await tally.settle();
      const globex = await tally.tenant('Globex', 'eu');
      const before = await tally.head();
      for (const key of [globex.sandbox, acme.live]) {
        const other = tally.as(key);
        expect((await other.get(`/v1/customers/${customer.id}`).expect(404)).body.problem).toBe('customer.not_found');
        await other.patch(`/v1/customers/${customer.id}`, { name: 'stolen' }).expect(404);
        expect((await other.get(`/v1/customers/${customer.id}?as_of=2030-01-01T00:00:00Z`).expect(404)).body.problem).toBe('customer.not_found');
        expect((await other.get('/v1/customers').expect(200)).body.data.map((c: { id: string }) => c.id)).not.toContain(customer.id);
      }
      expect(await tally.head()).toBe(before);
    });
  });

  describe('PATCH /v1/customers/{id}', () => {
    it('updates non-financial fields and merges metadata', async () => {
      const customer = await create({ email: 'linus@example.com', metadata: { a: '1', b: '2' } });
      const method = (await api.post(`/v1/customers/${customer.id}/payment-methods`, { type: 'card', token: 'tok_visa' }).expect(200)).body as { id: string };
      tally.clock.advance(1_000);
      const response = await api.patch(`/v1/customers/${customer.id}`, { name: 'Linus', metadata: { a: '', c: '3' }, default_payment_method_id: method.id }).expect(200);
      expect(response.body).toMatchObject({ name: 'Linus', metadata: { b: '2', c: '3' }, default_payment_method_id: method.id, updated_at: tally.clock.now().toISOString() });
      // Created, the method attached, the fields updated, the default changed.
      expect(response.headers['etag']).toBe('W/"3"');
    });

    it('refuses a default payment method the customer does not have, and changes nothing', async () => {
      const customer = await create({ name: 'Pat' });
      const head = await tally.head();
      const response = await api.patch(`/v1/customers/${customer.id}`, { name: 'Patricia', default_payment_method_id: 'pm_01JD8X5Z3Q4W2R6T8Y0V1B3N5M' }).expect(422);
      expect(response.body).toMatchObject({ problem: 'customer.payment_method_not_attached', errors: [{ field: 'default_payment_method_id', code: 'customer.payment_method_not_attached' }] });
      expect(await tally.head()).toBe(head);
    });

    it('answers 412 when If-Match names an old revision, and applies nothing', async () => {
      const customer = await create({ name: 'Old' });
      await api.patch(`/v1/customers/${customer.id}`, { name: 'New' }).set('If-Match', 'W/"0"').expect(200);
      const stale = await api.patch(`/v1/customers/${customer.id}`, { name: 'Lost' }).set('If-Match', 'W/"0"').expect(412);
      expect(stale.body.problem).toBe('request.precondition_failed');
      await tally.settle();
      expect((await api.get(`/v1/customers/${customer.id}`)).body.name).toBe('New');
    });

    describe('billing_address', () => {
      const berlin = { line1: 'Unter den Linden 1', city: 'Berlin', region: 'BE', country: 'DE', postal_code: '10117' };

      it('merges the fields sent into the address, and null clears one', async () => {
        const customer = await create({ billing_address: berlin });
        const moved = await api.patch(`/v1/customers/${customer.id}`, { billing_address: { city: 'Munich', region: 'BY' } }).expect(200);
        expect(moved.body.billing_address).toEqual({ ...berlin, city: 'Munich', region: 'BY' });
        const cleared = await api.patch(`/v1/customers/${customer.id}`, { billing_address: { line1: null, postal_code: '80331' } }).expect(200);
        expect(cleared.body.billing_address).toEqual({ line1: null, city: 'Munich', region: 'BY', country: 'DE', postal_code: '80331' });
        await tally.settle();
        expect((await api.get(`/v1/customers/${customer.id}`).expect(200)).body.billing_address).toEqual(cleared.body.billing_address);
      });

      it('removes the whole address when it is sent as null', async () => {
        const customer = await create({ billing_address: berlin });
        expect((await api.patch(`/v1/customers/${customer.id}`, { billing_address: null }).expect(200)).body.billing_address).toBeNull();
      });

      it('stores the merged address, so the log replays it, and customer.updated shows the old one', async () => {
        const customer = await create({ billing_address: berlin });
        tally.clock.advance(1_000);
        const createdAt = tally.clock.now();
        tally.clock.advance(1_000);
        await api.patch(`/v1/customers/${customer.id}`, { billing_address: { city: 'Munich' } }).expect(200);
        await tally.settle();
        const history = await api.get(`/v1/admin/aggregates/${customer.id}/history`).expect(200);
        expect(history.body.data[1]).toMatchObject({ type: 'CustomerUpdated', data: { billing_address: { ...berlin, city: 'Munich' } } });
        const events = await api.get(`/v1/events?type=customer.updated&aggregate_id=${customer.id}`).expect(200);
        expect(events.body.data).toHaveLength(1);
        expect(events.body.data[0].data.billing_address).toEqual({ ...berlin, city: 'Munich' });
        expect(events.body.data[0].previous_attributes.billing_address).toEqual(berlin);
        const before = await api.get(`/v1/customers/${customer.id}?as_of=${createdAt.toISOString()}`).expect(200);
        expect(before.body.billing_address).toEqual(berlin);
      });

      it('appends nothing when the merged address is the address as it is', async () => {
        const customer = await create({ billing_address: berlin });
        const before = await tally.head();
        const response = await api.patch(`/v1/customers/${customer.id}`, { billing_address: { city: 'Berlin' } }).expect(200);
        expect(response.headers['etag']).toBe('W/"0"');
        expect(await tally.head()).toBe(before);
      });
    });

    it('loses no update when writers race', async () => {
      const customer = await create({ metadata: {} });
      await Promise.all(Array.from({ length: 10 }, (_, i) => api.patch(`/v1/customers/${customer.id}`, { metadata: { [`k${i}`]: String(i) } }).expect(200)));
      await tally.settle();
      const { body } = await api.get(`/v1/customers/${customer.id}`).expect(200);
      expect(Object.keys(body.metadata)).toHaveLength(10);
    });
  });

  describe('GET /v1/customers', () => {
    let tenantApi: ReturnType<TallyUnderTest['as']>;

    beforeAll(async () => {
      const lister = await tally.tenant('Lister', 'us');
      tenantApi = tally.as(lister.sandbox);
      for (const email of ['dora@example.com', 'bob@example.com', 'alice@example.com', 'carol@example.com', 'bert@example.com']) {
        tally.clock.advance(1_000);
        await tenantApi.post('/v1/customers', { email }).expect(200);
      }
      await tally.settle();
    });

    it('pages newest first by default, with a cursor and no total', async () => {
      const first = await tenantApi.get('/v1/customers?limit=2').expect(200);
      expect(first.body.data.map((c: { email: string }) => c.email)).toEqual(['bert@example.com', 'carol@example.com']);
      expect(first.body).toMatchObject({ object: 'list', has_more: true, next_cursor: expect.any(String) });
      expect(first.body).not.toHaveProperty('total');
      const emails: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { body: { data: { email: string }[]; next_cursor: string | null; has_more: boolean } } = await tenantApi.get(`/v1/customers?limit=2${cursor ? `&cursor=${cursor}` : ''}`).expect(200);
        emails.push(...page.body.data.map((c) => c.email));
        cursor = page.body.next_cursor;
        if (!page.body.has_more) expect(cursor).toBeNull();
      } while (cursor);
      expect(emails).toEqual(['bert@example.com', 'carol@example.com', 'alice@example.com', 'bob@example.com', 'dora@example.com']);
    });

    it('sorts by email and filters by prefix', async () => {
      const sorted = await tenantApi.get('/v1/customers?sort=email:asc').expect(200);
      expect(sorted.body.data.map((c: { email: string }) => c.email)).toEqual(['alice@example.com', 'bert@example.com', 'bob@example.com', 'carol@example.com', 'dora@example.com']);
      const filtered = await tenantApi.get('/v1/customers?sort=email:asc&email[starts]=b').expect(200);
      expect(filtered.body.data.map((c: { email: string }) => c.email)).toEqual(['bert@example.com', 'bob@example.com']);
    });

    it('refuses a cursor used with another sort', async () => {
      const first = await tenantApi.get('/v1/customers?limit=1&sort=email:asc').expect(200);
      const response = await tenantApi.get(`/v1/customers?limit=1&sort=created_at:desc&cursor=${first.body.next_cursor}`).expect(400);
      expect(response.body.problem).toBe('pagination.cursor_invalid');
    });

    it('refuses unknown filters, sorts and limits', async () => {
      for (const query of ['name=x', 'sort=name:asc', 'limit=101', 'limit=0', 'email[gte]=a', 'cursor=garbage']) {
        const response = await tenantApi.get(`/v1/customers?${query}`).expect(400);
        expect(response.headers['content-type']).toMatch(/problem\+json/);
      }
    });
  });

  describe('tax IDs', () => {
    it('validates a tax ID asynchronously and keeps a valid one', async () => {
      const customer = await create({ name: 'Deutsche Firma' });
      const added = await api.post(`/v1/customers/${customer.id}/tax-ids`, { type: 'eu_vat', value: 'DE 136 695 976' }).expect(200);
      expect(added.body).toMatchObject({ object: 'tax_id', type: 'eu_vat', verification: { status: 'pending' } });
      await tally.settle();
      const { body } = await api.get(`/v1/customers/${customer.id}`).expect(200);
      expect(body.tax_ids[0]).toMatchObject({ verification: { status: 'verified' }, country: 'DE' });
      expect(body.tax_id_invalid).toBe(false);
    });

    it('marks the customer tax_id_invalid and emits customer.tax_id_invalidated for an invalid one', async () => {
      const customer = await create({ name: 'Broken VAT' });
      await api.post(`/v1/customers/${customer.id}/tax-ids`, { type: 'eu_vat', value: 'DE136695977' }).expect(200);
      await tally.settle();
      expect((await api.get(`/v1/customers/${customer.id}`)).body.tax_id_invalid).toBe(true);
      const events = await api.get(`/v1/events?type=customer.tax_id_invalidated&aggregate_id=${customer.id}`).expect(200);
      expect(events.body.data).toHaveLength(1);
      expect(events.body.data[0].data.tax_id_invalid).toBe(true);
    });

    describe('GET /v1/customers/{id}/tax-ids', () => {
      it('lists the tax IDs newest first, a page at a time', async () => {
        const customer = await create({ name: 'Many VATs' });
        const added: string[] = [];
        for (const value of ['DE136695976', 'FR40303265045', 'ATU13585627']) {
          tally.clock.advance(1_000);
          added.push((await api.post(`/v1/customers/${customer.id}/tax-ids`, { type: 'eu_vat', value }).expect(200)).body.id);
        }
        await tally.settle();
        const first = await api.get(`/v1/customers/${customer.id}/tax-ids?limit=2`).expect(200);
        expect(first.body).toEqual({ object: 'list', data: [expect.objectContaining({ id: added[2], object: 'tax_id' }), expect.objectContaining({ id: added[1] })], has_more: true, next_cursor: expect.any(String) });
        const last = await api.get(`/v1/customers/${customer.id}/tax-ids?limit=2&cursor=${first.body.next_cursor}`).expect(200);
        expect(last.body).toEqual({ object: 'list', data: [expect.objectContaining({ id: added[0], value: 'DE136695976' })], has_more: false, next_cursor: null });
        const oldest = await api.get(`/v1/customers/${customer.id}/tax-ids?sort=created_at:asc&limit=1`).expect(200);
        expect(oldest.body.data.map((t: { id: string }) => t.id)).toEqual([added[0]]);
        const { body } = await api.get(`/v1/customers/${customer.id}`).expect(200);
        expect((await api.get(`/v1/customers/${customer.id}/tax-ids?sort=created_at:asc`).expect(200)).body.data).toEqual(body.tax_ids);
      });

      it('answers an empty list for a customer without tax IDs, and refuses parameters it does not know', async () => {
        const customer = await create({});
        await tally.settle();
        expect((await api.get(`/v1/customers/${customer.id}/tax-ids`).expect(200)).body).toEqual({ object: 'list', data: [], has_more: false, next_cursor: null });
        expect((await api.get(`/v1/customers/${customer.id}/tax-ids?type=eu_vat`).expect(400)).body.problem).toBe('request.invalid_parameter');
        expect((await api.get(`/v1/customers/${customer.id}/tax-ids?limit=101`).expect(400)).body.problem).toBe('request.invalid_parameter');
      });

      it("answers 404 for an unknown customer and for another tenant's", async () => {
        const customer = await create({});
        await tally.settle();
        expect((await api.get('/v1/customers/cus_01JNOPE000000000000000000/tax-ids').expect(404)).body.problem).toBe('customer.not_found');
        expect((await tally.as(acme.live).get(`/v1/customers/${customer.id}/tax-ids`).expect(404)).body.problem).toBe('customer.not_found');
      });
    });

    describe('DELETE /v1/customers/{id}/tax-ids/{tax_id_id}', () => {
      const addTaxId = async (customerId: string, value: string): Promise<string> =>
        (await api.post(`/v1/customers/${customerId}/tax-ids`, { type: 'eu_vat', value }).expect(200)).body.id;

      it('answers as Stripe does, and the tax ID leaves the customer and its list', async () => {
        const customer = await create({ name: 'Tidy GmbH' });
        const kept = await addTaxId(customer.id, 'DE136695976');
        const gone = await addTaxId(customer.id, 'FR40303265045');
        await tally.settle();
        const response = await api.delete(`/v1/customers/${customer.id}/tax-ids/${gone}`).expect(200);
        expect(response.body).toEqual({ id: gone, object: 'tax_id', deleted: true });
        expect(response.headers['etag']).toBe('W/"5"');
        await tally.settle();
        expect((await api.get(`/v1/customers/${customer.id}`).expect(200)).body.tax_ids.map((t: { id: string }) => t.id)).toEqual([kept]);
        expect((await api.get(`/v1/customers/${customer.id}/tax-ids`).expect(200)).body.data.map((t: { id: string }) => t.id)).toEqual([kept]);
      });

      it('clears tax_id_invalid with the last invalid tax ID, and customer.updated carries the change', async () => {
        const customer = await create({ name: 'Twice Wrong' });
        const wrongHere = await addTaxId(customer.id, 'DE136695977');
        const wrongThere = await addTaxId(customer.id, 'FR00000000000');
        await addTaxId(customer.id, 'DE136695976');
        await tally.settle();
        expect((await api.get(`/v1/customers/${customer.id}`).expect(200)).body.tax_id_invalid).toBe(true);

        await api.delete(`/v1/customers/${customer.id}/tax-ids/${wrongHere}`).expect(200);
        await tally.settle();
        expect((await api.get(`/v1/customers/${customer.id}`).expect(200)).body.tax_id_invalid).toBe(true);

        await api.delete(`/v1/customers/${customer.id}/tax-ids/${wrongThere}`).expect(200);
        await tally.settle();
        const { body } = await api.get(`/v1/customers/${customer.id}`).expect(200);
        expect(body).toMatchObject({ tax_id_invalid: false, tax_ids: [expect.objectContaining({ value: 'DE136695976', verification: { status: 'verified', reason: null } })] });

        const events = await api.get(`/v1/events?type=customer.updated&aggregate_id=${customer.id}&limit=1`).expect(200);
        const [deleted] = events.body.data;
        expect(deleted.data).toEqual(body);
        expect(deleted.previous_attributes.tax_id_invalid).toBe(true);
        expect(deleted.previous_attributes.tax_ids.map((t: { id: string }) => t.id)).toEqual([wrongThere, body.tax_ids[0].id]);
      });

      it('deletes a tax ID whether or not its validation ran, and nothing is recorded for it afterwards', async () => {
        const customer = await create({ name: 'Quick Change' });
        const hasty = await addTaxId(customer.id, 'DE136695977');
        await api.delete(`/v1/customers/${customer.id}/tax-ids/${hasty}`).expect(200);
        await tally.settle();
        const history = await api.get(`/v1/admin/aggregates/${customer.id}/history`).expect(200);
        expect(history.body.data.map((e: { type: string }) => e.type).at(-1)).toBe('CustomerTaxIdDeleted');
        expect((await api.get(`/v1/customers/${customer.id}`).expect(200)).body).toMatchObject({ tax_ids: [], tax_id_invalid: false });
      });

      it('answers 404 and appends nothing for a tax ID deleted already, unknown, or of another customer', async () => {
        const customer = await create({});
        const other = await create({});
        const taxId = await addTaxId(customer.id, 'DE136695976');
        await api.delete(`/v1/customers/${customer.id}/tax-ids/${taxId}`).expect(200);
        await tally.settle();
        const before = await tally.head();
        for (const [path, problem] of [
          [`/v1/customers/${customer.id}/tax-ids/${taxId}`, 'tax_id.not_found'],
          [`/v1/customers/${customer.id}/tax-ids/txi_01JNOPE000000000000000000`, 'tax_id.not_found'],
          [`/v1/customers/${other.id}/tax-ids/${taxId}`, 'tax_id.not_found'],
          [`/v1/customers/cus_01JNOPE000000000000000000/tax-ids/${taxId}`, 'customer.not_found'],
        ]) {
          const response = await api.delete(path).expect(404);
          expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
          expect(response.body.problem).toBe(problem);
        }
        expect((await tally.as(acme.live).delete(`/v1/customers/${customer.id}/tax-ids/${taxId}`).expect(404)).body.problem).toBe('customer.not_found');
        expect(await tally.head()).toBe(before);
      });
    });

    it('refuses an unsupported type with a clear code', async () => {
      const customer = await create({});
      const response = await api.post(`/v1/customers/${customer.id}/tax-ids`, { type: 'us_ein', value: '12-3456789' }).expect(400);
      expect(response.body.problem).toBe('tax_id.unsupported_type');
    });
  });
});
