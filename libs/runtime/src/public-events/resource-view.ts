import type { HistoryEvent } from '../commands/history-event';

/** An API resource as stored in its read model: the resource plus the scope it belongs to. */
export type ResourceDoc = { id: string; [field: string]: unknown };

/**
 * How one aggregate type looks through the API: a pure fold from its events to the resource,
 * and the public event type each domain event maps to (undefined: internal, not published).
 * The same fold serves the read model, the public event's `data`, command responses and `as_of` reads.
 */
export interface ResourceView<R extends ResourceDoc> extends PublicEventSource {
  collection: string;
  apply(resource: R | undefined, event: HistoryEvent): R | undefined;
}

/** Which events of an aggregate type's streams are public, and as which type: what the webhook outbox follows. */
export interface PublicEventSource {
  aggregateType: string;
  publicType(event: HistoryEvent): string | undefined;
}
