import { Module } from '@nestjs/common';
import { InvoiceSubscriptionHandler } from './billing/invoice-subscription.handler';
import { SubscriptionCycleProcess } from './billing/subscription-cycle.process';
import { SubscriptionInvoiceBuilder } from './billing/subscription-invoice.builder';
import { NoUsageMetered, USAGE_READINGS } from './billing/usage-readings.port';
import { subscriptionCommandHandlers } from './subscription.handlers';
import { subscriptionQueryHandlers } from './subscription.queries';
import { SubscriptionsController } from './subscriptions.controller';

@Module({
  controllers: [SubscriptionsController],
  providers: [
    ...subscriptionCommandHandlers,
    ...subscriptionQueryHandlers,
    InvoiceSubscriptionHandler,
    SubscriptionInvoiceBuilder,
    SubscriptionCycleProcess,
    { provide: USAGE_READINGS, useClass: NoUsageMetered },
  ],
  exports: [SubscriptionCycleProcess],
})
export class SubscriptionsModule {}
