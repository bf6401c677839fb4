import type { ContextManifest } from '@tally/runtime';
import { WebhookDispatch } from './delivery/webhook-dispatcher.service';
import { webhookOutboxProjection } from './outbox/webhook-outbox.projection';
import { webhookEndpointPii } from './webhook-endpoint.pii';
import { webhookEndpointResource } from './webhook-endpoint.resource';
import { WebhooksModule } from './webhooks.module';

/** Webhook endpoints (their signing secrets sealed), the outbox that follows every public event, and the dispatcher that POSTs its deliveries. */
export const webhooksContext: ContextManifest = {
  name: 'webhooks',
  module: WebhooksModule,
  projections: [webhookEndpointResource.projection],
  projectionsOfPublicEvents: (sources) => [webhookOutboxProjection(sources)],
  services: [WebhookDispatch],
  pii: webhookEndpointPii,
  aggregateTypes: [
    {
      idPrefix: 'we',
      type: 'webhook_endpoint',
      secretFields: webhookEndpointPii.map(({ eventType }) => ({ eventType, field: 'secret' })),
    },
  ],
};
