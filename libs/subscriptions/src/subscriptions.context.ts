import type { ContextManifest } from '@tally/runtime';
import { InvoiceOutcomesReaction } from './billing/invoice-outcomes.reaction';
import { RefundRecognitionReaction } from './billing/refund-recognition.reaction';
import { LateUsageRebillReaction } from './billing/late-usage-rebill.reaction';
import { SubscriptionInvoicingReaction } from './billing/subscription-invoicing.reaction';
import { CustomerSubscriptionsProcess } from './customer-subscriptions.process';
import { CustomerSubscriptionsIndexReaction } from './customer-subscriptions-index.reaction';
import { DunningFinalActionReaction } from './dunning-final-action.reaction';
import { subscriptionUpcasters } from './domain/subscription.upcasters';
import { subscriptionAggregate } from './subscription.aggregate';
import { subscriptionResource } from './subscription.resource';
import { SubscriptionsModule } from './subscriptions.module';
import { SUBSCRIPTIONS_SECTION } from './subscriptions.api-sections';

/** Subscriptions: their state table, their cycle on their customer's clock, and the invoices each period closes with. */
export const subscriptionsContext: ContextManifest = {
  name: 'subscriptions',
  apiSections: [SUBSCRIPTIONS_SECTION],
  module: SubscriptionsModule,
  projections: [subscriptionResource.projection],
  processes: [CustomerSubscriptionsProcess],
  reactions: [SubscriptionInvoicingReaction, InvoiceOutcomesReaction, RefundRecognitionReaction, LateUsageRebillReaction, CustomerSubscriptionsIndexReaction, DunningFinalActionReaction],
  timedAggregates: [subscriptionAggregate],
  upcasters: subscriptionUpcasters,
  aggregateTypes: [{ idPrefix: 'sub', type: 'subscription' }],
};
