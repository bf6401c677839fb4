import type { Clock } from '@tally/kernel';
import type { Cell } from '@tally/cells';
import { streamName } from '../commands/aggregate-definition';

export const TEST_CLOCK_AGGREGATE = 'test_clock';

/**
 * "Now" for a context: the system clock, or the sandbox test clock the resource lives on. A test
 * clock's time is the `now` of the last event of its stream that carries one (see
 * domain/test-clock.events.ts), read from the end of the stream in the event store, so it is
 * never stale.
 */
export class Clocks {
  constructor(readonly system: Clock) {}

  async now(cell: Cell, testClockId?: string): Promise<Date> {
    if (!testClockId) return this.system.now();
    // Newest first; only a deletion, the last event a clock can have, carries no time.
    const latest = await cell.events.readStream(streamName(TEST_CLOCK_AGGREGATE, testClockId), { direction: 'backwards', limit: 2 });
    const now = latest.map((event) => (event.data as { now?: unknown }).now).find((time): time is string => typeof time === 'string');
    if (now === undefined) throw new Error(`No test clock ${testClockId} in region ${cell.region}`);
    return new Date(now);
  }
}
