import { Module } from '@nestjs/common';
import { InvoicingModule } from '@tally/invoicing';
import { CustomersModule } from '@tally/customers';
import { GetUpcomingInvoiceHandler } from './billing/upcoming-invoice';
import { GetUsageSummaryHandler } from './billing/usage-summary';
import { ApplyPauseToOpenInvoicesHandler } from './billing/pause-open-invoices.handler';
import { InvoiceSubscriptionHandler } from './billing/invoice-subscription.handler';
import { ReissueInvoiceWithUsageHandler } from './billing/reissue-invoice.handler';
import { SubscriptionCycleProcess } from './billing/subscription-cycle.process';
import { SubscriptionInvoiceBuilder } from './billing/subscription-invoice.builder';
import { CustomerSubscriptionsProcess } from './customer-subscriptions.process';
import { LateUsageRebillReaction } from './billing/late-usage-rebill.reaction';
import { CustomerSubscriptionsIndexReaction } from './customer-subscriptions-index.reaction';
import { DunningFinalActionReaction } from './dunning-final-action.reaction';
import { subscriptionCommandHandlers } from './subscription.handlers';
import { subscriptionQueryHandlers } from './subscription.queries';
import { SubscriptionsController } from './subscriptions.controller';

@Module({
  imports: [InvoicingModule, CustomersModule],
  controllers: [SubscriptionsController],
  providers: [
    ...subscriptionCommandHandlers,
    ...subscriptionQueryHandlers,
    InvoiceSubscriptionHandler,
    ReissueInvoiceWithUsageHandler,
    ApplyPauseToOpenInvoicesHandler,
    GetUpcomingInvoiceHandler,
    GetUsageSummaryHandler,
    SubscriptionInvoiceBuilder,
    SubscriptionCycleProcess,
    CustomerSubscriptionsProcess,
    LateUsageRebillReaction,
    CustomerSubscriptionsIndexReaction,
    DunningFinalActionReaction,
  ],
  exports: [SubscriptionCycleProcess, CustomerSubscriptionsProcess, LateUsageRebillReaction, CustomerSubscriptionsIndexReaction, DunningFinalActionReaction],
})
export class SubscriptionsModule {}
