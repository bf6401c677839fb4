import type { Event } from '@tally/kernel';

/** An endpoint and its first signing secret (`whsec_…`), sealed in the store (see webhook-endpoint.pii.ts); only the create response shows it. */
export type WebhookEndpointCreated = Event<
  'WebhookEndpointCreated',
  { webhook_endpoint_id: string; url: string; events: readonly string[]; description: string | null; api_version: string; secret: string }
>;

/** The fields a PATCH changed, and only those. */
export type WebhookEndpointUpdated = Event<
  'WebhookEndpointUpdated',
  { webhook_endpoint_id: string; url?: string; events?: readonly string[]; description?: string | null; status?: WebhookEndpointStatus }
>;

/** A new signing secret, sealed as the first; the one before it still signs (as a second `v1`) until `previous_secret_expires_at`. */
export type WebhookEndpointSecretRotated = Event<'WebhookEndpointSecretRotated', { webhook_endpoint_id: string; secret: string; previous_secret_expires_at: string }>;

export type WebhookEndpointDeleted = Event<'WebhookEndpointDeleted', { webhook_endpoint_id: string }>;

/** A delivery gave up after its last retry (`webhook_endpoint.delivery_failed`). */
export type WebhookDeliveryFailed = Event<
  'WebhookDeliveryFailed',
  { webhook_endpoint_id: string; delivery_id: string; event_id: string; event_type: string; attempts: number; failed_at: string }
>;

export type WebhookEndpointStatus = 'enabled' | 'disabled';

export type WebhookEndpointEvent = WebhookEndpointCreated | WebhookEndpointUpdated | WebhookEndpointSecretRotated | WebhookEndpointDeleted | WebhookDeliveryFailed;
