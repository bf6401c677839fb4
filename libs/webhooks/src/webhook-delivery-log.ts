import type { Cell, RequestContext } from '@tally/cells';
import { eventMetadata } from '@tally/runtime';
import type { WebhookDeliveryLogEvent } from './domain/webhook-delivery.events';

export const WEBHOOK_DELIVERY_LOG_PREFIX = 'webhook_delivery_log-';

/** What happened to an endpoint's deliveries: attempts, manual retries, replays; one stream per endpoint. */
export const deliveryLogOf = (endpointId: string): string => `${WEBHOOK_DELIVERY_LOG_PREFIX}${endpointId}`;

/**
 * Appends to an endpoint's delivery log in one atomic write, with no revision check: the log
 * only records, and the outbox folds each record against the delivery as it then stands.
 */
export async function appendToDeliveryLog(
  cell: Cell,
  context: RequestContext,
  endpointId: string,
  events: readonly (WebhookDeliveryLogEvent & { id: string })[],
  now: Date,
): Promise<void> {
  const metadata = { ...eventMetadata(context, now, undefined) };
  await cell.events.append(
    deliveryLogOf(endpointId),
    events.map((event) => ({ ...event, metadata: { ...metadata, schema_version: cell.upcasters.currentVersion(event.type) } })),
    { expectedRevision: 'any' },
  );
}
