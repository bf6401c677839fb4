import type { Command, Event } from './decider';

/**
 * A timer of an aggregate, named by what it is due for (`period_end:2026-02-01T00:00:00.000Z`):
 * when it is due on the aggregate's clock, `command` comes back to that aggregate, once.
 */
export interface AggregateTimer<C extends Command = Command> {
  name: string;
  due_at: string;
  command: C;
}

/**
 * What one of an aggregate's events does to its timers: sets one (a name set again is the same
 * timer; one that fired stays fired), cancels one by name, or cancels every pending timer whose
 * name starts with a prefix (`''`: all of them).
 */
export type TimerChange<C extends Command = Command> = { schedule: AggregateTimer<C> } | { cancel: string } | { cancelEvery: string };

/**
 * How an aggregate's timers follow from its events: pure, from the event and the moment it
 * occurred, so the timers read model is rebuilt from the aggregate's stream like any other.
 */
export type AggregateTimers<C extends Command, E extends Event> = (event: E, occurredAt: string) => readonly TimerChange<C>[];
