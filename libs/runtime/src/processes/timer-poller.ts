import { TIMER_FIRED, type Clock, type TimerFired } from '@tally/kernel';
import type { ReadStore } from '@tally/readstore';
import type { RunnerLog } from '../runners/supervise';
import type { ProcessRuntime } from './process-runtime';
import { SYSTEM_CLOCK } from './process-manager';
import { TIMERS, type TimerDoc } from './timers.projection';

const BATCH = 100;

/**
 * Fires due timers. The poller fires the system clock's timers against the Clock; a test clock's
 * timers fire only when that clock advances (see TestClockAdvancer), never here. A timer is
 * delivered to its process as the input `timer:<id>`, which the process's stream records, so a
 * timer delivered twice (a crash before the timers read model caught up) fires once.
 */
export class TimerPoller {
  private handle: NodeJS.Timeout | undefined;
  private ticking: Promise<number> | undefined;

  constructor(
    private readonly timers: ReadStore,
    private readonly runtimes: ReadonlyMap<string, ProcessRuntime<unknown>>,
    private readonly clock: Clock,
    private readonly log: RunnerLog,
  ) {}

  start(intervalMs = 250): void {
    this.handle = setInterval(() => void this.tick().catch((error) => this.log.error('timer poll failed', error)), intervalMs);
  }

  async stop(): Promise<void> {
    clearInterval(this.handle);
    await this.ticking;
  }

  /** Fires every system-clock timer due now; returns how many were delivered. */
  tick(): Promise<number> {
    this.ticking ??= this.fireDue(SYSTEM_CLOCK, this.clock.now().toISOString()).finally(() => (this.ticking = undefined));
    return this.ticking;
  }

  /** The earliest due time of a pending timer of `clock` at or before `upTo`, if any. */
  async nextDue(clock: string, upTo: string): Promise<string | undefined> {
    const [next] = await this.pending(clock, upTo, 1);
    return next?.due_at;
  }

  /** Delivers every pending timer of `clock` due at or before `upTo`, earliest first. */
  async fireDue(clock: string, upTo: string): Promise<number> {
    const due = await this.pending(clock, upTo, BATCH);
    for (const timer of due) {
      const runtime = this.runtimes.get(timer.process);
      if (!runtime) continue;
      const timerId = timer.timer_id ?? timer.id;
      const input: TimerFired = { id: `timer:${timerId}`, type: TIMER_FIRED, data: { timer_id: timerId } };
      const owner = { tenant_id: timer.tenant_id, environment: timer.environment as 'live' | 'sandbox', correlation_id: null };
      await runtime.deliver(timer.process_id, input, clock === SYSTEM_CLOCK ? owner : { ...owner, clock_id: clock });
    }
    return due.length;
  }

  private async pending(clock: string, upTo: string, limit: number): Promise<TimerDoc[]> {
    const { items } = await this.timers.find<TimerDoc>(TIMERS, {
      where: [
        { field: 'clock', op: 'eq', value: clock },
        { field: 'status', op: 'eq', value: 'pending' },
        { field: 'due_at', op: 'lte', value: upTo },
      ],
      sort: { field: 'due_at', direction: 'asc' },
      limit,
    });
    return items;
  }
}
