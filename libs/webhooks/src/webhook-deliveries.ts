import { Inject, Injectable } from '@nestjs/common';
import { DomainError, parseInstant, type IdGenerator } from '@tally/kernel';
import { ID_GENERATOR, type RequestContext } from '@tally/cells';
import { Clocks, CommandRuntime, parseListQuery, PUBLIC_EVENTS, ResourceReads, ScopedReads, toPage, type ListPage, type PublicEventDoc } from '@tally/runtime';
import { catalogueInVersion, type EventCatalogue } from './domain/event-types';
import { EVENT_CATALOGUE } from './event-catalogue.provider';
import { WEBHOOK_DELIVERIES, type DeliveryDoc } from './outbox/outbox-documents';
import { appendToDeliveryLog } from './webhook-delivery-log';
import { webhookEndpointResource } from './webhook-endpoint.resource';
import type { WebhookEndpointResource } from './webhook-endpoint.view';
import { presentDelivery, webhookDeliveryList, type WebhookDelivery } from './webhook.queries';

export interface ReplayWindow {
  from: string;
  to: string;
  types?: readonly string[];
  status?: DeliveryDoc['status'];
}

export interface WebhookReplay {
  id: string;
  object: 'webhook_replay';
  webhook_endpoint_id: string;
  deliveries: number;
}

/** The spec's bulk replay window. */
const MAX_REPLAY_WINDOW_MS = 7 * 24 * 3600 * 1000;
/** Deliveries one replay request sends again: a larger window is replayed in parts. */
export const MAX_REPLAYED = 10_000;
const PAGE = 1000;

/** A webhook endpoint's deliveries: listed, or sent again (one of them retried, or a window of them replayed) by appending to the endpoint's delivery log. */
@Injectable()
export class WebhookDeliveries {
  constructor(
    private readonly runtime: CommandRuntime,
    private readonly reads: ScopedReads,
    private readonly resources: ResourceReads,
    private readonly clocks: Clocks,
    @Inject(ID_GENERATOR) private readonly ids: IdGenerator,
    @Inject(EVENT_CATALOGUE) private readonly catalogue: EventCatalogue,
  ) {}

  /** One page of the endpoint's deliveries, each with the body it POSTs. */
  async list(context: RequestContext, endpointId: string, params: Record<string, unknown>): Promise<ListPage<WebhookDelivery>> {
    const endpoint = await this.endpoint(context, endpointId);
    const cursors = this.reads.cursorsFor(context, `${WEBHOOK_DELIVERIES}:${endpointId}`);
    // `event_type` takes the types of the endpoint's version: it is sent no other.
    const query = parseListQuery(params, webhookDeliveryList(catalogueInVersion(this.catalogue, endpoint.api_version)), cursors);
    const found = await this.reads.list<DeliveryDoc>(context, WEBHOOK_DELIVERIES, { ...query, where: [{ field: 'webhook_endpoint_id', op: 'eq', value: endpointId }, ...(query.where ?? [])] });
    const events = await this.reads.many<PublicEventDoc>(context, PUBLIC_EVENTS, [...new Set(found.items.map((delivery) => delivery.event_id))]);
    return toPage(found, query, (delivery) => presentDelivery(delivery, events.get(delivery.event_id), context.tenantId, endpoint.api_version), cursors);
  }

  /** One more attempt, queued behind the deliveries of its aggregate that are still to go (at once, when it is their first). */
  async retry(context: RequestContext, endpointId: string, deliveryId: string): Promise<WebhookDelivery> {
    const endpoint = await this.endpoint(context, endpointId);
    const found = await this.reads.retrieve<DeliveryDoc>(context, WEBHOOK_DELIVERIES, deliveryId);
    if (!found || found.resource.webhook_endpoint_id !== endpointId) throw DomainError.notFound('webhook_delivery.not_found', `No delivery ${deliveryId} of webhook endpoint ${endpointId}`);
    const cell = this.runtime.cellOf(context);
    await appendToDeliveryLog(cell, endpointId, [{ event: { id: this.ids.ulid(), type: 'WebhookDeliveryRetryRequested', data: { delivery_id: deliveryId } }, context }], await this.clocks.now(cell));
    const event = (await this.reads.retrieve<PublicEventDoc>(context, PUBLIC_EVENTS, found.resource.event_id))?.resource;
    return presentDelivery({ ...found.resource, status: 'pending' }, event, context.tenantId, endpoint.api_version);
  }

  /**
   * A new delivery of each event the endpoint was sent in the window (its first delivery, not
   * earlier replays), in commit order per aggregate; all of them recorded in one append.
   */
  async replay(context: RequestContext, endpointId: string, window: ReplayWindow): Promise<WebhookReplay> {
    const endpoint = await this.endpoint(context, endpointId);
    const deliveries = await this.deliveriesIn(context, endpointId, checkedWindow(window, catalogueInVersion(this.catalogue, endpoint.api_version)));
    const replayId = this.ids.next('whrp');
    if (deliveries.length > 0) {
      const ordered = deliveries.sort((a, b) => (a.created_at === b.created_at ? a.sequence - b.sequence : a.created_at < b.created_at ? -1 : 1)).map((delivery) => delivery.id);
      const parts = Array.from({ length: Math.ceil(ordered.length / PAGE) }, (_, index) => ordered.slice(index * PAGE, (index + 1) * PAGE));
      const events = parts.map((delivery_ids) => ({ id: this.ids.ulid(), type: 'WebhookReplayRequested' as const, data: { replay_id: replayId, webhook_endpoint_id: endpointId, delivery_ids } }));
      const cell = this.runtime.cellOf(context);
      await appendToDeliveryLog(cell, endpointId, events.map((event) => ({ event, context })), await this.clocks.now(cell));
    }
    return { id: replayId, object: 'webhook_replay', webhook_endpoint_id: endpointId, deliveries: deliveries.length };
  }

  /** The endpoint, or its not-found error. */
  private async endpoint(context: RequestContext, endpointId: string): Promise<WebhookEndpointResource> {
    return (await this.resources.retrieve(webhookEndpointResource, context, endpointId)).resource;
  }

  private async deliveriesIn(context: RequestContext, endpointId: string, window: ReplayWindow): Promise<DeliveryDoc[]> {
    const where = [
      { field: 'webhook_endpoint_id', op: 'eq' as const, value: endpointId },
      { field: 'replay_of', op: 'eq' as const, value: null },
      { field: 'created_at', op: 'gte' as const, value: window.from },
      { field: 'created_at', op: 'lt' as const, value: window.to },
      ...(window.status ? [{ field: 'status', op: 'eq' as const, value: window.status }] : []),
      ...(window.types ? [{ field: 'event_type', op: 'in' as const, value: window.types }] : []),
    ];
    const found: DeliveryDoc[] = [];
    for (let after: { value: string; id: string } | undefined; ; ) {
      const page = await this.reads.list<DeliveryDoc>(context, WEBHOOK_DELIVERIES, { where, sort: { field: 'created_at', direction: 'asc' }, after, limit: PAGE });
      found.push(...page.items);
      if (found.length > MAX_REPLAYED) {
        throw DomainError.invalid('webhook_endpoint.replay_too_large', `A replay sends at most ${MAX_REPLAYED} deliveries; replay a shorter window`, [
          { field: 'to', code: 'webhook_endpoint.replay_too_large', message: `a window with at most ${MAX_REPLAYED} deliveries` },
        ]);
      }
      if (!page.hasMore) return found;
      const last = page.items[page.items.length - 1];
      after = { value: last.created_at, id: last.id };
    }
  }
}

/** The window as stored times compare: ISO 8601 UTC, `from` before `to`, at most 7 days, types of the catalogue (the endpoint's version's). */
function checkedWindow(window: ReplayWindow, catalogue: EventCatalogue): ReplayWindow {
  const from = parseInstant(window.from)!;
  const to = parseInstant(window.to)!;
  const refuse = (field: string, message: string) => DomainError.invalid('webhook_endpoint.invalid_replay_window', `The replay window is not valid: ${message}`, [{ field, code: 'webhook_endpoint.invalid_replay_window', message }]);
  if (to.getTime() <= from.getTime()) throw refuse('to', 'after from');
  if (to.getTime() - from.getTime() > MAX_REPLAY_WINDOW_MS) throw refuse('to', 'at most 7 days after from');
  const unknown = window.types?.findIndex((type) => !catalogue.types.has(type)) ?? -1;
  if (unknown >= 0) throw DomainError.invalid('webhook_endpoint.unknown_event_type', `${window.types![unknown]} is not an event type`, [{ field: `types[${unknown}]`, code: 'webhook_endpoint.unknown_event_type', message: 'an event type' }]);
  return { ...window, from: from.toISOString(), to: to.toISOString() };
}
