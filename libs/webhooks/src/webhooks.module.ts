import { Module } from '@nestjs/common';
import { WebhookDispatch } from './delivery/webhook-dispatcher.service';
import { webhookDeliveryHandlers } from './webhook-delivery.handlers';
import { webhookEndpointHandlers } from './webhook-endpoint.handlers';
import { WebhookEndpointReadsController, WebhookEndpointsController } from './webhook-endpoints.controller';
import { webhookQueryHandlers } from './webhook.queries';

@Module({
  controllers: [WebhookEndpointReadsController, WebhookEndpointsController],
  providers: [...webhookEndpointHandlers, ...webhookDeliveryHandlers, ...webhookQueryHandlers, WebhookDispatch],
  exports: [WebhookDispatch],
})
export class WebhooksModule {}
