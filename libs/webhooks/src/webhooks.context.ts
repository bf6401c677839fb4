import type { ContextManifest } from '@tally/runtime';
import { WebhookDispatch } from './delivery/webhook-dispatcher.service';
import { webhookOutboxProjection } from './outbox/webhook-outbox.projection';
import { webhookEndpointProjection } from './webhook-endpoint.projection';
import { WebhooksModule } from './webhooks.module';

/** Webhook endpoints, the outbox that follows every public event, and the dispatcher that POSTs its deliveries. */
export const webhooksContext: ContextManifest = {
  name: 'webhooks',
  module: WebhooksModule,
  projections: [webhookEndpointProjection],
  projectionsOfPublicEvents: (sources) => [webhookOutboxProjection(sources)],
  services: [WebhookDispatch],
  aggregateTypes: [{ idPrefix: 'we', type: 'webhook_endpoint' }],
};
