import type { ContextManifest } from '@tally/runtime';
import { SubscriptionCycleProcess } from './billing/subscription-cycle.process';
import { CustomerSubscriptionsProcess } from './customer-subscriptions.process';
import { DunningFinalActionReaction } from './dunning-final-action.reaction';
import { subscriptionProjection } from './subscription.projection';
import { SubscriptionsModule } from './subscriptions.module';

/** Subscriptions: their state table, their cycle on their customer's clock, and the invoices each period closes with. */
export const subscriptionsContext: ContextManifest = {
  name: 'subscriptions',
  module: SubscriptionsModule,
  projections: [subscriptionProjection],
  processes: [SubscriptionCycleProcess, CustomerSubscriptionsProcess],
  reactions: [DunningFinalActionReaction],
  aggregateTypes: [{ idPrefix: 'sub', type: 'subscription' }],
};
