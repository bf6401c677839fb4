import { API_KEYS, TENANTS, type ApiKeyEntry, type Projection, type TenantEntry } from '@tally/platform';
import type { TenantEvent } from './domain/tenant.events';

/** Publishes each tenant and the hashes of its keys into the global directory, which routes requests to cells. */
export const tenantDirectoryProjection: Projection = {
  name: 'directory',
  target: 'directory',
  streamPrefixes: ['tenant-'],
  collections: [
    { name: TENANTS, indexes: [{ fields: ['created_at'] }] },
    { name: API_KEYS, indexes: [{ fields: ['tenant_id'] }] },
  ],
  async handle(stored, writer) {
    const event = stored as unknown as TenantEvent;
    switch (event.type) {
      case 'TenantCreated': {
        const { tenant_id, name, region } = event.data;
        writer.upsert(TENANTS, { id: tenant_id, name, region, created_at: stored.metadata.occurred_at } satisfies TenantEntry);
        return;
      }
      case 'ApiKeyCreated': {
        const tenant = await writer.get<TenantEntry>(TENANTS, event.data.tenant_id);
        if (!tenant) return;
        const { key_hash, key_id, tenant_id, environment } = event.data;
        writer.upsert(API_KEYS, { id: key_hash, key_id, tenant_id, region: tenant.region, environment, status: 'active' } satisfies ApiKeyEntry);
        return;
      }
    }
  },
};
