import Big from 'big.js';
import request from 'supertest';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { CellRegistry, readConfig } from '@tally/cells';
import { createApp } from '../apps/api/src/create-app';
import { mongoReadStoreEnv } from './support/mongo-read-store';
import { OPERATOR_KEY, PUBLIC_URL, TallyUnderTest, type TestTenant } from './support/tally';

/**
 * Several API processes on one embedded data folder, as a load balancer routing by wallet id
 * would front them: the first runs the worker, the others only the API (`worker: false`). Here
 * the second is another app in the test's process, with connections of its own to the same
 * SQLite files, on the same manual clock.
 */
describe('a second API process on the same data folder', () => {
  let tally: TallyUnderTest;
  let acme: TestTenant;
  let api: ReturnType<TallyUnderTest['as']>;
  let second: NestExpressApplication;

  beforeAll(async () => {
    ({ tally, acme, api } = await TallyUnderTest.withTenant());
    await tally.liftRateLimits(acme.tenantId);
    const config = readConfig({ TALLY_DATA_DIR: tally.dataDir, TALLY_PROFILE: 'embedded', TALLY_OPERATOR_KEY: OPERATOR_KEY, TALLY_PUBLIC_URL: PUBLIC_URL, ...mongoReadStoreEnv(tally.dataDir) });
    second = await createApp({ config, worker: false, clock: tally.clock }, { logger: false });
    await second.init();
  });

  afterAll(async () => {
    // Closing the app leaves its cells open, as TallyUnderTest's stop does before closing them.
    await second?.close();
    await second?.get(CellRegistry).close();
    await tally.stop();
  });

  const throughSecond = (key: string) => ({
    get: (path: string) => request(second.getHttpServer()).get(path).set('Authorization', `Bearer ${key}`),
    post: (path: string, body: object) => request(second.getHttpServer()).post(path).set('Authorization', `Bearer ${key}`).send(body),
  });

  it('refuses a key revoked through the first process from the revoke’s answer on (it keeps no key the directory may have dropped)', async () => {
    const operator = tally.operator();
    const key = (await operator.post(`/v1/operator/tenants/${acme.tenantId}/api-keys`, { environment: 'sandbox' }).expect(200)).body;
    // Used first, so that a cache of the second process would hold it.
    await throughSecond(key.secret).get('/v1/customers').expect(200);
    await operator.post(`/v1/operator/tenants/${acme.tenantId}/api-keys/${key.id}/revoke`, {}).expect(200);
    const refused = await throughSecond(key.secret).get('/v1/customers').expect(401);
    expect(refused.body.problem).toBe('auth.invalid_api_key');
  });

  it('debits one wallet through both processes at once, each debit once: no amount lost or doubled', async () => {
    const customer = (await api.post('/v1/customers', { email: 'two@example.com' }).expect(200)).body.id;
    const wallet = (await api.post(`/v1/customers/${customer}/wallets`, { currency: 'EUR' }).expect(200)).body.id;
    await api.post(`/v1/wallets/${wallet}/credits`, { amount: '100.00', reason: 'manual_topup' }).expect(200);
    const debit = { amount: '1.00', reason: 'manual' };
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? api.post(`/v1/wallets/${wallet}/debits`, debit) : throughSecond(acme.sandbox).post(`/v1/wallets/${wallet}/debits`, debit))),
    );
    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(200));
    // Each debit decided on the balance the one before it left, whichever process took it.
    const balancesAfter = answers.map((answer) => answer.body.balance_after as string).sort((a, b) => new Big(b).cmp(a));
    expect(balancesAfter).toEqual(Array.from({ length: 20 }, (_, i) => `${99 - i}.00`));
    // Read through either process, the wallet shows every debit.
    expect((await api.get(`/v1/wallets/${wallet}`).expect(200)).body.balance).toBe('80.00');
    expect((await throughSecond(acme.sandbox).get(`/v1/wallets/${wallet}`).expect(200)).body.balance).toBe('80.00');
  });
});
