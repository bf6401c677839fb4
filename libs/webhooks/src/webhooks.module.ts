import { Module } from '@nestjs/common';
import { WebhookDispatch } from './delivery/webhook-dispatcher.service';
import { WebhookDeliveries } from './webhook-deliveries';
import { WebhookEndpointReadsController, WebhookEndpointsController } from './webhook-endpoints.controller';

@Module({
  controllers: [WebhookEndpointReadsController, WebhookEndpointsController],
  providers: [WebhookDeliveries, WebhookDispatch],
  exports: [WebhookDispatch],
})
export class WebhooksModule {}
