import { TIMER_FIRED, type TimerFired } from '@tally/kernel';
import type { After, ReadStore } from '@tally/readstore';
import { inLanes } from '../runners/lanes';
import type { ProcessRuntime } from './process-runtime';
import { SYSTEM_CLOCK } from './process-manager';
import { findDue, type TimerSource } from './timer-source';
import { TIMERS, type TimerDoc } from './timers.projection';

/**
 * The process managers' timers. A timer is delivered to its process as the input `timer:<id>`,
 * which the process's stream records, so a timer delivered twice fires once. Timers of a process
 * this worker does not run (one retired, whose timers another owner now sets) are never due.
 */
export class ProcessTimerSource implements TimerSource<TimerDoc> {
  constructor(
    private readonly timers: ReadStore,
    private readonly runtimes: ReadonlyMap<string, ProcessRuntime<unknown>>,
  ) {}

  async pending(clock: string, upTo: string, limit: number, after?: After): Promise<TimerDoc[]> {
    if (this.runtimes.size === 0) return [];
    return findDue<TimerDoc>(this.timers, TIMERS, { field: 'process', op: 'in', value: [...this.runtimes.keys()] }, { clock, upTo, limit, after });
  }

  async deliverable(page: readonly TimerDoc[]): Promise<TimerDoc[]> {
    return [...page];
  }

  /** The timers of one process in due order; those of different processes at the same time. */
  async deliver(clock: string, due: readonly TimerDoc[]): Promise<void> {
    await inLanes(due, (timer) => `${timer.process}:${timer.process_id}`, async (timer) => {
      const input: TimerFired = { id: `timer:${timer.timer_id}`, type: TIMER_FIRED, data: { timer_id: timer.timer_id } };
      const owner = { tenant_id: timer.tenant_id, environment: timer.environment as 'live' | 'sandbox', correlation_id: null };
      await this.runtimes.get(timer.process)!.deliver(timer.process_id, input, clock === SYSTEM_CLOCK ? owner : { ...owner, clock_id: clock });
    });
  }
}
