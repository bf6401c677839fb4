import type { Clock } from '@tally/kernel';
import type { ReadStore } from '@tally/readstore';
import type { RunnerLog } from '../runtime/supervise';
import { TIMER_FIRED_INPUT } from './process-manager';
import type { ProcessRuntime } from './process-runtime';
import { TIMERS, type TimerDoc } from './timers.projection';

const BATCH = 100;

/**
 * Fires due timers against the Clock. A timer is delivered to its process manager as the input
 * `timer:<id>`, which the manager's stream records, so a timer delivered twice (a crash before
 * the timers read model caught up) fires once.
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

  /** Fires every timer due now; returns how many were delivered. */
  tick(): Promise<number> {
    this.ticking ??= this.fireDue().finally(() => (this.ticking = undefined));
    return this.ticking;
  }

  private async fireDue(): Promise<number> {
    const now = this.clock.now().toISOString();
    const { items } = await this.timers.find<TimerDoc>(TIMERS, {
      where: [
        { field: 'status', op: 'eq', value: 'pending' },
        { field: 'due_at', op: 'lte', value: now },
      ],
      sort: { field: 'due_at', direction: 'asc' },
      limit: BATCH,
    });
    for (const timer of items) {
      const runtime = this.runtimes.get(timer.process);
      if (!runtime) continue;
      await runtime.deliver(
        timer.process_id,
        { id: `timer:${timer.id}`, type: TIMER_FIRED_INPUT, data: { timer_id: timer.id } },
        { tenant_id: timer.tenant_id, environment: timer.environment as 'live' | 'sandbox', correlation_id: null },
      );
    }
    return items.length;
  }
}
