import type { ContextManifest } from '@tally/runtime';
import { WebhookDispatch } from './delivery/webhook-dispatcher.service';
import { ANNOUNCED_EVENT_TYPES } from './domain/event-types';
import { webhookOutboxProjection } from './outbox/webhook-outbox.projection';
import { webhookEndpointPii } from './webhook-endpoint.pii';
import { webhookEndpointResource } from './webhook-endpoint.resource';
import { WebhooksModule } from './webhooks.module';
import { WEBHOOKS_SECTION } from './webhooks.api-sections';

/** Webhook endpoints (their signing secrets sealed), the outbox that follows every public event, and the dispatcher that POSTs its deliveries. */
export const webhooksContext: ContextManifest = {
  name: 'webhooks',
  apiSections: [WEBHOOKS_SECTION],
  publicEventTypes: ANNOUNCED_EVENT_TYPES,
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
