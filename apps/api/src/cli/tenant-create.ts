import { parseArgs } from 'node:util';
import 'reflect-metadata';
import { SystemClock, UlidGenerator } from '@tally/kernel';
import { bindingsFor, catchUpProjection, Clocks, CommandRuntime } from '@tally/runtime';
import { openConfiguredCells, readConfig, REGIONS, type CellRegistry, type Region } from '@tally/cells';
import { TenantAdministration, tenantDirectoryProjection } from '@tally/tenancy';
import { CONTEXTS } from '../../../contexts';

/** `npm run tenant:create -- --name Acme --region eu`: prints the new tenant's live and sandbox keys, once. */
async function main(): Promise<void> {
  const { values } = parseArgs({ options: { name: { type: 'string' }, region: { type: 'string' } } });
  const region = values.region as Region;
  if (!values.name || !REGIONS.includes(region)) {
    process.stderr.write(`usage: npm run tenant:create -- --name <name> --region <${REGIONS.join('|')}>\n`);
    process.exitCode = 2;
    return;
  }
  const config = readConfig();
  const clock = new SystemClock();
  const ids = new UlidGenerator(clock);
  const cells = await openConfiguredCells(config, clock, CONTEXTS);
  try {
    const { tenantId, keys } = await new TenantAdministration(new CommandRuntime(cells, new Clocks(clock), ids), ids).createTenant(values.name, region);
    await publishToDirectory(cells, region);
    process.stdout.write(`Tenant ${tenantId} (${values.name}) in region ${region}\n`);
    for (const key of keys) process.stdout.write(`  ${key.environment.padEnd(7)} ${key.secret}\n`);
    process.stdout.write('The keys are shown once; only their hashes are stored.\n');
  } finally {
    await cells.close();
  }
}

/** Brings the directory up to date so the keys work at once, even before the service next starts. */
async function publishToDirectory(cells: CellRegistry, region: Region): Promise<void> {
  const cell = cells.cell(region);
  const [binding] = bindingsFor(cell, cells, [tenantDirectoryProjection]);
  await catchUpProjection(binding);
}

void main();
