import type { Command, Decider, DomainError, Event } from '@tally/kernel';

/** How the command runtime finds, folds and guards one kind of aggregate. */
export interface AggregateDefinition<S, C extends Command, E extends Event> {
  /** Public aggregate type, e.g. `customer`; streams are `<type>-<id>`. */
  type: string;
  decider: Decider<S, C, E>;
  /** The error for an id that does not exist, or that belongs to another tenant or environment. */
  notFound(id: string): DomainError;
  /**
   * Snapshot every `every` events. Only for aggregates whose state holds no personal data:
   * snapshots are stored in clear, and erasure must leave nothing readable behind.
   */
  snapshot?: { every: number; version: number };
}

export const streamName = (type: string, id: string): string => `${type}-${id}`;
