import type { WebhookEndpointEvent } from '../domain/webhook-endpoint.events';
import type { DeliveryTarget } from './outbox-documents';

/**
 * The endpoints a tenant delivers to, after one event of an endpoint's stream (at `revision`);
 * the same list when the event changes nothing a delivery needs. A secret is kept as the revision
 * of the event that holds it, never in clear. A rotation keeps the previous secret (only the one
 * before the new) until it expires, so deliveries carry both signatures meanwhile.
 */
export function foldTargets(endpoints: readonly DeliveryTarget[], event: WebhookEndpointEvent, revision: number, at: string): readonly DeliveryTarget[] {
  const change = (id: string, edit: (endpoint: DeliveryTarget) => DeliveryTarget) => endpoints.map((endpoint) => (endpoint.id === id ? edit(endpoint) : endpoint));
  switch (event.type) {
    case 'WebhookEndpointCreated': {
      const { webhook_endpoint_id: id, url, events, api_version } = event.data;
      if (endpoints.some((endpoint) => endpoint.id === id)) return endpoints;
      return [...endpoints, { id, url, events, status: 'enabled', api_version, secrets: [{ revision, expires_at: null }] }];
    }
    case 'WebhookEndpointUpdated': {
      const { webhook_endpoint_id: id, url, events, status } = event.data;
      if (url === undefined && events === undefined && status === undefined) return endpoints;
      return change(id, (endpoint) => ({ ...endpoint, ...(url !== undefined && { url }), ...(events !== undefined && { events }), ...(status !== undefined && { status }) }));
    }
    case 'WebhookEndpointSecretRotated': {
      const { webhook_endpoint_id: id, previous_secret_expires_at } = event.data;
      return change(id, (endpoint) => {
        const previous = endpoint.secrets[0];
        const keepsPrevious = previous_secret_expires_at > at;
        return { ...endpoint, secrets: [{ revision, expires_at: null }, ...(keepsPrevious ? [{ ...previous, expires_at: previous_secret_expires_at }] : [])] };
      });
    }
    case 'WebhookEndpointDeleted':
      return endpoints.filter((endpoint) => endpoint.id !== event.data.webhook_endpoint_id);
    case 'WebhookDeliveryFailed':
      return endpoints;
  }
}
