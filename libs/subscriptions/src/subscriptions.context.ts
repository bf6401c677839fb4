import type { ContextManifest } from '@tally/runtime';
import { SubscriptionCycleProcess } from './billing/subscription-cycle.process';
import { CustomerSubscriptionsProcess } from './customer-subscriptions.process';
import { LateUsageRebillReaction } from './billing/late-usage-rebill.reaction';
import { CustomerSubscriptionsIndexReaction } from './customer-subscriptions-index.reaction';
import { subscriptionAggregate } from './subscription.aggregate';
import { DunningFinalActionReaction } from './dunning-final-action.reaction';
import { subscriptionProjection } from './subscription.projection';
import { SubscriptionsModule } from './subscriptions.module';

/** Subscriptions: their state table, their cycle on their customer's clock, and the invoices each period closes with. */
export const subscriptionsContext: ContextManifest = {
  name: 'subscriptions',
  module: SubscriptionsModule,
  projections: [subscriptionProjection],
  processes: [SubscriptionCycleProcess, CustomerSubscriptionsProcess],
  reactions: [LateUsageRebillReaction, CustomerSubscriptionsIndexReaction, DunningFinalActionReaction],
  timedAggregates: [subscriptionAggregate],
  aggregateTypes: [{ idPrefix: 'sub', type: 'subscription' }],
};
