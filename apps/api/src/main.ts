import { CellRegistry, CommandRuntime, ID_GENERATOR, readConfig, Worker } from '@tally/platform';
import type { IdGenerator } from '@tally/kernel';
import { createApp } from './create-app';
import { demoSandboxKey } from './demo-tenant';

/** The API; on the embedded profile also the worker, in one process, with data under TALLY_DATA_DIR. */
async function main(): Promise<void> {
  const config = readConfig();
  const embedded = config.profile === 'embedded';
  const app = await createApp({ config, worker: embedded });
  await app.listen(config.port);
  const address = `http://localhost:${config.port}`;
  process.stdout.write(`Tally API listening on ${address} (${config.profile} profile)\n`);
  if (embedded) {
    const demo = await demoSandboxKey(app.get(CellRegistry), app.get(CommandRuntime), app.get<IdGenerator>(ID_GENERATOR), app.get(Worker));
    process.stdout.write(
      [
        `Data folder: ${config.dataDir}`,
        `Demo tenant ${demo.tenantId}, sandbox API key:`,
        `  ${demo.key}`,
        `Try: curl -s ${address}/v1/customers -H "Authorization: Bearer ${demo.key}" -H "Content-Type: application/json" -d '{"email":"ada@example.com"}'`,
        '',
      ].join('\n'),
    );
  }
}

void main();
