import type { ContextManifest } from '@tally/runtime';
import { auditLogProjection } from './audit-log.projection';
import { TenancyModule } from './tenancy.module';
import { tenantDirectoryProjection } from './tenant-directory.projection';
import { OPERATOR_SECTION } from './tenancy.api-sections';

/** Tenants and their API keys, the global key directory, and the audit log of operator actions. */
export const tenancyContext: ContextManifest = {
  name: 'tenancy',
  apiSections: [OPERATOR_SECTION],
  module: TenancyModule,
  projections: [tenantDirectoryProjection, auditLogProjection],
  aggregateTypes: [
    {
      idPrefix: 'ten',
      type: 'tenant',
      // A key's hash finds its tenant; the history shows the key's id and last four characters instead.
      secretFields: [
        { eventType: 'ApiKeyCreated', field: 'key_hash' },
        { eventType: 'ApiKeyRevoked', field: 'key_hash' },
      ],
    },
  ],
};
