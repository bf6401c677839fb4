import { randomInt } from 'node:crypto';
import { signatureHeaderName, isApiVersion, CURRENT_API_VERSION } from '@tally/http';
import type { PublicEventDoc } from '@tally/runtime';
import { nextAttemptAt } from '../domain/retry-schedule';
import type { WebhookDeliveryAttempted } from '../domain/webhook-delivery.events';
import { deliveryBody } from '../delivery-body';
import type { DeliveryDoc, DeliveryTarget } from '../outbox/outbox-documents';
import { signatureHeaderValue } from './signature';
import type { WebhookRequest, WebhookResponse } from './webhook-sender';

/**
 * The POST of a delivery to its endpoint, signed at `signedAt` (the system clock's time, which
 * receivers check against theirs) with `secrets`, the endpoint's secrets still alive then.
 */
export function deliveryRequest(target: DeliveryTarget, secrets: readonly string[], environment: string, delivery: DeliveryDoc, event: PublicEventDoc, tenantId: string, signedAt: Date): WebhookRequest {
  const version = isApiVersion(target.api_version) ? target.api_version : CURRENT_API_VERSION;
  const body = deliveryBody(event, tenantId, version);
  const headers = {
    'Content-Type': 'application/json',
    [signatureHeaderName(version)]: signatureHeaderValue(secrets, Math.floor(signedAt.getTime() / 1000), body),
    'Service-Event-Id': delivery.event_id,
    'Service-Delivery-Id': delivery.id,
    'Service-Event-Type': delivery.event_type,
  };
  return { url: target.url, headers, body, mode: environment === 'live' ? 'live' : 'sandbox' };
}

/**
 * The record of an attempt made at `attemptedAt` (on the lane's clock): succeeded on a 2xx,
 * otherwise retrying at the schedule's next time, or failed past its horizon (a manual retry is
 * one attempt, never retried).
 */
export function attemptRecord(id: string, delivery: DeliveryDoc, attemptedAt: Date, response: WebhookResponse): WebhookDeliveryAttempted & { id: string } {
  const attempt = delivery.attempt_count + 1;
  const succeeded = response.status !== null && response.status >= 200 && response.status < 300;
  const next = succeeded || delivery.manual_retry ? undefined : nextAttemptAt(attempt, new Date(delivery.first_attempted_at ?? attemptedAt), attemptedAt, randomInt(1_000_000) / 1_000_000);
  return {
    id,
    type: 'WebhookDeliveryAttempted',
    data: {
      delivery_id: delivery.id,
      attempt,
      attempted_at: attemptedAt.toISOString(),
      duration_ms: Math.round(response.durationMs),
      response_status: response.status,
      response_body: response.body,
      error: response.error,
      outcome: succeeded ? 'succeeded' : next ? 'retrying' : 'failed',
      next_attempt_at: next?.toISOString() ?? null,
    },
  };
}
