import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import type { IdGenerator } from '@tally/kernel';
import { CellRegistry, ID_GENERATOR, readConfig } from '@tally/cells';
import { CommandRuntime, WorkerThreadHost } from '@tally/runtime';
import { TenantAdministration } from '@tally/tenancy';
import { createApp } from '../apps/api/src/create-app';

const OPERATOR_KEY = 'operator-test-secret';
/** The thread loads the TypeScript sources as a test's child processes do. */
const TS_LOADER = ['-r', join(__dirname, 'support', 'ts-child.js')];
/** Far below the subscriptions' 250 ms fallback poll, far above a projection's few milliseconds. */
const WOKEN_WITHIN_MS = 50;

describe('the embedded worker in a thread of its own (npm start)', () => {
  let dataDir: string;
  let app: NestExpressApplication;
  let host: WorkerThreadHost;
  let sandbox: string;
  let tenantId: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tally-thread-'));
    const config = readConfig({ TALLY_DATA_DIR: dataDir, TALLY_PROFILE: 'embedded', TALLY_OPERATOR_KEY: OPERATOR_KEY });
    app = await createApp({ config, worker: 'thread', workerExecArgv: TS_LOADER }, { logger: false });
    await app.init();
    host = app.get(WorkerThreadHost);
    const created = await new TenantAdministration(app.get(CommandRuntime), app.get<IdGenerator>(ID_GENERATOR)).createTenant('Threaded', 'eu');
    tenantId = created.tenantId;
    sandbox = created.keys.find((k) => k.environment === 'sandbox')!.secret;
    await host.settle();
  }, 120_000);

  afterAll(async () => {
    await app?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const api = (key: string) => ({
    get: (path: string) => request(app.getHttpServer()).get(path).set('Authorization', `Bearer ${key}`),
    post: (path: string, body: object) => request(app.getHttpServer()).post(path).set('Authorization', `Bearer ${key}`).send(body),
  });

  it('projects each write of the request thread at once, without waiting for a poll', async () => {
    const customers = app.get(CellRegistry).cell('eu').readModels;
    const delays: number[] = [];
    for (let i = 0; i < 10; i++) {
      const { body } = await api(sandbox).post('/v1/customers', { email: `ada${i}@example.com` }).expect(200);
      const written = performance.now();
      while (!(await customers.get('customers', body.id))) await new Promise((resolve) => setImmediate(resolve));
      delays.push(performance.now() - written);
    }
    const median = [...delays].sort((a, b) => a - b)[delays.length >> 1];
    expect(median).toBeLessThan(WOKEN_WITHIN_MS);
  });

  it('settles across the threads, so a read after settle sees every write', async () => {
    const { body } = await api(sandbox).post('/v1/customers', { email: 'grace@example.com', name: 'Grace' }).expect(200);
    await host.settle();
    expect((await api(sandbox).get(`/v1/customers/${body.id}`).expect(200)).body).toMatchObject({ id: body.id, name: 'Grace' });
  });

  it('sends webhooks from the services thread, whose attempt records the followers thread folds at once', async () => {
    const arrivals: number[] = [];
    const receiver: Server = createServer((req, res) => req.resume().on('end', () => res.end('ok', () => arrivals.push(performance.now()))));
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
      const { body: endpoint } = await api(sandbox).post('/v1/admin/webhook-endpoints', { url, events: ['customer.created'] }).expect(200);
      await host.settle();
      const deliveries = app.get(CellRegistry).cell('eu').readModels;
      const succeeded = async () => (await deliveries.find('webhook_deliveries', { where: [{ field: 'webhook_endpoint_id', op: 'eq', value: endpoint.id }, { field: 'status', op: 'eq', value: 'succeeded' }], limit: 100 })).items.length;
      const delays: number[] = [];
      for (let i = 1; i <= 10; i++) {
        await api(sandbox).post('/v1/customers', { email: `hook${i}@example.com` }).expect(200);
        while ((await succeeded()) < i) await new Promise((resolve) => setTimeout(resolve, 1));
        delays.push(performance.now() - arrivals[i - 1]);
      }
      expect(arrivals).toHaveLength(10);
      const median = [...delays].sort((a, b) => a - b)[delays.length >> 1];
      expect(median).toBeLessThan(WOKEN_WITHIN_MS);
    } finally {
      await new Promise((resolve) => receiver.close(resolve));
    }
  });

  it('stops honouring a revoked key as soon as the thread’s directory projection committed', async () => {
    const operator = api(OPERATOR_KEY);
    const { body: key } = await operator.post(`/v1/operator/tenants/${tenantId}/api-keys`, { environment: 'sandbox' }).expect(200);
    await host.settle();
    await api(key.secret).get('/v1/customers').expect(200);
    await operator.post(`/v1/operator/tenants/${tenantId}/api-keys/${key.id}/revoke`, {}).expect(200);
    await host.settle();
    expect((await api(key.secret).get('/v1/customers').expect(401)).body.problem).toBe('auth.invalid_api_key');
  });
});
