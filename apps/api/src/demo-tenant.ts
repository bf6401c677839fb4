import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { IdGenerator } from '@tally/kernel';
import { API_KEYS, hashApiKey, TENANTS, type ApiKeyEntry, type TenantEntry } from '@tally/http';
import { CellRegistry } from '@tally/cells';
import { CommandRuntime } from '@tally/runtime';
import { TenantAdministration } from '@tally/tenancy';

export const DEMO_TENANT_NAME = 'Demo (npm start)';

/** The one key kept in the clear: a local development credential, readable by its owner only, as CLIs keep theirs. */
export const DEMO_KEY_FILE = 'demo-sandbox-key.json';

export interface DemoKey {
  tenantId: string;
  key: string;
}

/**
 * The embedded profile's demo tenant and its sandbox key: created on the first start and kept in
 * the data folder, so every start prints the same working key. A key that was revoked meanwhile,
 * or a missing file, is replaced by a new key of the same tenant.
 */
export async function demoSandboxKey(dataDir: string, cells: CellRegistry, runtime: CommandRuntime, ids: IdGenerator): Promise<DemoKey> {
  const file = join(dataDir, DEMO_KEY_FILE);
  const kept = readKept(file);
  if (kept && (await isActive(cells, kept.key))) return kept;
  const administration = new TenantAdministration(runtime, ids);
  const tenant = kept?.tenantId ?? (await existingDemoTenant(cells));
  const demo = tenant
    ? { tenantId: tenant, key: (await administration.issueKey(tenant, 'us', 'sandbox')).secret }
    : await administration.createTenant(DEMO_TENANT_NAME, 'us').then(({ tenantId, keys }) => ({ tenantId, key: keys.find((k) => k.environment === 'sandbox')!.secret }));
  keep(file, demo);
  await untilActive(cells, demo.key);
  return demo;
}

function readKept(file: string): DemoKey | undefined {
  try {
    const kept = JSON.parse(readFileSync(file, 'utf8')) as Partial<DemoKey>;
    return typeof kept.tenantId === 'string' && typeof kept.key === 'string' ? { tenantId: kept.tenantId, key: kept.key } : undefined;
  } catch {
    return undefined;
  }
}

/** Written whole or not at all, with owner-only permissions from the first byte. */
function keep(file: string, demo: DemoKey): void {
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    const fd = openSync(temporary, 'w', 0o600);
    writeSync(fd, `${JSON.stringify(demo)}\n`);
    fsyncSync(fd);
    closeSync(fd);
    renameSync(temporary, file);
  } finally {
    rmSync(temporary, { force: true });
  }
}

async function isActive(cells: CellRegistry, key: string): Promise<boolean> {
  return (await cells.directory.get<ApiKeyEntry>(API_KEYS, hashApiKey(key)))?.status === 'active';
}

async function existingDemoTenant(cells: CellRegistry): Promise<string | undefined> {
  const { items } = await cells.directory.find<TenantEntry>(TENANTS, { where: [{ field: 'name', op: 'eq', value: DEMO_TENANT_NAME }], limit: 1 });
  return items[0]?.id;
}

/** A new key works once the directory projection has it, a few milliseconds after the append. */
async function untilActive(cells: CellRegistry, key: string): Promise<void> {
  for (let attempt = 0; attempt < 200 && !(await isActive(cells, key)); attempt++) await sleep(25);
}
