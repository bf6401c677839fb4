import { downgradeWebhookPayload, isApiVersion, CURRENT_API_VERSION } from '@tally/http';
import type { PublicEventDoc } from '@tally/runtime';

/**
 * The body POSTed for an event: the spec's envelope as `GET /v1/events/{id}` shows it, rendered in
 * the endpoint's API version. It is the same for every attempt, so a record shows it without
 * having stored it.
 */
export function deliveryBody(event: PublicEventDoc, tenantId: string, apiVersion: string): string {
  const { id, object, type, occurred_at, created_at, schema_version, aggregate_type, aggregate_id, sequence, data, previous_attributes, request } = event;
  const envelope = {
    id,
    object,
    type,
    occurred_at,
    created_at,
    schema_version,
    tenant_id: tenantId,
    aggregate_type,
    aggregate_id,
    sequence,
    data,
    ...(previous_attributes && { previous_attributes }),
    request,
  };
  return JSON.stringify(downgradeWebhookPayload(envelope as PublicEventDoc, isApiVersion(apiVersion) ? apiVersion : CURRENT_API_VERSION));
}
