import type { ContextManifest } from '@tally/runtime';
import { SubscriptionCycleProcess } from './billing/subscription-cycle.process';
import { InvoiceOutcomesReaction } from './billing/invoice-outcomes.reaction';
import { SubscriptionInvoicingReaction } from './billing/subscription-invoicing.reaction';
import { CustomerSubscriptionsProcess } from './customer-subscriptions.process';
import { subscriptionUpcasters } from './domain/subscription.upcasters';
import { subscriptionProjection } from './subscription.projection';
import { SubscriptionsModule } from './subscriptions.module';

/** Subscriptions: their state table, their timers on their customer's clock, the invoices their events call for, and their invoices' payment. */
export const subscriptionsContext: ContextManifest = {
  name: 'subscriptions',
  module: SubscriptionsModule,
  projections: [subscriptionProjection],
  processes: [SubscriptionCycleProcess, CustomerSubscriptionsProcess],
  reactions: [SubscriptionInvoicingReaction, InvoiceOutcomesReaction],
  upcasters: subscriptionUpcasters,
  aggregateTypes: [{ idPrefix: 'sub', type: 'subscription' }],
};
