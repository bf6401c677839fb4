import { DomainError } from '@tally/kernel';
import type { AggregateDefinition } from '@tally/runtime';
import { customerDecider, type CustomerCommand, type CustomerState } from './domain/customer.decider';
import type { CustomerEvent } from './domain/customer.events';
import { customerView, type CustomerResource } from './customer.view';

export const customerAggregate: AggregateDefinition<CustomerState, CustomerCommand, CustomerEvent, CustomerResource> = {
  type: 'customer',
  decider: customerDecider,
  view: customerView,
  notFound: (id) => DomainError.notFound('customer.not_found', `No customer ${id}`),
};
