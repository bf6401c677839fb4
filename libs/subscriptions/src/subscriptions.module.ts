import { Module } from '@nestjs/common';
import { InvoicingModule } from '@tally/invoicing';
import { CustomersModule } from '@tally/customers';
import { GetUpcomingInvoiceHandler } from './billing/upcoming-invoice';
import { GetUsageSummaryHandler } from './billing/usage-summary';
import { InvoiceOutcomesReaction } from './billing/invoice-outcomes.reaction';
import { RefundRecognitionReaction } from './billing/refund-recognition.reaction';
import { InvoiceReissue } from './billing/invoice-reissue';
import { SubscriptionInvoiceBuilder } from './billing/subscription-invoice.builder';
import { SubscriptionInvoices } from './billing/subscription-invoices';
import { SubscriptionInvoicingReaction } from './billing/subscription-invoicing.reaction';
import { CustomerSubscriptionsProcess } from './customer-subscriptions.process';
import { LateUsageRebillReaction } from './billing/late-usage-rebill.reaction';
import { CustomerSubscriptionsIndexReaction } from './customer-subscriptions-index.reaction';
import { DunningFinalActionReaction } from './dunning-final-action.reaction';
import { SubscriptionChanges } from './subscription-changes';
import { SubscriptionCreation } from './subscription-creation';
import { SubscriptionReadsController, SubscriptionsController } from './subscriptions.controller';

@Module({
  imports: [InvoicingModule, CustomersModule],
  controllers: [SubscriptionReadsController, SubscriptionsController],
  providers: [
    SubscriptionCreation,
    SubscriptionChanges,
    InvoiceReissue,
    GetUpcomingInvoiceHandler,
    GetUsageSummaryHandler,
    SubscriptionInvoiceBuilder,
    SubscriptionInvoices,
    CustomerSubscriptionsProcess,
    LateUsageRebillReaction,
    CustomerSubscriptionsIndexReaction,
    DunningFinalActionReaction,
    SubscriptionInvoicingReaction,
    InvoiceOutcomesReaction,
    RefundRecognitionReaction,
  ],
  exports: [InvoiceReissue, CustomerSubscriptionsProcess, SubscriptionInvoicingReaction, InvoiceOutcomesReaction, RefundRecognitionReaction, LateUsageRebillReaction, CustomerSubscriptionsIndexReaction, DunningFinalActionReaction],
})
export class SubscriptionsModule {}
