import { Module } from '@nestjs/common';
import { WebhookDispatch } from './delivery/webhook-dispatcher.service';
import { eventCatalogueProvider } from './event-catalogue.provider';
import { WebhookDeliveries } from './webhook-deliveries';
import { WebhookEndpointReadsController, WebhookEndpointsController } from './webhook-endpoints.controller';
import { webhookQueryHandlers } from './webhook.queries';

@Module({
  controllers: [WebhookEndpointReadsController, WebhookEndpointsController],
  providers: [eventCatalogueProvider, WebhookDeliveries, ...webhookQueryHandlers, WebhookDispatch],
  exports: [WebhookDispatch],
})
export class WebhooksModule {}
