import { assertNever } from '@tally/kernel';
import type { ResourceView } from '@tally/runtime';
import type { RateLimits, TenantEvent } from './domain/tenant.events';

export interface ApiKeyResource {
  id: string;
  object: 'api_key';
  environment: 'live' | 'sandbox';
  status: 'active' | 'revoked';
  last4: string;
  rolled_from: string | null;
  created_at: string;
  /** Only in the response that created the key. */
  secret?: string;
}

export interface TenantResource {
  [field: string]: unknown;
  id: string;
  object: 'tenant';
  name: string;
  region: string;
  api_version: string;
  rate_limits: RateLimits;
  api_keys: ApiKeyResource[];
  created_at: string;
  updated_at: string;
}

/** A tenant as the operator API shows it, folded from its events (tenants publish no public events). */
export const tenantView: ResourceView<TenantResource, TenantEvent> = {
  aggregateType: 'tenant',
  collection: 'tenants',
  publicTypes: [],
  publicType: () => undefined,

  apply(tenant, event) {
    const at = event.metadata.occurred_at;
    if (event.type === 'TenantCreated') {
      const { tenant_id, name, region } = event.data;
      return { id: tenant_id, object: 'tenant', name, region, api_version: '', rate_limits: {}, api_keys: [], created_at: at, updated_at: at };
    }
    if (!tenant) return undefined;
    switch (event.type) {
      case 'TenantRenamed':
        return { ...tenant, name: event.data.name, updated_at: at };
      case 'TenantApiVersionPinned':
        return { ...tenant, api_version: event.data.api_version, updated_at: at };
      case 'TenantRateLimitsSet':
        return { ...tenant, rate_limits: event.data.rate_limits, updated_at: at };
      case 'ApiKeyCreated': {
        const { key_id, environment, last4, rolled_from } = event.data;
        const key: ApiKeyResource = { id: key_id, object: 'api_key', environment, status: 'active', last4, rolled_from: rolled_from ?? null, created_at: at };
        return { ...tenant, api_keys: [...tenant.api_keys, key], updated_at: at };
      }
      case 'ApiKeyRevoked':
        return { ...tenant, api_keys: tenant.api_keys.map((k) => (k.id === event.data.key_id ? { ...k, status: 'revoked' as const } : k)), updated_at: at };
      default:
        return assertNever(event);
    }
  },
};
