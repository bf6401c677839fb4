import type { AnyEvent, HistoryEvent } from '../commands/history-event';

/** An API resource as stored in its read model: the resource plus the scope it belongs to. */
export type ResourceDoc = { id: string; [field: string]: unknown };

/**
 * How one aggregate type looks through the API: a pure fold from its events (`E`, the aggregate's
 * event union) to the resource, and the public event type each domain event maps to (undefined:
 * internal, not published). The same fold serves the read model, the public event's `data`,
 * command responses and `as_of` reads.
 */
export interface ResourceView<R extends ResourceDoc, E extends AnyEvent = AnyEvent> extends PublicEventSource<E> {
  collection: string;
  apply(resource: R | undefined, event: E & HistoryEvent): R | undefined;
}

/** Which events of an aggregate type's streams are public, and as which type: what the webhook outbox follows. */
export interface PublicEventSource<E extends AnyEvent = AnyEvent> {
  aggregateType: string;
  /** Every type `publicType` can answer: what this source adds to the catalogue that webhook endpoints subscribe to. */
  publicTypes: readonly string[];
  // Method syntax: a source typed by its aggregate's events serves where any stored event is read.
  publicType(event: E & HistoryEvent): string | undefined;
}

/** The public types of a mapping from event type to public type (undefined: internal), for a view's `publicTypes`. */
export const publicTypesOf = (mapping: Readonly<Record<string, string | undefined>>): readonly string[] =>
  [...new Set(Object.values(mapping).filter((type): type is string => type !== undefined))];
