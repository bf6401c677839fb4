import { assertNever, DomainError, type Command, type Decider } from '@tally/kernel';
import type { KeyEnvironment, Region, TenantEvent } from './tenant.events';

export type TenantState =
  | { status: 'none' }
  | { status: 'active'; id: string; region: Region; keyIds: readonly string[] };

export type CreateTenant = Command<'CreateTenant', { tenant_id: string; name: string; region: Region }>;
export type CreateApiKey = Command<'CreateApiKey', { tenant_id: string; key_id: string; environment: KeyEnvironment; key_hash: string; last4: string }>;
export type TenantCommand = CreateTenant | CreateApiKey;

export const REGIONS: readonly Region[] = ['us', 'eu', 'apac'];

export const tenantDecider: Decider<TenantState, TenantCommand, TenantEvent> = {
  initialState: () => ({ status: 'none' }),

  decide(command, state) {
    switch (command.type) {
      case 'CreateTenant': {
        if (state.status !== 'none') return [];
        const name = command.data.name.trim();
        if (name.length === 0 || name.length > 200) {
          throw DomainError.invalid('tenant.invalid_name', 'A tenant name is 1 to 200 characters', [{ field: 'name', code: 'tenant.invalid_name', message: '1 to 200 characters' }]);
        }
        if (!REGIONS.includes(command.data.region)) {
          throw DomainError.invalid('tenant.invalid_region', `The region is one of ${REGIONS.join(', ')}`, [{ field: 'region', code: 'tenant.invalid_region', message: REGIONS.join(', ') }]);
        }
        return [{ type: 'TenantCreated', data: { ...command.data, name } }];
      }
      case 'CreateApiKey': {
        if (state.status === 'none') throw DomainError.notFound('tenant.not_found', `No tenant ${command.data.tenant_id}`);
        if (state.keyIds.includes(command.data.key_id)) return [];
        return [{ type: 'ApiKeyCreated', data: command.data }];
      }
      default:
        return assertNever(command);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'TenantCreated':
        return { status: 'active', id: event.data.tenant_id, region: event.data.region, keyIds: [] };
      case 'ApiKeyCreated':
        return state.status === 'active' ? { ...state, keyIds: [...state.keyIds, event.data.key_id] } : state;
      default:
        return assertNever(event);
    }
  },
};
