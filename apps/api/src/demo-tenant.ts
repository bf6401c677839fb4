import type { IdGenerator } from '@tally/kernel';
import { CellRegistry, CommandRuntime, TENANTS, type TenantEntry, type Worker } from '@tally/platform';
import { TenantAdministration } from '@tally/tenancy';

export const DEMO_TENANT_NAME = 'Demo (npm start)';

/**
 * The embedded profile's demo tenant: created on first start; each start issues it a fresh
 * sandbox key to print, since stored keys are hashes and cannot be shown again.
 */
export async function demoSandboxKey(cells: CellRegistry, runtime: CommandRuntime, ids: IdGenerator, worker: Worker): Promise<{ tenantId: string; key: string }> {
  await worker.settle();
  const { items } = await cells.directory.find<TenantEntry>(TENANTS, { where: [{ field: 'name', op: 'eq', value: DEMO_TENANT_NAME }], limit: 1 });
  const bootstrap = new TenantAdministration(runtime, ids);
  const demo = items[0];
  const issued = demo
    ? { tenantId: demo.id, key: (await bootstrap.issueKey(demo.id, demo.region, 'sandbox')).secret }
    : await bootstrap.createTenant(DEMO_TENANT_NAME, 'us').then(({ tenantId, keys }) => ({ tenantId, key: keys.find((k) => k.environment === 'sandbox')!.secret }));
  await worker.settle();
  return issued;
}
