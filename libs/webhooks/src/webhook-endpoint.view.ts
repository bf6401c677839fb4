import { defineView, type StampedResource } from '@tally/runtime';
import type { WebhookEndpointEvent, WebhookEndpointStatus } from './domain/webhook-endpoint.events';

export const WEBHOOK_ENDPOINT_AGGREGATE = 'webhook_endpoint';

export interface WebhookEndpointResource extends StampedResource {
  object: 'webhook_endpoint';
  url: string;
  events: readonly string[];
  description: string | null;
  api_version: string;
  status: WebhookEndpointStatus;
  /** The last delivery that gave up, if any. */
  last_failed_delivery: { id: string; event_id: string; event_type: string; attempts: number; failed_at: string } | null;
  secret_rotated_at: string | null;
}

/** A webhook endpoint as the API shows it, never with its secret; a delivery that gave up is published as `webhook_endpoint.delivery_failed`. */
export const webhookEndpointView = defineView<WebhookEndpointResource, WebhookEndpointEvent, 'WebhookEndpointCreated'>({
  object: 'webhook_endpoint',
  created: {
    type: 'WebhookEndpointCreated',
    fields: ({ url, events, description, api_version }) => ({ url, events, description, api_version, status: 'enabled', last_failed_delivery: null, secret_rotated_at: null }),
  },
  changes: {
    WebhookEndpointUpdated: (_endpoint, { webhook_endpoint_id: _id, ...changed }) => changed,
    WebhookEndpointSecretRotated: (_endpoint, _data, event) => ({ secret_rotated_at: event.metadata.occurred_at }),
    WebhookEndpointDeleted: 'deleted',
    WebhookDeliveryFailed: (_endpoint, { delivery_id, event_id, event_type, attempts, failed_at }) => ({ last_failed_delivery: { id: delivery_id, event_id, event_type, attempts, failed_at } }),
  },
  publicTypes: {
    WebhookEndpointCreated: undefined,
    WebhookEndpointUpdated: undefined,
    WebhookEndpointSecretRotated: undefined,
    WebhookEndpointDeleted: undefined,
    WebhookDeliveryFailed: 'webhook_endpoint.delivery_failed',
  },
});
