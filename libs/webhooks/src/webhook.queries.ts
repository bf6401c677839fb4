import type { ListSpec, PublicEventDoc } from '@tally/runtime';
import type { EventCatalogue } from './domain/event-types';
import { WEBHOOK_DELIVERY_STATUSES } from './dto/webhook-delivery.dto';
import { deliveryBody } from './delivery-body';
import type { DeliveryDoc } from './outbox/outbox-documents';

/**
 * A webhook endpoint's deliveries as a list: `event_type` takes the types of the catalogue. The
 * reference, whose decorators run before the app composes the catalogue, shows it as a string.
 */
export const webhookDeliveryList = (catalogue?: EventCatalogue): ListSpec => ({
  sortable: ['created_at'],
  filters: {
    status: { ops: ['eq'], values: WEBHOOK_DELIVERY_STATUSES },
    event_type: { ops: ['eq', 'in'], values: catalogue && [...catalogue.types] },
    created_at: { ops: ['gte', 'gt', 'lte', 'lt'], type: 'timestamp' },
  },
});

/** A delivery as the API shows it: the record, with the body it POSTs. */
export type WebhookDelivery = Omit<DeliveryDoc, 'tenant_id' | 'environment' | 'next_in_lane' | 'manual_retry' | 'first_attempted_at' | 'sequence'> & { request: { body: string } | null };

export function presentDelivery(delivery: DeliveryDoc, event: PublicEventDoc | undefined, tenantId: string, apiVersion: string): WebhookDelivery {
  const { next_in_lane: _next, manual_retry: _manual, first_attempted_at: _first, sequence: _sequence, tenant_id: _tenant, environment: _environment, ...shown } = delivery;
  return { ...shown, request: event ? { body: deliveryBody(event, tenantId, apiVersion) } : null };
}
