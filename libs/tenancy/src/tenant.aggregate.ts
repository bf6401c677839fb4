import { DomainError } from '@tally/kernel';
import type { AggregateDefinition } from '@tally/runtime';
import { tenantDecider, type TenantCommand, type TenantState } from './domain/tenant.decider';
import type { TenantEvent } from './domain/tenant.events';
import { tenantView, type TenantResource } from './tenant.view';

export const tenantAggregate: AggregateDefinition<TenantState, TenantCommand, TenantEvent, TenantResource> = {
  type: 'tenant',
  decider: tenantDecider,
  view: tenantView,
  notFound: (id) => DomainError.notFound('tenant.not_found', `No tenant ${id}`),
};
