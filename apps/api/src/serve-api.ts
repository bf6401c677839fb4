import type { AddressInfo } from 'node:net';
import { CellRegistry, ID_GENERATOR, type TallyConfig } from '@tally/cells';
import { CommandRuntime } from '@tally/runtime';
import type { IdGenerator } from '@tally/kernel';
import { createApp } from './create-app';
import { DEMO_KEY_FILE, demoSandboxKey } from './demo-tenant';

/** The API; on the embedded profile also the worker, in two threads of this process, with data under TALLY_DATA_DIR. */
export async function serveApi(config: TallyConfig): Promise<void> {
  const embedded = config.profile === 'embedded';
  const app = await createApp({ config, worker: embedded ? 'thread' : false });
  await app.listen(config.port);
  const address = `http://localhost:${(app.getHttpServer().address() as AddressInfo).port}`;
  const links = config.publicUrl === address ? '' : `; the URLs it hands out start with ${config.publicUrl}`;
  if (!embedded) {
    process.stdout.write(`Tally API listening on ${address} (production profile${links})\n`);
    return;
  }
  const demo = await demoSandboxKey(config.dataDir, app.get(CellRegistry), app.get(CommandRuntime), app.get<IdGenerator>(ID_GENERATOR));
  process.stdout.write(
    [
      '',
      `Tally API listening on ${address} (embedded profile, data in ${config.dataDir}${links})`,
      `Demo tenant ${demo.tenantId}, sandbox API key (kept in ${config.dataDir}/${DEMO_KEY_FILE}):`,
      `  ${demo.key}`,
      'Try:',
      `  curl -s ${address}/v1/customers -H "Authorization: Bearer ${demo.key}" -H "Content-Type: application/json" -d '{"email":"ada@example.com"}'`,
      `API reference: ${address}/docs`,
      '',
    ].join('\n'),
  );
}
