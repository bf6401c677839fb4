import { API_KEYS, TENANTS, type ApiKeyEntry, type TenantEntry } from '@tally/http';
import { asEventOf, type Projection } from '@tally/runtime';
import type { TenantEvent } from './domain/tenant.events';

/** Publishes each tenant, its pinned version, limits, and the hashes of its keys into the global directory, which routes requests to cells. */
export const tenantDirectoryProjection: Projection = {
  name: 'directory',
  target: 'directory',
  streamPrefixes: ['tenant-'],
  collections: [
    { name: TENANTS, indexes: [{ fields: ['created_at'] }, { fields: ['name'] }] },
    { name: API_KEYS, indexes: [{ fields: ['tenant_id'] }, { fields: ['key_id'] }] },
  ],
  async handle(stored, writer) {
    const event = asEventOf<TenantEvent>(stored);
    if (event.type === 'TenantCreated') {
      const { tenant_id, name, region } = event.data;
      writer.upsert(TENANTS, { id: tenant_id, name, region, created_at: stored.metadata.occurred_at } satisfies TenantEntry);
      return;
    }
    const tenant = await writer.get<TenantEntry>(TENANTS, event.data.tenant_id);
    if (!tenant) return;
    switch (event.type) {
      case 'TenantRenamed':
        return writer.upsert(TENANTS, { ...tenant, name: event.data.name });
      case 'TenantApiVersionPinned':
        return writer.upsert(TENANTS, { ...tenant, api_version: event.data.api_version as TenantEntry['api_version'] });
      case 'TenantRateLimitsSet':
        return writer.upsert(TENANTS, { ...tenant, rate_limits: event.data.rate_limits });
      case 'ApiKeyCreated': {
        const { key_hash, key_id, tenant_id, environment, last4 } = event.data;
        const entry: ApiKeyEntry = { id: key_hash, key_id, tenant_id, region: tenant.region, environment, status: 'active', last4, created_at: stored.metadata.occurred_at };
        return writer.upsert(API_KEYS, entry);
      }
      case 'ApiKeyRevoked': {
        const key = await writer.get<ApiKeyEntry>(API_KEYS, event.data.key_hash);
        if (key) writer.upsert(API_KEYS, { ...key, status: 'revoked' });
        return;
      }
    }
  },
};
