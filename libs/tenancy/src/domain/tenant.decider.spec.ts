import { DeciderSpecification } from '@tally/kernel/testing/decider-spec';
import { MAX_RATE_LIMIT, tenantDecider } from './tenant.decider';
import type { ApiKeyCreated, TenantApiVersionPinned, TenantCreated } from './tenant.events';

const spec = DeciderSpecification.for(tenantDecider);
const created: TenantCreated = { type: 'TenantCreated', data: { tenant_id: 'ten_1', name: 'Acme', region: 'eu', reason: null } };
const pinned: TenantApiVersionPinned = { type: 'TenantApiVersionPinned', data: { tenant_id: 'ten_1', api_version: '2026-04-01', reason: null } };
const key = { key_id: 'key_1', environment: 'sandbox', key_hash: 'ab12', last4: 'wxyz' } as const;
const keyCreated: ApiKeyCreated = { type: 'ApiKeyCreated', data: { tenant_id: 'ten_1', ...key, reason: null } };
const tenant = [created, pinned];

describe('tenant decider', () => {
  describe('CreateTenant', () => {
    const create = { type: 'CreateTenant', data: { tenant_id: 'ten_1', name: ' Acme ', region: 'eu', api_version: '2026-04-01' } } as const;

    it('creates a tenant in its region, pinned to the current API version', () => spec.given([]).when(create).then(tenant));

    it('does nothing when the tenant exists', () => spec.given(tenant).when(create).thenNothingHappens());

    it('refuses an unknown region', () =>
      spec.given([]).when({ ...create, data: { ...create.data, region: 'mars' as 'eu' } }).thenFails('tenant.invalid_region'));

    it('refuses an empty name', () => spec.given([]).when({ ...create, data: { ...create.data, name: '  ' } }).thenFails('tenant.invalid_name'));

    it('counts a name in characters, as the body’s check does: 200 emoji are a name', () =>
      spec
        .given([])
        .when({ ...create, data: { ...create.data, name: '🦊'.repeat(200) } })
        .then([{ ...created, data: { ...created.data, name: '🦊'.repeat(200) } }, pinned]));
  });

  describe('UpdateTenant', () => {
    it('refuses to move a tenant to another region', () =>
      spec.given(tenant).when({ type: 'UpdateTenant', data: { tenant_id: 'ten_1', region: 'us' } }).thenFails('tenant.region_immutable'));

    it('accepts the region it already has, and records what changed with the reason', () =>
      spec
        .given(tenant)
        .when({ type: 'UpdateTenant', data: { tenant_id: 'ten_1', region: 'eu', name: 'Acme GmbH', api_version: '2025-04-01', reason: 'ticket 42' } })
        .then([
          { type: 'TenantRenamed', data: { tenant_id: 'ten_1', name: 'Acme GmbH', reason: 'ticket 42' } },
          { type: 'TenantApiVersionPinned', data: { tenant_id: 'ten_1', api_version: '2025-04-01', reason: 'ticket 42' } },
        ]));

    it('raises rate limits, in a stable order', () =>
      spec
        .given(tenant)
        .when({ type: 'UpdateTenant', data: { tenant_id: 'ten_1', rate_limits: { write: 400, read: 2000 } } })
        .then([{ type: 'TenantRateLimitsSet', data: { tenant_id: 'ten_1', rate_limits: { read: 2000, write: 400 }, reason: null } }]));

    it('refuses a limit that is not a whole number, or of an unknown group', () =>
      spec.given(tenant).when({ type: 'UpdateTenant', data: { tenant_id: 'ten_1', rate_limits: { read: 1.5, bogus: 3 } as never } }).thenFails('tenant.invalid_rate_limits'));

    it('refuses a limit above the ceiling, which a number or a header could not carry exactly', () => {
      spec.given(tenant).when({ type: 'UpdateTenant', data: { tenant_id: 'ten_1', rate_limits: { read: 1e300 } } }).thenFails('tenant.invalid_rate_limits');
      spec.given(tenant).when({ type: 'UpdateTenant', data: { tenant_id: 'ten_1', rate_limits: { write: MAX_RATE_LIMIT + 1 } } }).thenFails('tenant.invalid_rate_limits');
      spec
        .given(tenant)
        .when({ type: 'UpdateTenant', data: { tenant_id: 'ten_1', rate_limits: { write: MAX_RATE_LIMIT } } })
        .then([{ type: 'TenantRateLimitsSet', data: { tenant_id: 'ten_1', rate_limits: { write: MAX_RATE_LIMIT }, reason: null } }]);
    });

    it('does nothing when nothing changes', () =>
      spec.given(tenant).when({ type: 'UpdateTenant', data: { tenant_id: 'ten_1', name: 'Acme', api_version: '2026-04-01' } }).thenNothingHappens());

    it('fails for a tenant that does not exist', () => spec.given([]).when({ type: 'UpdateTenant', data: { tenant_id: 'ten_1', name: 'x' } }).thenFails('tenant.not_found'));
  });

  describe('API keys', () => {
    it('issues a key once', () => {
      spec.given(tenant).when({ type: 'CreateApiKey', data: { tenant_id: 'ten_1', key } }).then([keyCreated]);
      spec.given([...tenant, keyCreated]).when({ type: 'CreateApiKey', data: { tenant_id: 'ten_1', key } }).thenNothingHappens();
    });

    it('rolls a key: a new key of the same environment, and the old one revoked', () =>
      spec
        .given([...tenant, keyCreated])
        .when({ type: 'RollApiKey', data: { tenant_id: 'ten_1', key_id: 'key_1', key: { key_id: 'key_2', key_hash: 'cd34', last4: 'abcd' }, reason: 'leaked' } })
        .then([
          { type: 'ApiKeyCreated', data: { tenant_id: 'ten_1', key_id: 'key_2', key_hash: 'cd34', last4: 'abcd', environment: 'sandbox', rolled_from: 'key_1', reason: 'leaked' } },
          { type: 'ApiKeyRevoked', data: { tenant_id: 'ten_1', key_id: 'key_1', key_hash: 'ab12', reason: 'leaked' } },
        ]));

    it('revokes a key once, and refuses to roll a revoked key', () => {
      const revoked = { type: 'ApiKeyRevoked', data: { tenant_id: 'ten_1', key_id: 'key_1', key_hash: 'ab12', reason: null } } as const;
      spec.given([...tenant, keyCreated]).when({ type: 'RevokeApiKey', data: { tenant_id: 'ten_1', key_id: 'key_1' } }).then([revoked]);
      spec.given([...tenant, keyCreated, revoked]).when({ type: 'RevokeApiKey', data: { tenant_id: 'ten_1', key_id: 'key_1' } }).thenNothingHappens();
      spec
        .given([...tenant, keyCreated, revoked])
        .when({ type: 'RollApiKey', data: { tenant_id: 'ten_1', key_id: 'key_1', key: { key_id: 'key_2', key_hash: 'x', last4: 'y' } } })
        .thenFails('api_key.revoked');
    });

    it('fails for an unknown key', () =>
      spec.given(tenant).when({ type: 'RevokeApiKey', data: { tenant_id: 'ten_1', key_id: 'key_9' } }).thenFails('api_key.not_found'));
  });
});
