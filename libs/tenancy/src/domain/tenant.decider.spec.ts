import { DeciderSpecification } from '@tally/kernel/testing/decider-spec';
import { tenantDecider } from './tenant.decider';
import type { ApiKeyCreated, TenantCreated } from './tenant.events';

const spec = DeciderSpecification.for(tenantDecider);
const created: TenantCreated = { type: 'TenantCreated', data: { tenant_id: 'ten_1', name: 'Acme', region: 'eu' } };
const keyData = { tenant_id: 'ten_1', key_id: 'key_1', environment: 'sandbox', key_hash: 'ab12', last4: 'wxyz' } as const;
const keyCreated: ApiKeyCreated = { type: 'ApiKeyCreated', data: keyData };

describe('tenant decider', () => {
  it('creates a tenant in its region', () =>
    spec.given([]).when({ type: 'CreateTenant', data: { tenant_id: 'ten_1', name: ' Acme ', region: 'eu' } }).then([created]));

  it('refuses an unknown region', () =>
    spec.given([]).when({ type: 'CreateTenant', data: { tenant_id: 'ten_1', name: 'Acme', region: 'mars' as 'eu' } }).thenFails('tenant.invalid_region'));

  it('refuses an empty name', () =>
    spec.given([]).when({ type: 'CreateTenant', data: { tenant_id: 'ten_1', name: '  ', region: 'eu' } }).thenFails('tenant.invalid_name'));

  it('issues a key for an existing tenant', () => spec.given([created]).when({ type: 'CreateApiKey', data: keyData }).then([keyCreated]));

  it('issues a key once', () => spec.given([created, keyCreated]).when({ type: 'CreateApiKey', data: keyData }).thenNothingHappens());

  it('refuses a key for a tenant that does not exist', () =>
    spec.given([]).when({ type: 'CreateApiKey', data: keyData }).thenFails('tenant.not_found'));
});
