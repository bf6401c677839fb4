/**
 * One of the two workers of the lease test: a worker on the embedded profile's SQLite files in
 * <dataDir> that runs the probe process manager (and the timers projection and poller), with its
 * leases where TALLY_LEASES and TALLY_LEASES_MONGO_URL say. Prints `ready` once it has started;
 * the test ends it with SIGKILL.
 *
 *   node -r ./test/support/ts-child.js test/support/lease-worker-child.ts <dataDir>
 */
import { SystemClock, UlidGenerator } from '@tally/kernel';
import { openEmbeddedCells, readConfig } from '@tally/cells';
import { Worker } from '@tally/runtime';
import { LeaseProbe } from './lease-probe.process';

async function main(dataDir: string): Promise<void> {
  const config = readConfig({ ...process.env, TALLY_PROFILE: 'embedded', TALLY_DATA_DIR: dataDir, TALLY_REGIONS: 'eu' });
  const clock = new SystemClock();
  const ids = new UlidGenerator(clock);
  const cells = openEmbeddedCells({ dataDir, regions: config.regions, clock, pii: [], upcasters: [], leasesMongoUrl: config.leasesMongoUrl });
  const probe = new LeaseProbe(cells.cell('eu').events, clock, ids);
  const log = { error: (message: string, error: unknown) => process.stderr.write(`${message}: ${String(error)}\n`) };
  const worker = Worker.over(cells, { projections: [], processes: [probe], clock, ids, log, leaseTtlMs: config.leaseTtlMs });
  await worker.start();
  process.stdout.write('ready\n');
}

main(process.argv[2]).catch((error) => {
  process.stderr.write(`lease worker failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
