import { Module } from '@nestjs/common';
import { subscriptionCommandHandlers } from './subscription.handlers';
import { subscriptionQueryHandlers } from './subscription.queries';
import { SubscriptionsController } from './subscriptions.controller';

@Module({
  controllers: [SubscriptionsController],
  providers: [...subscriptionCommandHandlers, ...subscriptionQueryHandlers],
})
export class SubscriptionsModule {}
