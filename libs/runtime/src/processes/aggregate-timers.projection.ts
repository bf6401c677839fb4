import type { AggregateTimer, Command, Event } from '@tally/kernel';
import type { RecordedEvent } from '@tally/eventstore';
import type { AggregateDefinition } from '../commands/aggregate-definition';
import type { Projection, ProjectionWriter } from '../projections/projection';
import { SYSTEM_CLOCK } from './process-manager';

export const AGGREGATE_TIMERS = 'aggregate_timers';
/** Per aggregate stream, the names of its pending timers: what a cancel by prefix looks through. */
export const AGGREGATE_TIMER_STREAMS = 'aggregate_timer_streams';
/** Timers delivered whose command decided nothing (stale): pending in the read model, but not due again. */
export const SPENT_AGGREGATE_TIMERS = 'aggregate_timers_spent';

/** Any aggregate with timers: the runtime hands each its own commands back, so their types need not be known here. */
export type TimedAggregate = AggregateDefinition<any, any, any, any>;

export interface AggregateTimerDoc {
  /** The aggregate's stream and the timer's name (see aggregateTimerDocId). */
  id: string;
  [key: string]: unknown;
  aggregate: string;
  aggregate_id: string;
  name: string;
  due_at: string;
  /** `system`, or the id of the test clock whose advances fire it: the aggregate's clock. */
  clock: string;
  status: 'pending' | 'fired' | 'cancelled';
  command: Command;
  tenant_id: string;
  environment: string;
}

interface StreamTimersDoc {
  id: string;
  [key: string]: unknown;
  pending: string[];
}

export const aggregateTimerDocId = (stream: string, name: string): string => `${stream}/${name}`;

/** The causation id of the events a timer's command appends: the timers read model marks the timer fired when it meets one. */
export const timerCause = (name: string): string => `timer:${name}`;

/** The timer whose command appended this event, if a timer's did. */
const firedTimerOf = (event: RecordedEvent): string | undefined => {
  const cause = event.metadata.causation_id;
  return cause?.startsWith('timer:') ? cause.slice('timer:'.length) : undefined;
};

/**
 * Every timer the aggregates' events set, ordered by clock and due time, derived from the
 * aggregate streams alone: a timer is fired when an event of its stream names it as its cause,
 * cancelled when an event cancels it. A rebuild from the log yields the same documents, so a
 * timer that fired before it does not fire again.
 */
export function aggregateTimersProjection(aggregates: readonly TimedAggregate[]): Projection {
  const byPrefix = new Map(aggregates.map((aggregate) => [`${aggregate.type}-`, aggregate]));
  return {
    name: 'aggregate_timers',
    streamPrefixes: [...byPrefix.keys()],
    collections: [
      { name: AGGREGATE_TIMERS, indexes: [{ fields: ['clock', 'status', 'due_at'] }] },
      { name: AGGREGATE_TIMER_STREAMS, indexes: [] },
    ],
    keySets: [SPENT_AGGREGATE_TIMERS],
    async handle(event, writer) {
      const dash = event.stream.indexOf('-');
      const aggregate = byPrefix.get(event.stream.slice(0, dash + 1));
      if (!aggregate?.timers) return;
      const fired = firedTimerOf(event);
      const changes = aggregate.timers({ type: event.type, data: event.data } as Event, event.metadata.occurred_at);
      if (!fired && changes.length === 0) return;
      const timers = new StreamTimers(event, writer, aggregate.type, event.stream.slice(dash + 1), (await writer.get<StreamTimersDoc>(AGGREGATE_TIMER_STREAMS, event.stream))?.pending ?? []);
      if (fired) await timers.end(fired, 'fired');
      for (const change of changes) {
        if ('schedule' in change) await timers.schedule(change.schedule);
        else if ('cancel' in change) await timers.end(change.cancel, 'cancelled');
        else for (const name of timers.pendingStartingWith(change.cancelEvery)) await timers.end(name, 'cancelled');
      }
      writer.upsert(AGGREGATE_TIMER_STREAMS, { id: event.stream, pending: timers.pendingNames() } satisfies StreamTimersDoc);
    },
  };
}

/** The timers of one aggregate stream while the projection handles one of its events. */
class StreamTimers {
  private readonly pending: Set<string>;

  constructor(
    private readonly event: RecordedEvent,
    private readonly writer: ProjectionWriter,
    private readonly aggregate: string,
    private readonly aggregateId: string,
    pending: readonly string[],
  ) {
    this.pending = new Set(pending);
  }

  pendingNames(): string[] {
    return [...this.pending];
  }

  pendingStartingWith(prefix: string): string[] {
    return this.pendingNames().filter((name) => name.startsWith(prefix));
  }

  /** A timer set again is the same timer, due as last set; one that fired already stays fired. */
  async schedule({ name, due_at, command }: AggregateTimer): Promise<void> {
    const id = aggregateTimerDocId(this.event.stream, name);
    if (!this.pending.has(name) && (await this.writer.get<AggregateTimerDoc>(AGGREGATE_TIMERS, id))?.status === 'fired') return;
    const { metadata } = this.event;
    this.writer.upsert(AGGREGATE_TIMERS, {
      id,
      aggregate: this.aggregate,
      aggregate_id: this.aggregateId,
      name,
      due_at,
      clock: metadata.clock_id ?? SYSTEM_CLOCK,
      status: 'pending',
      command,
      tenant_id: metadata.tenant_id,
      environment: metadata.environment,
    } satisfies AggregateTimerDoc);
    this.pending.add(name);
  }

  /** Ends a pending timer; one that is not pending (fired, cancelled, never set) stays as it is. */
  async end(name: string, status: 'fired' | 'cancelled'): Promise<void> {
    if (!this.pending.delete(name)) return;
    const timer = await this.writer.get<AggregateTimerDoc>(AGGREGATE_TIMERS, aggregateTimerDocId(this.event.stream, name));
    if (timer) this.writer.upsert(AGGREGATE_TIMERS, { ...timer, status });
  }
}
