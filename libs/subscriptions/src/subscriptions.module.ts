import { Module } from '@nestjs/common';
import { InvoicingModule } from '@tally/invoicing';
import { GetUpcomingInvoiceHandler } from './billing/upcoming-invoice';
import { GetUsageSummaryHandler } from './billing/usage-summary';
import { ApplyPauseToOpenInvoicesHandler } from './billing/pause-open-invoices.handler';
import { InvoiceSubscriptionHandler } from './billing/invoice-subscription.handler';
import { ReissueInvoiceWithUsageHandler } from './billing/reissue-invoice.handler';
import { SubscriptionCycleProcess } from './billing/subscription-cycle.process';
import { SubscriptionInvoiceBuilder } from './billing/subscription-invoice.builder';
import { CustomerSubscriptionsProcess } from './customer-subscriptions.process';
import { subscriptionCommandHandlers } from './subscription.handlers';
import { SubscriptionReadsController, SubscriptionsController } from './subscriptions.controller';

@Module({
  imports: [InvoicingModule],
  controllers: [SubscriptionReadsController, SubscriptionsController],
  providers: [
    ...subscriptionCommandHandlers,
    InvoiceSubscriptionHandler,
    ReissueInvoiceWithUsageHandler,
    ApplyPauseToOpenInvoicesHandler,
    GetUpcomingInvoiceHandler,
    GetUsageSummaryHandler,
    SubscriptionInvoiceBuilder,
    SubscriptionCycleProcess,
    CustomerSubscriptionsProcess,
  ],
  exports: [SubscriptionCycleProcess, CustomerSubscriptionsProcess],
})
export class SubscriptionsModule {}
