import { existsInVersion, timeOrderedDerivedId } from '@tally/kernel';
import { encodePosition } from '@tally/readstore';
import type { RecordedEvent } from '@tally/eventstore';
import { asEventOf, publicEventId, type Projection, type ProjectionWriter, type PublicEventSource } from '@tally/runtime';
import { matchesEventFilter } from '../domain/event-types';
import type { WebhookDeliveryLogEvent } from '../domain/webhook-delivery.events';
import type { WebhookEndpointEvent } from '../domain/webhook-endpoint.events';
import { WEBHOOK_DELIVERY_LOG_PREFIX } from '../webhook-delivery-log';
import { WEBHOOK_ENDPOINT_AGGREGATE } from '../webhook-endpoint.view';
import { dequeue, enqueue, reschedule } from './delivery-lanes';
import { foldTargets } from './delivery-targets';
import {
  DELIVERY_INDEXES,
  CHANGE_FEED_INDEXES,
  DUE_NOW,
  SYSTEM_CLOCK_LANES,
  targetsId,
  WEBHOOK_DELIVERIES,
  WEBHOOK_LANES,
  WEBHOOK_TARGETS,
  type AttemptRecord,
  type DeliveryDoc,
  type TargetsDoc,
} from './outbox-documents';

const ENDPOINT_PREFIX = `${WEBHOOK_ENDPOINT_AGGREGATE}-`;
/** Attempts a delivery record lists; the count goes on. */
const LISTED_ATTEMPTS = 20;

/** Deliveries and lanes kept in memory between batches: those of the last few seconds at thousands of deliveries a second. */
const KEEP_WRITTEN = 20_000;

export const WEBHOOK_OUTBOX = 'webhook_outbox';

/**
 * A delivery's id: one per endpoint and event, so a redelivered event makes none twice. It begins
 * with the event's time, so the outbox's inserts land together in the deliveries' id index (see
 * timeOrderedDerivedId). Delivery logs name deliveries by it: it never changes.
 */
export const deliveryId = (endpointId: string, eventId: string): string => timeOrderedDerivedId('del', eventId, [endpointId, eventId]);

/** A replay's delivery of an earlier delivery's event, at the replay's time. */
const replayDeliveryId = (replayId: string, originalId: string): string => timeOrderedDerivedId('del', replayId, [replayId, originalId]);

/**
 * The webhook outbox: follows every public event in the global order, with the endpoints' own
 * streams, and turns each into one delivery per endpoint that was enabled and subscribed to its
 * type at that point of the log. It also folds what the dispatcher and the API record of
 * deliveries (attempts, retries, replays), so the records, the lanes and their due times are a
 * read model like any other: deterministic, and rebuilt from the log alone.
 */
export function webhookOutboxProjection(sources: readonly PublicEventSource[]): Projection {
  const sourceOf = new Map(sources.map((source) => [`${source.aggregateType}-`, source]));
  return {
    name: WEBHOOK_OUTBOX,
    streamPrefixes: [...sourceOf.keys(), WEBHOOK_DELIVERY_LOG_PREFIX],
    // A delivery and its lane are read again when their attempt is folded, a moment after they were written.
    keepWritten: KEEP_WRITTEN,
    collections: [
      { name: WEBHOOK_TARGETS, indexes: CHANGE_FEED_INDEXES },
      { name: WEBHOOK_DELIVERIES, indexes: DELIVERY_INDEXES },
      { name: WEBHOOK_LANES, indexes: CHANGE_FEED_INDEXES },
    ],
    async handle(event, writer) {
      if (event.stream.startsWith(WEBHOOK_DELIVERY_LOG_PREFIX)) return foldDeliveryLog(event, writer);
      if (event.stream.startsWith(ENDPOINT_PREFIX)) await foldEndpoint(event, writer);
      const prefix = event.stream.slice(0, event.stream.indexOf('-') + 1);
      const type = sourceOf.get(prefix)?.publicType(event);
      if (type) await fanOut(event, prefix, type, writer);
    },
  };
}

async function foldEndpoint(event: RecordedEvent, writer: ProjectionWriter): Promise<void> {
  const { tenant_id, environment } = event.metadata;
  const id = targetsId(tenant_id, environment);
  const targets = (await writer.get<TargetsDoc>(WEBHOOK_TARGETS, id)) ?? { id, tenant_id, environment, endpoints: [], changed_at: '' };
  const endpoints = foldTargets(targets.endpoints, asEventOf<WebhookEndpointEvent>(event), event.revision, event.metadata.occurred_at);
  if (endpoints !== targets.endpoints) writer.upsert(WEBHOOK_TARGETS, { ...targets, endpoints, changed_at: encodePosition(event.position) });
}

async function fanOut(event: RecordedEvent, prefix: string, type: string, writer: ProjectionWriter): Promise<void> {
  const { tenant_id, environment, occurred_at } = event.metadata;
  const targets = await writer.get<TargetsDoc>(WEBHOOK_TARGETS, targetsId(tenant_id, environment));
  const aggregateId = event.stream.slice(prefix.length);
  const eventId = publicEventId(event);
  const clock = event.metadata.clock_id ?? SYSTEM_CLOCK_LANES;
  for (const endpoint of targets?.endpoints ?? []) {
    if (endpoint.status !== 'enabled' || !matchesEventFilter(endpoint.events, type) || !existsInVersion(type, endpoint.api_version)) continue;
    // An endpoint never hears of its own failures: a failing receiver would feed itself forever.
    if (prefix === ENDPOINT_PREFIX && aggregateId === endpoint.id) continue;
    await enqueue(writer, newDelivery(deliveryId(endpoint.id, eventId), { webhook_endpoint_id: endpoint.id, tenant_id, environment, event_id: eventId, event_type: type, aggregate_id: aggregateId, sequence: event.revision, clock }, occurred_at), event.position);
  }
}

type DeliveredEvent = Pick<DeliveryDoc, 'webhook_endpoint_id' | 'tenant_id' | 'environment' | 'event_id' | 'event_type' | 'aggregate_id' | 'sequence' | 'clock'>;

function newDelivery(id: string, of: DeliveredEvent, createdAt: string, replayOf: string | null = null): DeliveryDoc {
  return {
    id,
    object: 'webhook_delivery',
    ...of,
    created_at: createdAt,
    status: 'pending',
    attempt_count: 0,
    attempts: [],
    first_attempted_at: null,
    next_attempt_at: null,
    response_status: null,
    response_body: null,
    replay_of: replayOf,
    manual_retry: false,
    next_in_lane: null,
  };
}

async function foldDeliveryLog(stored: RecordedEvent, writer: ProjectionWriter): Promise<void> {
  const event = asEventOf<WebhookDeliveryLogEvent>(stored);
  switch (event.type) {
    case 'WebhookDeliveryAttempted': {
      const delivery = await writer.get<DeliveryDoc>(WEBHOOK_DELIVERIES, event.data.delivery_id);
      // A second record of one attempt (a dispatcher that lost its lease mid-write) changes nothing.
      if (!delivery || delivery.status !== 'pending' || event.data.attempt !== delivery.attempt_count + 1) return;
      const { attempt, attempted_at, duration_ms, response_status, response_body, error, outcome, next_attempt_at } = event.data;
      const record: AttemptRecord = { attempt, attempted_at, duration_ms, response_status, error };
      const attempted: DeliveryDoc = {
        ...delivery,
        status: outcome === 'retrying' ? 'pending' : outcome,
        attempt_count: attempt,
        attempts: [...delivery.attempts, record].slice(-LISTED_ATTEMPTS),
        first_attempted_at: delivery.first_attempted_at ?? attempted_at,
        next_attempt_at,
        response_status,
        response_body,
        manual_retry: false,
      };
      writer.upsert(WEBHOOK_DELIVERIES, attempted);
      if (outcome === 'retrying') await reschedule(writer, attempted, next_attempt_at!, stored.position);
      else await dequeue(writer, attempted, stored.position);
      return;
    }
    case 'WebhookDeliveryRetryRequested': {
      const delivery = await writer.get<DeliveryDoc>(WEBHOOK_DELIVERIES, event.data.delivery_id);
      if (!delivery) return;
      if (delivery.status === 'pending') return reschedule(writer, delivery, DUE_NOW, stored.position);
      return enqueue(writer, { ...delivery, status: 'pending', manual_retry: true, next_attempt_at: null }, stored.position);
    }
    case 'WebhookReplayRequested': {
      const originals = await writer.getMany<DeliveryDoc>(WEBHOOK_DELIVERIES, event.data.delivery_ids);
      for (const original of event.data.delivery_ids.map((id) => originals.get(id))) {
        if (!original) continue;
        const { webhook_endpoint_id, tenant_id, environment, event_id, event_type, aggregate_id, sequence, clock } = original;
        const of = { webhook_endpoint_id, tenant_id, environment, event_id, event_type, aggregate_id, sequence, clock };
        const replay = newDelivery(replayDeliveryId(event.data.replay_id, original.id), of, stored.metadata.occurred_at, original.id);
        await enqueue(writer, replay, stored.position);
      }
      return;
    }
  }
}
