import { Module } from '@nestjs/common';
import { WebhookDispatch } from './delivery/webhook-dispatcher.service';
import { WebhookDeliveries } from './webhook-deliveries';
import { WebhookEndpointsController } from './webhook-endpoints.controller';
import { webhookQueryHandlers } from './webhook.queries';

@Module({
  controllers: [WebhookEndpointsController],
  providers: [WebhookDeliveries, ...webhookQueryHandlers, WebhookDispatch],
  exports: [WebhookDispatch],
})
export class WebhooksModule {}
