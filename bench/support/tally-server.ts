import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { NestExpressApplication } from '@nestjs/platform-express';
import type { IdGenerator } from '@tally/kernel';
import { CommandRuntime, Worker, WorkerThreadHost } from '@tally/runtime';
import { ID_GENERATOR, readConfig } from '@tally/cells';
import { TenantAdministration } from '@tally/tenancy';
import { createApp } from '../../apps/api/src/create-app';
import type { WorkerPlacement } from '../../apps/api/src/app.module';

/** Tally on the embedded profile (its worker in a thread, as `npm start` runs it, or on the request thread) with one tenant. */
export interface RunningTally {
  app: NestExpressApplication;
  url: string;
  /** The tenant's sandbox API key, usable once the key directory caught up. */
  sandboxKey: string;
  /** Waits until every projection has handled every write so far. */
  settle(): Promise<void>;
  close(): Promise<void>;
}

/**
 * `env`: more settings, as the environment would give them. `at`: a data folder the caller owns
 * (other processes serve it too), else a temporary one removed on close.
 */
export async function startTally(worker: Exclude<WorkerPlacement, false> = 'thread', env: NodeJS.ProcessEnv = {}, at?: string): Promise<RunningTally> {
  const dataDir = at ?? mkdtempSync(join(tmpdir(), 'tally-bench-http-'));
  const config = readConfig({ ...env, TALLY_DATA_DIR: dataDir, TALLY_PROFILE: 'embedded' });
  const app = await createApp({ config, worker }, { logger: false });
  await app.listen(0, '127.0.0.1');
  const settle = () => (worker === 'thread' ? app.get(WorkerThreadHost) : app.get(Worker)).settle();
  const tenants = new TenantAdministration(app.get(CommandRuntime), app.get<IdGenerator>(ID_GENERATOR));
  const { tenantId, keys } = await tenants.createTenant('Bench', 'eu');
  // The load runs far past the sandbox rate limits, which would answer 429.
  const unlimited = { read: 1_000_000, write: 1_000_000 };
  await tenants.updateTenant(tenantId, 'eu', { rate_limits: unlimited }, { actor: 'operator', requestId: null, reason: 'benchmark' });
  await settle();
  const { port } = app.getHttpServer().address() as AddressInfo;
  return {
    app,
    url: `http://127.0.0.1:${port}`,
    sandboxKey: keys.find((k) => k.environment === 'sandbox')!.secret,
    settle,
    close: async () => {
      await app.close();
      if (at === undefined) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
