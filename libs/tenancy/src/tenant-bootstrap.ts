import type { IdGenerator } from '@tally/kernel';
import { hashApiKey, newApiKey, type CommandRuntime, type Environment, type Region, type RequestContext } from '@tally/platform';
import { tenantAggregate } from './tenant.aggregate';

export interface IssuedKey {
  key_id: string;
  environment: Environment;
  /** Shown once; only its hash is stored. */
  secret: string;
}

/** Creates tenants and issues their API keys. */
export class TenantBootstrap {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly ids: IdGenerator,
  ) {}

  async createTenant(name: string, region: Region): Promise<{ tenantId: string; keys: IssuedKey[] }> {
    const tenantId = this.ids.next('ten');
    await this.runtime.execute(tenantAggregate, tenantId, { type: 'CreateTenant', data: { tenant_id: tenantId, name, region } }, operator(tenantId, region));
    const keys = [await this.issueKey(tenantId, region, 'live'), await this.issueKey(tenantId, region, 'sandbox')];
    return { tenantId, keys };
  }

  async issueKey(tenantId: string, region: Region, environment: Environment): Promise<IssuedKey> {
    const secret = newApiKey(environment);
    const keyId = this.ids.next('key');
    await this.runtime.execute(
      tenantAggregate,
      tenantId,
      { type: 'CreateApiKey', data: { tenant_id: tenantId, key_id: keyId, environment, key_hash: hashApiKey(secret), last4: secret.slice(-4) } },
      operator(tenantId, region),
    );
    return { key_id: keyId, environment, secret };
  }
}

/** Tenant-level events belong to the tenant itself; they are recorded in its live environment. */
const operator = (tenantId: string, region: Region): RequestContext => ({
  tenantId,
  environment: 'live',
  region,
  actor: 'operator',
  requestId: null,
  correlationId: null,
  causationId: null,
});
