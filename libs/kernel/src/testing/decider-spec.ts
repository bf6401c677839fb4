import { deepStrictEqual, fail } from 'node:assert/strict';
import { DomainError } from '../domain-error';
import type { Command, Decider, Event } from '../decider';
import type { AggregateTimers, TimerChange } from '../timers';

/**
 * Specifications for deciders, read as `given(events).when(command).then(events)`:
 *
 *   spec.given([created]).when(rename).then([renamed]);
 *   spec.given([]).when(rename).thenFails('customer.not_found');
 *   spec.given([created, renamed]).when(rename).thenNothingHappens();
 *
 * With the aggregate's timers, `thenTimers(at, changes)` states what the events the command
 * decides (at `at`) do to its timers:
 *
 *   DeciderSpecification.for(decider, timers).given([created]).when(pause).thenTimers(at, [{ schedule: resume }]);
 */
/** Events are compared as they are stored, as JSON: a map without a prototype equals one with. */
const asStored = (events: readonly Event[]): unknown => JSON.parse(JSON.stringify(events));

export const DeciderSpecification = {
  for<S, C extends Command, E extends Event>(decider: Decider<S, C, E>, timers?: AggregateTimers<C, E>) {
    return {
      given(events: readonly E[]) {
        return {
          when(command: C) {
            const run = () => decider.decide(command, events.reduce(decider.evolve, decider.initialState()));
            return {
              then(expected: readonly E[]) {
                deepStrictEqual(asStored(run()), asStored(expected));
              },
              thenNothingHappens() {
                deepStrictEqual(run(), []);
              },
              thenTimers(at: string, expected: readonly TimerChange<C>[]) {
                if (!timers) fail('the specification was made without the aggregate’s timers');
                deepStrictEqual(asStored(run().flatMap((event) => timers(event, at)) as never), asStored(expected as never));
              },
              thenFails(code: string): void {
                let produced: readonly E[];
                try {
                  produced = run();
                } catch (error) {
                  if (!(error instanceof DomainError)) throw error;
                  deepStrictEqual(error.code, code);
                  return;
                }
                fail(`expected DomainError ${code}, got events ${JSON.stringify(produced)}`);
              },
            };
          },
        };
      },
    };
  },
};
