import { DomainError } from '@tally/kernel';
import type { AggregateDefinition } from '@tally/runtime';
import { customerSubscriptionsDecider, type CustomerSubscriptionsCommand, type CustomerSubscriptionsState } from './domain/customer-subscriptions.decider';
import type { CustomerSubscriptionsEvent } from './domain/customer-subscriptions.events';

/** One stream per customer, `customer_subscriptions-<customer id>`: internal, no view and no public event. */
export const customerSubscriptionsAggregate: AggregateDefinition<CustomerSubscriptionsState, CustomerSubscriptionsCommand, CustomerSubscriptionsEvent> = {
  type: 'customer_subscriptions',
  decider: customerSubscriptionsDecider,
  notFound: (id) => DomainError.notFound('customer.not_found', `No customer ${id}`),
};
