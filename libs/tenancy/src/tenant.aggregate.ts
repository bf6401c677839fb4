import { DomainError } from '@tally/kernel';
import type { AggregateDefinition } from '@tally/platform';
import { tenantDecider, type TenantCommand, type TenantState } from './domain/tenant.decider';
import type { TenantEvent } from './domain/tenant.events';

export const tenantAggregate: AggregateDefinition<TenantState, TenantCommand, TenantEvent> = {
  type: 'tenant',
  decider: tenantDecider,
  notFound: (id) => DomainError.notFound('tenant.not_found', `No tenant ${id}`),
};
