import type { HistoryEvent } from '../commands/history-event';

/** An API resource as stored in its read model: the resource plus the scope it belongs to. */
export type ResourceDoc = { id: string; [field: string]: unknown };

/**
 * How one aggregate type looks through the API: a pure fold from its events to the resource,
 * and the public event type each domain event maps to (undefined: internal, not published).
 * The same fold serves the read model, the public event's `data`, and `as_of` reads.
 */
export interface ResourceView<R extends ResourceDoc> {
  aggregateType: string;
  collection: string;
  apply(resource: R | undefined, event: HistoryEvent): R | undefined;
  publicType(event: HistoryEvent): string | undefined;
}

/** The resource rebuilt from (a prefix of) its history. */
export function replay<R extends ResourceDoc>(view: ResourceView<R>, history: readonly HistoryEvent[]): R | undefined {
  return history.reduce<R | undefined>((resource, event) => view.apply(resource, event), undefined);
}
