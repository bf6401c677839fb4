import type { IndexSpec } from '@tally/readstore';
import { asEventOf, type AnyEvent } from '../commands/history-event';
import type { Projection } from '../projections/projection';
import { PUBLIC_EVENTS, PUBLIC_SCHEMA_VERSION, previousAttributes, publicEventId, type PublicEventDoc } from './public-event';
import type { ResourceDoc, ResourceView } from './resource-view';

export const PUBLIC_EVENT_INDEXES: readonly IndexSpec[] = [
  { fields: ['tenant_id', 'environment', 'created_at'] },
  { fields: ['tenant_id', 'environment', 'type', 'created_at'] },
  { fields: ['tenant_id', 'environment', 'aggregate_id', 'created_at'] },
];

/**
 * The read model of one resource plus its entries in the public event log, written in the same
 * batch: `data` is the full resource after the event (as it was, for a deletion), `previous_attributes`
 * what an update changed, and `sequence` the event's place among the aggregate's published events
 * (1, 2, 3 …: an internal event takes no number, so a gap is a published event not received).
 * Stored documents carry `tenant_id` and `environment` for scoping, and how many events of the
 * aggregate were published; the API does not show them.
 */
export function resourceProjection<R extends ResourceDoc, E extends AnyEvent>(view: ResourceView<R, E>, indexes: readonly IndexSpec[]): Projection {
  return {
    name: view.collection,
    streamPrefixes: [`${view.aggregateType}-`],
    publishes: view,
    resource: { collection: view.collection, aggregateType: view.aggregateType },
    collections: [
      { name: view.collection, indexes },
      { name: PUBLIC_EVENTS, indexes: PUBLIC_EVENT_INDEXES },
    ],
    async handle(recorded, writer) {
      const event = asEventOf<E>(recorded);
      const aggregateId = event.stream.slice(view.aggregateType.length + 1);
      const stored = await writer.get<StoredResource<R>>(view.collection, aggregateId);
      const before = stored && unscoped(stored);
      const after = view.apply(before, event);
      // A deletion publishes the resource as it was when deleted.
      const type = view.publicType(event);
      const data = after ?? before;
      const published = publishedBefore(stored) + (type && data ? 1 : 0);
      const scope: Scope = { tenant_id: event.metadata.tenant_id, environment: event.metadata.environment };
      if (after) writer.upsert(view.collection, { ...after, ...scope, stream_revision: event.revision, published_count: published });
      else if (stored) writer.delete(view.collection, aggregateId);

      if (!type || !data) return;
      const changes = after && before && previousAttributes(before, after);
      writer.upsert(PUBLIC_EVENTS, {
        id: publicEventId(event),
        object: 'event',
        type,
        occurred_at: event.metadata.occurred_at,
        created_at: event.metadata.occurred_at,
        schema_version: PUBLIC_SCHEMA_VERSION,
        ...scope,
        aggregate_type: view.aggregateType,
        aggregate_id: aggregateId,
        sequence: published,
        data,
        ...(changes ? { previous_attributes: changes } : {}),
        request: { id: event.metadata.request_id },
      } satisfies PublicEventDoc);
    },
  };
}

interface Scope {
  [field: string]: unknown;
  tenant_id: string;
  environment: string;
}

/**
 * Stored beside the resource: whose it is, the stream revision it reflects (for ETags), and how
 * many of its events were published (absent from documents written before it was kept).
 */
export type StoredResource<R extends ResourceDoc> = R & Scope & { stream_revision: number; published_count?: number };

/** The resource without what the read model keeps beside it. */
export function unscoped<R extends ResourceDoc>(doc: R & Partial<Scope> & { stream_revision?: number; published_count?: number }): R {
  const { tenant_id: _tenant, environment: _environment, stream_revision: _revision, published_count: _published, ...resource } = doc;
  return resource as R;
}

/**
 * How many events of the aggregate were published before this one. A document written before the
 * count was kept numbered its events by stream revision: counting on from its revision keeps the
 * sequence increasing for its consumers (a rebuild numbers every event from 1).
 */
function publishedBefore(stored: StoredResource<ResourceDoc> | undefined): number {
  if (!stored) return 0;
  return stored.published_count ?? stored.stream_revision;
}
