import { DomainError } from '@tally/kernel';
import type { AggregateDefinition } from '@tally/platform';
import { customerDecider, type CustomerCommand, type CustomerState } from './domain/customer.decider';
import type { CustomerEvent } from './domain/customer.events';

export const customerAggregate: AggregateDefinition<CustomerState, CustomerCommand, CustomerEvent> = {
  type: 'customer',
  decider: customerDecider,
  notFound: (id) => DomainError.notFound('customer.not_found', `No customer ${id}`),
};
