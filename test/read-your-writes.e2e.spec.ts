import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import type { IdGenerator } from '@tally/kernel';
import { ID_GENERATOR, readConfig } from '@tally/cells';
import { CommandRuntime } from '@tally/runtime';
import { TenantAdministration } from '@tally/tenancy';
import { createApp } from '../apps/api/src/create-app';
import { OPERATOR_KEY, TallyUnderTest, type TestTenant } from './support/tally';

/** The worker thread loads the TypeScript sources as a test's child processes do. */
const TS_LOADER = ['-r', join(__dirname, 'support', 'ts-child.js')];

/** A write the API acknowledged is what the next read shows: retrieves, lists, right after a start too. */
describe('read-your-writes', () => {
  let tally: TallyUnderTest;
  let acme: TestTenant;
  let api: ReturnType<TallyUnderTest['as']>;

  beforeAll(async () => {
    ({ tally, acme, api } = await TallyUnderTest.withTenant());
    await tally.liftRateLimits(acme.tenantId);
  });

  afterAll(() => tally.stop());

  it('answers a retrieve sent straight after its create or update with what was written, never 404 or the older state', async () => {
    for (let i = 0; i < 100; i++) {
      const { body: created } = await api.post('/v1/customers', { email: `pair${i}@example.com`, name: 'Before' }).expect(200);
      expect((await api.get(`/v1/customers/${created.id}`).expect(200)).body).toEqual(created);
      const { body: updated } = await api.patch(`/v1/customers/${created.id}`, { name: 'After' }).expect(200);
      expect((await api.get(`/v1/customers/${created.id}`).expect(200)).body).toEqual(updated);
    }
  });

  it('answers every kind of resource at once: plans by code, subscriptions, payment methods, webhook endpoints', async () => {
    const { body: customer } = await api.post('/v1/customers', { email: 'kinds@example.com' }).expect(200);
    const { body: method } = await api.post(`/v1/customers/${customer.id}/payment-methods`, { type: 'card', token: 'tok_visa', set_as_default: true }).expect(200);
    expect((await api.get(`/v1/payment-methods/${method.id}`).expect(200)).body).toMatchObject({ id: method.id, is_default: true });
    const plan = { code: 'ryw-basic', product_code: 'ryw', currency: 'EUR', interval: 'month', interval_count: 1 };
    await api.post('/v1/plans', plan).expect(200);
    await api.post('/v1/plans/ryw-basic/components', { code: 'base', pricing: { model: 'flat', amount: '10.00' } }).expect(200);
    expect((await api.get('/v1/plans/ryw-basic').expect(200)).body.components).toHaveLength(1);
    const { body: subscription } = await api.post('/v1/subscriptions', { customer_id: customer.id, plan_code: 'ryw-basic' }).expect(200);
    expect((await api.get(`/v1/subscriptions/${subscription.id}`).expect(200)).body).toMatchObject({ id: subscription.id, status: subscription.status });
    const { body: endpoint } = await api.post('/v1/admin/webhook-endpoints', { url: 'https://example.com/hooks', events: ['*'] }).expect(200);
    expect((await api.get(`/v1/admin/webhook-endpoints/${endpoint.id}`).expect(200)).body.id).toBe(endpoint.id);
  });

  it('lists what the caller just wrote', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) ids.push((await api.post('/v1/customers', { email: `listed${i}@example.org` }).expect(200)).body.id);
    const { body } = await api.get('/v1/customers?email[starts]=listed&limit=100').expect(200);
    expect(body.data.map((c: { id: string }) => c.id).sort()).toEqual([...ids].sort());
  });

  it('answers a retrieve and a list of the other tenants’ resources as before: 404 and nothing', async () => {
    const other = await tally.tenant('Other', 'eu');
    const { body: theirs } = await tally.as(other.sandbox).post('/v1/customers', { email: 'theirs@example.com' }).expect(200);
    expect((await api.get(`/v1/customers/${theirs.id}`).expect(404)).body.problem).toBe('customer.not_found');
    expect((await api.get('/v1/customers?email[starts]=theirs').expect(200)).body.data).toEqual([]);
  });

  it('shows a test clock advancing, or at its new time, straight after the advance: never ready at the old time', async () => {
    const { body: clock } = await api.post('/v1/test-clocks', { frozen_time: '2026-05-01T00:00:00Z' }).expect(200);
    for (const day of ['02', '03', '04', '05', '06']) {
      const frozen_time = `2026-05-${day}T00:00:00.000Z`;
      await api.post(`/v1/test-clocks/${clock.id}/advance`, { frozen_time }).expect(200);
      const { body } = await api.get(`/v1/test-clocks/${clock.id}`).expect(200);
      expect(body.status === 'advancing' || (body.status === 'ready' && body.frozen_time === frozen_time)).toBe(true);
      expect(body.frozen_time).toBe(frozen_time);
      // The next advance waits for this one to finish, as an advance while the clock is advancing is refused (409).
      await tally.settle();
    }
  });

  it('answers a retrieve straight after a restart with what was written before it', async () => {
    const written: { id: string; email: string }[] = [];
    for (let i = 0; i < 30; i++) written.push((await api.post('/v1/customers', { email: `restart${i}@example.com` }).expect(200)).body);
    await tally.stop({ keepData: true });
    tally = await TallyUnderTest.start({ dataDir: tally.dataDir, clock: tally.clock });
    api = tally.as(acme.sandbox);
    for (const customer of written) expect((await api.get(`/v1/customers/${customer.id}`).expect(200)).body.email).toBe(customer.email);
    expect((await api.get('/v1/customers?email[starts]=restart&limit=100').expect(200)).body.data).toHaveLength(written.length);
  });
});

describe('read-your-writes with the worker in a thread of its own, as npm start runs it', () => {
  let dataDir: string;
  let app: NestExpressApplication | undefined;
  let sandbox: string;

  const start = async () => {
    // The thread compiles the TypeScript sources as it boots, which takes a loaded CI machine far longer than a compiled start.
    const config = readConfig({ TALLY_DATA_DIR: dataDir, TALLY_PROFILE: 'embedded', TALLY_OPERATOR_KEY: OPERATOR_KEY, TALLY_READ_WAIT_MS: '300000' });
    app = await createApp({ config, worker: 'thread', workerExecArgv: TS_LOADER }, { logger: false });
    await app.init();
    return app;
  };
  const api = () => ({
    get: (path: string) => request(app!.getHttpServer()).get(path).set('Authorization', `Bearer ${sandbox}`),
    post: (path: string, body: object) => request(app!.getHttpServer()).post(path).set('Authorization', `Bearer ${sandbox}`).send(body),
  });

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tally-ryw-'));
    await start();
    const created = await new TenantAdministration(app!.get(CommandRuntime), app!.get<IdGenerator>(ID_GENERATOR)).createTenant('Threaded', 'eu');
    sandbox = created.keys.find((k) => k.environment === 'sandbox')!.secret;
    const unlimited = { read: 1_000_000, write: 1_000_000, money: 1_000_000, usage: 1_000_000, admin: 1_000_000 };
    await request(app!.getHttpServer()).patch(`/v1/operator/tenants/${created.tenantId}`).set('Authorization', `Bearer ${OPERATOR_KEY}`).send({ rate_limits: unlimited }).expect(200);
  }, 300_000);

  afterAll(async () => {
    await app?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers each retrieve sent straight after its create', async () => {
    for (let i = 0; i < 100; i++) {
      const { body } = await api().post('/v1/customers', { email: `thread${i}@example.com` }).expect(200);
      expect((await api().get(`/v1/customers/${body.id}`).expect(200)).body).toEqual(body);
    }
    expect((await api().get('/v1/customers?email[starts]=thread&limit=100').expect(200)).body.data).toHaveLength(100);
  }, 300_000);

  it('answers the first requests after a restart with what was written before it, while the worker thread boots', async () => {
    const written: { id: string; email: string }[] = [];
    for (let i = 0; i < 20; i++) written.push((await api().post('/v1/customers', { email: `before-restart${i}@example.com` }).expect(200)).body);
    await app!.close();
    // A fresh read model: the worker thread rebuilds it from the log after the restart, so nothing the requests read is there when they come.
    const db = new Database(join(dataDir, 'eu.sqlite'));
    db.exec("DELETE FROM rm_customers; DELETE FROM rm_checkpoints WHERE name = 'customers'");
    db.close();
    await start();
    expect((await api().get('/v1/customers?email[starts]=before-restart&limit=100').expect(200)).body.data).toHaveLength(written.length);
    for (const customer of written) expect((await api().get(`/v1/customers/${customer.id}`).expect(200)).body.email).toBe(customer.email);
  }, 300_000);
});
