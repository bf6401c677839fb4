import type { ContextManifest } from '@tally/runtime';
import { SubscriptionCycleProcess } from './billing/subscription-cycle.process';
import { CustomerSubscriptionsProcess } from './customer-subscriptions.process';
import { subscriptionResource } from './subscription.resource';
import { SubscriptionsModule } from './subscriptions.module';

/** Subscriptions: their state table, their cycle on their customer's clock, and the invoices each period closes with. */
export const subscriptionsContext: ContextManifest = {
  name: 'subscriptions',
  module: SubscriptionsModule,
  projections: [subscriptionResource.projection],
  processes: [SubscriptionCycleProcess, CustomerSubscriptionsProcess],
  aggregateTypes: [{ idPrefix: 'sub', type: 'subscription' }],
};
