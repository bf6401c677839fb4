import { Module } from '@nestjs/common';
import { InvoicingModule } from '@tally/invoicing';
import { GetUpcomingInvoiceHandler } from './billing/upcoming-invoice';
import { GetUsageSummaryHandler } from './billing/usage-summary';
import { InvoiceOutcomesReaction } from './billing/invoice-outcomes.reaction';
import { InvoiceReissue } from './billing/invoice-reissue';
import { SubscriptionCycleProcess } from './billing/subscription-cycle.process';
import { SubscriptionInvoiceBuilder } from './billing/subscription-invoice.builder';
import { SubscriptionInvoices } from './billing/subscription-invoices';
import { SubscriptionInvoicingReaction } from './billing/subscription-invoicing.reaction';
import { CustomerSubscriptionsProcess } from './customer-subscriptions.process';
import { SubscriptionChanges } from './subscription-changes';
import { SubscriptionCreation } from './subscription-creation';
import { subscriptionQueryHandlers } from './subscription.queries';
import { SubscriptionsController } from './subscriptions.controller';

@Module({
  imports: [InvoicingModule],
  controllers: [SubscriptionsController],
  providers: [
    SubscriptionCreation,
    SubscriptionChanges,
    ...subscriptionQueryHandlers,
    InvoiceReissue,
    GetUpcomingInvoiceHandler,
    GetUsageSummaryHandler,
    SubscriptionInvoiceBuilder,
    SubscriptionInvoices,
    SubscriptionCycleProcess,
    CustomerSubscriptionsProcess,
    SubscriptionInvoicingReaction,
    InvoiceOutcomesReaction,
  ],
  exports: [InvoiceReissue, SubscriptionCycleProcess, CustomerSubscriptionsProcess, SubscriptionInvoicingReaction, InvoiceOutcomesReaction],
})
export class SubscriptionsModule {}
