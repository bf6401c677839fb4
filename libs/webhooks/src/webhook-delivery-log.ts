import type { Cell, RequestContext } from '@tally/cells';
import type { AppendResult } from '@tally/eventstore';
import { eventMetadata } from '@tally/runtime';
import type { WebhookDeliveryLogEvent } from './domain/webhook-delivery.events';

export const WEBHOOK_DELIVERY_LOG_PREFIX = 'webhook_delivery_log-';

/** What happened to an endpoint's deliveries: attempts, manual retries, replays; one stream per endpoint. */
export const deliveryLogOf = (endpointId: string): string => `${WEBHOOK_DELIVERY_LOG_PREFIX}${endpointId}`;

/** A record for the log, and who made it (the request, or the dispatcher on behalf of a delivery's event). */
export interface DeliveryLogEntry {
  event: WebhookDeliveryLogEvent & { id: string };
  context: RequestContext;
}

/**
 * Appends to an endpoint's delivery log in one atomic write, with no revision check: the log
 * only records, and the outbox folds each record against the delivery as it then stands.
 */
export async function appendToDeliveryLog(cell: Cell, endpointId: string, entries: readonly DeliveryLogEntry[], now: Date): Promise<AppendResult> {
  return cell.events.append(
    deliveryLogOf(endpointId),
    entries.map(({ event, context }) => ({ ...event, metadata: { ...eventMetadata(context, now, undefined), schema_version: cell.upcasters.currentVersion(event.type) } })),
    { expectedRevision: 'any' },
  );
}
