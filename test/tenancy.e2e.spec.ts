import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TallyUnderTest } from './support/tally';

describe('tenants, regions, keys and the audit log (operator API)', () => {
  let tally: TallyUnderTest;
  let operator: ReturnType<TallyUnderTest['operator']>;

  beforeAll(async () => {
    tally = await TallyUnderTest.start();
    operator = tally.operator();
  });

  afterAll(() => tally.stop());

  const createTenant = async (name: string, region: string) => {
    const response = await operator.post('/v1/operator/tenants', { name, region, reason: 'onboarding' }).expect(200);
    await tally.settle();
    const key = (environment: string) => response.body.api_keys.find((k: { environment: string }) => k.environment === environment).secret as string;
    return { tenant: response.body, live: key('live'), sandbox: key('sandbox') };
  };

  it('creates a tenant in its region with a live and a sandbox key, shown once', async () => {
    const { tenant, live, sandbox } = await createTenant('Acme', 'eu');
    expect(tenant).toMatchObject({ id: expect.stringMatching(/^ten_/), object: 'tenant', name: 'Acme', region: 'eu', api_version: '2026-04-01', rate_limits: {} });
    expect(live).toMatch(/^sk_live_/);
    expect(sandbox).toMatch(/^sk_test_/);
    await tally.as(live).get('/v1/customers').expect(200);
    await tally.as(sandbox).get('/v1/customers').expect(200);
    const again = await operator.get(`/v1/operator/tenants/${tenant.id}`).expect(200);
    expect(again.body.api_keys.map((k: { secret?: string }) => k.secret)).toEqual([undefined, undefined]);
    expect(again.body.api_keys.map((k: { last4: string }) => k.last4)).toEqual([live.slice(-4), sandbox.slice(-4)]);
  });

  it('refuses the operator API without the operator key, and with an API key', async () => {
    const { sandbox } = await createTenant('Nosy', 'us');
    expect((await tally.http().post('/v1/operator/tenants').send({ name: 'x', region: 'eu' }).expect(401)).body.problem).toBe('auth.missing_operator_key');
    expect((await tally.as(sandbox).post('/v1/operator/tenants', { name: 'x', region: 'eu' }).expect(401)).body.problem).toBe('auth.invalid_operator_key');
  });

  it('keeps a region for life: changing it answers 409, naming one that does not exist 400, and neither changes anything', async () => {
    const { tenant } = await createTenant('Fixed', 'apac');
    const before = await tally.head('apac');
    const response = await operator.patch(`/v1/operator/tenants/${tenant.id}`, { region: 'us', name: 'Moved' }).expect(409);
    expect(response.body.problem).toBe('tenant.region_immutable');
    expect(await tally.head('apac')).toBe(before);
    await operator.patch(`/v1/operator/tenants/${tenant.id}`, { region: 'apac', name: 'Renamed' }).expect(200);
    const renamed = await tally.head('apac');
    const unknown = await operator.patch(`/v1/operator/tenants/${tenant.id}`, { region: 'mars', name: 'Lost' }).expect(400);
    expect(unknown.body).toMatchObject({ problem: 'request.invalid_body', errors: [expect.objectContaining({ field: 'region', code: 'field.isIn' })] });
    expect(await tally.head('apac')).toBe(renamed);
  });

  it('pins the API version and raises limits', async () => {
    const { tenant } = await createTenant('Pinned', 'eu');
    const response = await operator.patch(`/v1/operator/tenants/${tenant.id}`, { api_version: '2025-04-01', rate_limits: { read: 5000 }, reason: 'migration' }).expect(200);
    expect(response.body).toMatchObject({ api_version: '2025-04-01', rate_limits: { read: 5000 } });
    await operator.patch(`/v1/operator/tenants/${tenant.id}`, { api_version: '1999-01-01' }).expect(400);
    await operator.patch(`/v1/operator/tenants/${tenant.id}`, { rate_limits: { read: -1 } }).expect(400);
  });

  it('creates, rolls and revokes keys; a rolled or revoked key stops working', async () => {
    const { tenant, sandbox } = await createTenant('Keys', 'eu');
    const second = await operator.post(`/v1/operator/tenants/${tenant.id}/api-keys`, { environment: 'sandbox' }).expect(200);
    expect(second.body).toMatchObject({ object: 'api_key', environment: 'sandbox', status: 'active', secret: expect.stringMatching(/^sk_test_/) });
    // Both keys in use first, so the guard has them at hand when they are rolled and revoked.
    await tally.as(sandbox).get('/v1/customers').expect(200);
    await tally.as(second.body.secret).get('/v1/customers').expect(200);
    const sandboxKeyId = tenant.api_keys.find((k: { environment: string }) => k.environment === 'sandbox').id;
    const rolled = await operator.post(`/v1/operator/tenants/${tenant.id}/api-keys/${sandboxKeyId}/roll`, { reason: 'leaked' }).expect(200);
    expect(rolled.body).toMatchObject({ environment: 'sandbox', rolled_from: sandboxKeyId, secret: expect.stringMatching(/^sk_test_/) });
    await operator.post(`/v1/operator/tenants/${tenant.id}/api-keys/${second.body.id}/revoke`, {}).expect(200);
    // Refused from the revoke's answer on, without waiting for anything.
    expect((await tally.as(sandbox).get('/v1/customers').expect(401)).body.problem).toBe('auth.invalid_api_key');
    await tally.as(second.body.secret).get('/v1/customers').expect(401);
    await tally.as(rolled.body.secret).get('/v1/customers').expect(200);
    const roll = await operator.post(`/v1/operator/tenants/${tenant.id}/api-keys/${second.body.id}/roll`, {}).expect(409);
    expect(roll.body.problem).toBe('api_key.revoked');
    await operator.post(`/v1/operator/tenants/${tenant.id}/api-keys/key_unknown/revoke`, {}).expect(404);
  });

  it('records every operator action in the audit log with actor, reason, request id and a stable hash', async () => {
    const { tenant, live } = await createTenant('Audited', 'us');
    const keyId = tenant.api_keys[0].id;
    const revoke = await operator.post(`/v1/operator/tenants/${tenant.id}/api-keys/${keyId}/revoke`, { reason: 'employee left' });
    await tally.settle();
    const other = (await operator.post(`/v1/operator/tenants/${tenant.id}/api-keys`, { environment: 'live' }).expect(200)).body.secret;
    await tally.settle();
    const log = await tally.as(other).get('/v1/admin/audit-log?sort=created_at:asc').expect(200);
    expect(log.body.data.map((e: { action: string }) => e.action)).toEqual([
      'tenant.created',
      'tenant.api_version_pinned',
      'api_key.created',
      'api_key.created',
      'api_key.revoked',
      'api_key.created',
    ]);
    const revoked = await tally.as(other).get(`/v1/admin/audit-log?subject_type=api_key&subject_id=${keyId}&action=api_key.revoked`).expect(200);
    expect(revoked.body.data).toEqual([
      {
        id: expect.stringMatching(/^aud_/),
        object: 'audit_entry',
        tenant_id: tenant.id,
        actor: 'operator',
        action: 'api_key.revoked',
        subject_type: 'api_key',
        subject_id: keyId,
        reason: 'employee left',
        created_at: expect.any(String),
        request_id: revoke.headers['request-id'],
        fields_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      },
    ]);
    await tally.as(live).get('/v1/admin/audit-log').expect(401);
  });

  it("writes nothing of an eu tenant's data to the us or apac stores", async () => {
    const { tenant, sandbox } = await createTenant('Euro Only', 'eu');
    const api = tally.as(sandbox);
    const customer = (await api.post('/v1/customers', { email: 'eu-only@example.com', name: 'Euro Person' }).expect(200)).body;
    await api.patch(`/v1/customers/${customer.id}`, { metadata: { marker: 'eu-resident' } }).expect(200);
    await api.post(`/v1/customers/${customer.id}/tax-ids`, { type: 'eu_vat', value: 'DE136695976' }).expect(200);
    await tally.settle();

    const files = (region: string) => readdirSync(tally.dataDir).filter((f) => f.startsWith(`${region}.sqlite`));
    const bytes = (region: string) => Buffer.concat(files(region).map((f) => readFileSync(join(tally.dataDir, f))));
    for (const marker of [tenant.id, customer.id]) {
      expect(bytes('eu').includes(marker)).toBe(true);
      expect(bytes('us').includes(marker)).toBe(false);
      expect(bytes('apac').includes(marker)).toBe(false);
    }
    for (const region of ['us', 'apac'] as const) {
      const cell = tally.cells.cell(region);
      const all = await cell.events.readAll({ limit: 100_000 });
      expect(all.filter((e) => e.metadata.tenant_id === tenant.id)).toEqual([]);
      for (const collection of ['customers', 'events', 'audit_log', 'timers']) {
        expect((await cell.readModels.all(collection)).filter((d) => JSON.stringify(d).includes(tenant.id))).toEqual([]);
      }
    }
  });
});
