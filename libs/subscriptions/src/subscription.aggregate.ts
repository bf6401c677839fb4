import type { AggregateDefinition } from '@tally/runtime';
import { subscriptionDecider, type SubscriptionCommand, type SubscriptionState } from './domain/subscription.decider';
import type { SubscriptionEvent } from './domain/subscription.events';
import { subscriptionTimers } from './domain/subscription.timers';
import { subscriptionView, type SubscriptionResource } from './subscription.view';
import { DomainError } from '@tally/kernel';

export const subscriptionAggregate: AggregateDefinition<SubscriptionState, SubscriptionCommand, SubscriptionEvent, SubscriptionResource> = {
  type: 'subscription',
  decider: subscriptionDecider,
  view: subscriptionView,
  notFound: (id) => DomainError.notFound('subscription.not_found', `No subscription ${id}`),
  timers: subscriptionTimers,
};
