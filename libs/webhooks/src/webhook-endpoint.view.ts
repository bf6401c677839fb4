import type { ResourceView } from '@tally/runtime';
import type { WebhookEndpointEvent, WebhookEndpointStatus } from './domain/webhook-endpoint.events';

export const WEBHOOK_ENDPOINT_AGGREGATE = 'webhook_endpoint';

export interface WebhookEndpointResource {
  [field: string]: unknown;
  id: string;
  object: 'webhook_endpoint';
  url: string;
  events: readonly string[];
  description: string | null;
  api_version: string;
  status: WebhookEndpointStatus;
  /** The last delivery that gave up, if any. */
  last_failed_delivery: { id: string; event_id: string; event_type: string; attempts: number; failed_at: string } | null;
  secret_rotated_at: string | null;
  livemode: boolean;
  created_at: string;
  updated_at: string;
}

/** A webhook endpoint as the API shows it, never with its secret; a delivery that gave up is published as `webhook_endpoint.delivery_failed`. */
export const webhookEndpointView: ResourceView<WebhookEndpointResource, WebhookEndpointEvent> = {
  aggregateType: WEBHOOK_ENDPOINT_AGGREGATE,
  collection: 'webhook_endpoints',

  apply(endpoint, event) {
    const at = event.metadata.occurred_at;
    if (event.type === 'WebhookEndpointCreated') {
      const { webhook_endpoint_id, url, events, description, api_version } = event.data;
      return {
        id: webhook_endpoint_id,
        object: 'webhook_endpoint',
        url,
        events,
        description,
        api_version,
        status: 'enabled',
        last_failed_delivery: null,
        secret_rotated_at: null,
        livemode: event.metadata.environment === 'live',
        created_at: at,
        updated_at: at,
      };
    }
    if (!endpoint) return undefined;
    switch (event.type) {
      case 'WebhookEndpointUpdated': {
        const { webhook_endpoint_id: _id, ...changed } = event.data;
        return { ...endpoint, ...changed, updated_at: at };
      }
      case 'WebhookEndpointSecretRotated':
        return { ...endpoint, secret_rotated_at: at, updated_at: at };
      case 'WebhookEndpointDeleted':
        return undefined;
      case 'WebhookDeliveryFailed': {
        const { delivery_id, event_id, event_type, attempts, failed_at } = event.data;
        return { ...endpoint, last_failed_delivery: { id: delivery_id, event_id, event_type, attempts, failed_at }, updated_at: at };
      }
    }
  },

  publicTypes: ['webhook_endpoint.delivery_failed'],
  publicType: (event) => (event.type === 'WebhookDeliveryFailed' ? 'webhook_endpoint.delivery_failed' : undefined),
};
