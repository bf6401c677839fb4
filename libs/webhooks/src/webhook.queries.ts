import { Inject } from '@nestjs/common';
import { Query, QueryHandler, type IQueryHandler } from '@nestjs/cqrs';
import type { RequestContext } from '@tally/cells';
import { parseListQuery, PUBLIC_EVENTS, ScopedReads, toPage, type ListPage, type ListSpec, type PublicEventDoc } from '@tally/runtime';
import type { EventCatalogue } from './domain/event-types';
import { EVENT_CATALOGUE } from './event-catalogue.provider';
import { webhookEndpointNotFound } from './domain/webhook-endpoint.decider';
import { WEBHOOK_DELIVERY_STATUSES } from './dto/webhook-delivery.dto';
import { deliveryBody } from './delivery-body';
import { WEBHOOK_DELIVERIES, type DeliveryDoc } from './outbox/outbox-documents';
import { webhookEndpointResource } from './webhook-endpoint.resource';
import type { WebhookEndpointResource } from './webhook-endpoint.view';

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

export class ListWebhookDeliveriesQuery extends Query<ListPage<WebhookDelivery>> {
  constructor(
    readonly context: RequestContext,
    readonly endpointId: string,
    readonly params: Record<string, unknown>,
  ) {
    super();
  }
}

@QueryHandler(ListWebhookDeliveriesQuery)
export class ListWebhookDeliveriesHandler implements IQueryHandler<ListWebhookDeliveriesQuery, ListPage<WebhookDelivery>> {
  private readonly list: ListSpec;

  constructor(
    private readonly reads: ScopedReads,
    @Inject(EVENT_CATALOGUE) catalogue: EventCatalogue,
  ) {
    this.list = webhookDeliveryList(catalogue);
  }

  async execute({ context, endpointId, params }: ListWebhookDeliveriesQuery): Promise<ListPage<WebhookDelivery>> {
    const endpoint = await endpointOf(this.reads, context, endpointId);
    const cursors = this.reads.cursorsFor(context, `${WEBHOOK_DELIVERIES}:${endpointId}`);
    const query = parseListQuery(params, this.list, cursors);
    const found = await this.reads.list<DeliveryDoc>(context, WEBHOOK_DELIVERIES, { ...query, where: [{ field: 'webhook_endpoint_id', op: 'eq', value: endpointId }, ...(query.where ?? [])] });
    const events = await this.reads.many<PublicEventDoc>(context, PUBLIC_EVENTS, [...new Set(found.items.map((delivery) => delivery.event_id))]);
    return toPage(found, query, (delivery) => presentDelivery(delivery, events.get(delivery.event_id), context.tenantId, endpoint.api_version), cursors);
  }
}

export async function endpointOf(reads: ScopedReads, context: RequestContext, endpointId: string): Promise<WebhookEndpointResource> {
  const found = await reads.retrieve<WebhookEndpointResource>(context, webhookEndpointResource.collection, endpointId);
  if (!found) throw webhookEndpointNotFound(endpointId);
  return found.resource;
}

export function presentDelivery(delivery: DeliveryDoc, event: PublicEventDoc | undefined, tenantId: string, apiVersion: string): WebhookDelivery {
  const { next_in_lane: _next, manual_retry: _manual, first_attempted_at: _first, sequence: _sequence, tenant_id: _tenant, environment: _environment, ...shown } = delivery;
  return { ...shown, request: event ? { body: deliveryBody(event, tenantId, apiVersion) } : null };
}

export const webhookQueryHandlers = [ListWebhookDeliveriesHandler];
