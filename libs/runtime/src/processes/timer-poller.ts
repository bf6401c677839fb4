import { TIMER_FIRED, type Clock, type TimerFired } from '@tally/kernel';
import type { After, ReadStore } from '@tally/readstore';
import { inLanes } from '../runners/lanes';
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
  private stopped = false;

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
    this.stopped = true;
    clearInterval(this.handle);
    await this.ticking;
  }

  /** Fires every system-clock timer due now; returns how many were delivered. */
  tick(): Promise<number> {
    if (!this.ticking) {
      // stop() ends a tick between pages; a tick asked for after it (tests, a lease regained) runs.
      this.stopped = false;
      this.ticking = this.fireAllDue(this.clock.now().toISOString()).finally(() => (this.ticking = undefined));
    }
    return this.ticking;
  }

  /**
   * Every pending timer due at `upTo`, a page at a time in (due_at, id) order: the pages go on
   * past the timers just delivered, which the timers read model still shows pending until it
   * catches up. A tick is not limited to one page, so a burst of due timers (every subscription's
   * period ending at midnight) fires at the pace of its processes rather than a page per interval.
   */
  private async fireAllDue(upTo: string): Promise<number> {
    let fired = 0;
    let after: After | undefined;
    while (!this.stopped) {
      const due = await this.pending(SYSTEM_CLOCK, upTo, BATCH, after);
      fired += await this.deliver(SYSTEM_CLOCK, due);
      if (due.length < BATCH) break;
      const last = due[due.length - 1];
      after = { value: last.due_at, id: last.id };
      // The stores answer synchronously: let the runners (and requests, in process) in between pages.
      await new Promise((resolve) => setImmediate(resolve));
    }
    return fired;
  }

  /** The earliest due time of a pending timer of `clock` at or before `upTo`, if any. */
  async nextDue(clock: string, upTo: string): Promise<string | undefined> {
    const [next] = await this.pending(clock, upTo, 1);
    return next?.due_at;
  }

  /** Delivers every pending timer of `clock` due at or before `upTo`, earliest first. */
  async fireDue(clock: string, upTo: string): Promise<number> {
    return this.deliver(clock, await this.pending(clock, upTo, BATCH));
  }

  /** The timers of one process in due order; those of different processes at the same time. */
  private async deliver(clock: string, due: readonly TimerDoc[]): Promise<number> {
    await inLanes(due, (timer) => `${timer.process}:${timer.process_id}`, async (timer) => {
      const runtime = this.runtimes.get(timer.process);
      if (!runtime) return;
      const input: TimerFired = { id: `timer:${timer.timer_id}`, type: TIMER_FIRED, data: { timer_id: timer.timer_id } };
      const owner = { tenant_id: timer.tenant_id, environment: timer.environment as 'live' | 'sandbox', correlation_id: null };
      await runtime.deliver(timer.process_id, input, clock === SYSTEM_CLOCK ? owner : { ...owner, clock_id: clock });
    });
    return due.length;
  }

  private async pending(clock: string, upTo: string, limit: number, after?: After): Promise<TimerDoc[]> {
    const { items } = await this.timers.find<TimerDoc>(TIMERS, {
      where: [
        { field: 'clock', op: 'eq', value: clock },
        { field: 'status', op: 'eq', value: 'pending' },
        { field: 'due_at', op: 'lte', value: upTo },
      ],
      sort: { field: 'due_at', direction: 'asc' },
      after,
      limit,
    });
    return items;
  }
}
