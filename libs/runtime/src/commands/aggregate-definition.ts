import type { AggregateTimers, Command, Decider, DomainError, Event } from '@tally/kernel';
import type { ResourceDoc, ResourceView } from '../public-events/resource-view';

/** How the command runtime finds, folds and guards one kind of aggregate. */
export interface AggregateDefinition<S, C extends Command, E extends Event, R extends ResourceDoc = never> {
  /** Public aggregate type, e.g. `customer`; streams are `<type>-<id>`. */
  type: string;
  decider: Decider<S, C, E>;
  /**
   * How the API shows the aggregate. The runtime folds it beside the state (and snapshots it with
   * the state), so a command answers with the resource as its append left it.
   */
  view?: ResourceView<R, E>;
  /** The error for an id that does not exist, or that belongs to another tenant or environment. */
  notFound(id: string): DomainError;
  /**
   * Snapshot every `every` events; `version` changes whenever the shape of the state or the view
   * changes. Only for aggregates whose state and view hold no personal data: snapshots are
   * stored in clear, and erasure must leave nothing readable behind.
   */
  snapshot?: { every: number; version: number };
  /**
   * The timers its events set and cancel (see AggregateTimers): each comes back to the aggregate
   * as its command when due on the aggregate's clock. The context lists the aggregate in its
   * manifest's `timedAggregates`.
   */
  timers?: AggregateTimers<C, E>;
}

export const streamName = (type: string, id: string): string => `${type}-${id}`;

/**
 * The aggregate as another context addresses it: the same stream, decider and view, with only the
 * commands its own context publishes (`types`), so that sending any other does not type-check. The
 * timers stay with the full definition, which the owning context registers.
 */
export function publishedCommands<S, C extends Command, E extends Event, R extends ResourceDoc, T extends C['type']>(
  aggregate: AggregateDefinition<S, C, E, R>,
  // The list documents what is published and keeps the narrowing tied to real command types.
  _types: readonly T[],
): AggregateDefinition<S, Extract<C, { type: T }>, E, R> {
  const { type, decider, view, notFound, snapshot } = aggregate;
  return { type, decider, view, notFound, ...(snapshot && { snapshot }) };
}
