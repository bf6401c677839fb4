import type { IdGenerator } from '@tally/kernel';
import { CURRENT_API_VERSION, hashApiKey, newApiKey } from '@tally/http';
import type { CommandRuntime } from '@tally/runtime';
import type { Environment, Region, RequestContext } from '@tally/cells';
import type { RateLimits } from './domain/tenant.events';
import { tenantAggregate } from './tenant.aggregate';

export interface IssuedKey {
  key_id: string;
  environment: Environment;
  /** Shown once; only its hash is stored. */
  secret: string;
  last4: string;
}

/** Who asks, and why: an operator action carries both into the audit log. */
export interface OperatorRequest {
  actor: string;
  requestId: string | null;
  reason?: string | null;
}

export interface TenantChanges {
  name?: string;
  region?: string;
  api_version?: string;
  rate_limits?: RateLimits;
}

const CLI: OperatorRequest = { actor: 'operator', requestId: null };

/** Creates tenants and manages their API keys; the operator API, the CLI and the embedded demo use it. */
export class TenantAdministration {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly ids: IdGenerator,
  ) {}

  async createTenant(name: string, region: Region, by: OperatorRequest = CLI): Promise<{ tenantId: string; keys: IssuedKey[] }> {
    const tenantId = this.ids.next('ten');
    const command = { type: 'CreateTenant', data: { tenant_id: tenantId, name, region, api_version: CURRENT_API_VERSION, reason: by.reason } } as const;
    await this.runtime.execute(tenantAggregate, tenantId, command, tenantContext(tenantId, region, by));
    const keys = [await this.issueKey(tenantId, region, 'live', by), await this.issueKey(tenantId, region, 'sandbox', by)];
    return { tenantId, keys };
  }

  async updateTenant(tenantId: string, region: Region, changes: TenantChanges, by: OperatorRequest): Promise<void> {
    await this.runtime.execute(tenantAggregate, tenantId, { type: 'UpdateTenant', data: { tenant_id: tenantId, ...changes, reason: by.reason } }, tenantContext(tenantId, region, by));
  }

  async issueKey(tenantId: string, region: Region, environment: Environment, by: OperatorRequest = CLI): Promise<IssuedKey> {
    const { secret, key } = this.newKey(environment);
    await this.runtime.execute(tenantAggregate, tenantId, { type: 'CreateApiKey', data: { tenant_id: tenantId, key, reason: by.reason } }, tenantContext(tenantId, region, by));
    return { key_id: key.key_id, environment, secret, last4: key.last4 };
  }

  /** A new key of the same environment; the old one stops working at once. */
  async rollKey(tenantId: string, region: Region, keyId: string, by: OperatorRequest): Promise<IssuedKey> {
    const context = tenantContext(tenantId, region, by);
    const outcome = await this.runtime.load(this.runtime.cellOf(context), tenantAggregate, tenantId, context);
    const old = outcome.state.status === 'active' ? outcome.state.keys.find((k) => k.id === keyId) : undefined;
    const { secret, key } = this.newKey(old?.environment ?? 'live');
    const { key_id, key_hash, last4 } = key;
    await this.runtime.execute(
      tenantAggregate,
      tenantId,
      { type: 'RollApiKey', data: { tenant_id: tenantId, key_id: keyId, key: { key_id, key_hash, last4 }, reason: by.reason } },
      context,
    );
    return { key_id, environment: key.environment, secret, last4 };
  }

  async revokeKey(tenantId: string, region: Region, keyId: string, by: OperatorRequest): Promise<void> {
    await this.runtime.execute(tenantAggregate, tenantId, { type: 'RevokeApiKey', data: { tenant_id: tenantId, key_id: keyId, reason: by.reason } }, tenantContext(tenantId, region, by));
  }

  private newKey(environment: Environment) {
    const secret = newApiKey(environment);
    return { secret, key: { key_id: this.ids.next('key'), environment, key_hash: hashApiKey(secret), last4: secret.slice(-4) } };
  }
}

/** Tenant-level events belong to the tenant itself; they are recorded in its live environment. */
export const tenantContext = (tenantId: string, region: Region, by: OperatorRequest = CLI): RequestContext => ({
  tenantId,
  environment: 'live',
  region,
  actor: by.actor,
  requestId: by.requestId,
  correlationId: by.requestId,
  causationId: by.requestId,
});
