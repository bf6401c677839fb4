import type { RecordedEvent } from '@tally/eventstore';
import { testMetadata } from '@tally/cells/testing/temp-cells';
import type { ReadStore } from '@tally/readstore';
import { UnitOfWork, type PublicEventSource } from '@tally/runtime';
import type { WebhookDeliveryLogEvent } from '../../domain/webhook-delivery.events';
import type { WebhookEndpointEvent } from '../../domain/webhook-endpoint.events';
import { deliveryLogOf } from '../../webhook-delivery-log';
import { webhookEndpointView } from '../../webhook-endpoint.view';
import { deliveryId, WEBHOOK_OUTBOX, webhookOutboxProjection } from '../webhook-outbox.projection';

/** The events the outbox's specs feed it, as a store records them: positions and revisions in order. */

const customers: PublicEventSource = { aggregateType: 'customer', publicTypes: ['customer.created', 'customer.updated'], publicType: (event) => (event.type === 'CustomerCreated' ? 'customer.created' : event.type === 'CustomerNoted' ? undefined : 'customer.updated') };
export const outbox = webhookOutboxProjection([customers, webhookEndpointView]);
export const WE = 'we_1';
export const OTHER = 'we_2';
export const AT = '2026-05-01T10:00:00.000Z';

let position = 0n;
const revisions = new Map<string, number>();
/** `on`: the sandbox test clock the event happened on, and its time there. */
function stored(stream: string, type: string, data: object, tenant = 'ten_1', on?: { clock_id: string; occurred_at: string }): RecordedEvent {
  const revision = (revisions.get(stream) ?? -1) + 1;
  revisions.set(stream, revision);
  position += 1n;
  return { id: `e${position}`, stream, revision, position, type, data, metadata: testMetadata(AT, { tenant_id: tenant, ...on }) };
}
export const endpointEvent = (event: WebhookEndpointEvent, tenant?: string) => stored(`webhook_endpoint-${event.data.webhook_endpoint_id}`, event.type, event.data, tenant);
export const created = (id: string, events: string[], tenant?: string) =>
  endpointEvent({ type: 'WebhookEndpointCreated', data: { webhook_endpoint_id: id, url: 'https://example.com', events, description: null, api_version: '2026-04-01', secret: `whsec_${id}` } }, tenant);
export const customer = (id: string, type = 'CustomerUpdated', tenant?: string) => stored(`customer-${id}`, type, { customer_id: id }, tenant);
export const customerOnClock = (id: string, clock: string, at: string) => stored(`customer-${id}`, 'CustomerUpdated', { customer_id: id }, undefined, { clock_id: clock, occurred_at: at });
export const logged = (event: WebhookDeliveryLogEvent, endpoint = WE) => stored(deliveryLogOf(endpoint), event.type, event.data);
export const attempted = (delivery: string, attempt: number, outcome: 'succeeded' | 'retrying' | 'failed', next: string | null = null, at = AT) =>
  logged({ type: 'WebhookDeliveryAttempted', data: { delivery_id: delivery, attempt, attempted_at: at, duration_ms: 3, response_status: outcome === 'succeeded' ? 200 : 500, response_body: '', error: null, outcome, next_attempt_at: next } });

export const deliveryOf = (endpoint: string, event: RecordedEvent) => deliveryId(endpoint, `evt_${event.id}`);

/** Folds `events` into `store` as the outbox's runner does, a commit per event, with its collections made first. */
export async function projectInto<S extends ReadStore>(store: S, events: readonly RecordedEvent[]): Promise<S> {
  for (const collection of outbox.collections) await store.ensureCollection(collection.name, collection.indexes);
  const unit = new UnitOfWork(store);
  for (const event of events) {
    await outbox.handle(event, unit.writerFor(event));
    await unit.commit(WEBHOOK_OUTBOX);
  }
  return store;
}
