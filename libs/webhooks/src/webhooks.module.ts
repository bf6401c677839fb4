import { Module } from '@nestjs/common';
import { WebhookDispatch } from './delivery/webhook-dispatcher.service';
import { eventCatalogueProvider } from './event-catalogue.provider';
import { WebhookDeliveries } from './webhook-deliveries';
import { WebhookEndpointReadsController, WebhookEndpointsController } from './webhook-endpoints.controller';

@Module({
  controllers: [WebhookEndpointReadsController, WebhookEndpointsController],
  providers: [eventCatalogueProvider, WebhookDeliveries, WebhookDispatch],
  exports: [WebhookDispatch],
})
export class WebhooksModule {}
