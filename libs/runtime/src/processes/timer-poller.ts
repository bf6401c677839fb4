import type { Clock } from '@tally/kernel';
import type { After } from '@tally/readstore';
import type { RunnerLog } from '../runners/supervise';
import { SYSTEM_CLOCK } from './process-manager';
import type { DueTimer, TimerSource } from './timer-source';

const BATCH = 100;

/**
 * Fires due timers: those of the process managers and those of the aggregates (see TimerSource).
 * The poller fires the system clock's timers against the Clock; a test clock's timers fire only
 * when that clock advances (see TestClockAdvancer), never here. Each source's delivery is applied
 * once however often it is made, so a timer delivered twice (a crash before the timers read model
 * caught up) fires once.
 */
export class TimerPoller {
  private handle: NodeJS.Timeout | undefined;
  private ticking: Promise<number> | undefined;
  private stopped = false;

  constructor(
    private readonly sources: readonly TimerSource[],
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
      this.ticking = this.fireAllDue(SYSTEM_CLOCK, this.clock.now().toISOString(), () => this.stopped).finally(() => (this.ticking = undefined));
    }
    return this.ticking;
  }

  /** The earliest due time of a timer of `clock` to deliver at or before `upTo`, if any. */
  async nextDue(clock: string, upTo: string): Promise<string | undefined> {
    let next: string | undefined;
    for (const source of this.sources) {
      const [first] = await this.pages(source, clock, upTo, 1).next().then(({ value }) => value ?? []);
      if (first && (next === undefined || first.due_at < next)) next = first.due_at;
    }
    return next;
  }

  /** Delivers every pending timer of `clock` due at or before `upTo`, earliest first. */
  fireDue(clock: string, upTo: string): Promise<number> {
    return this.fireAllDue(clock, upTo, () => false);
  }

  /**
   * Every pending timer due at `upTo`, a page at a time in (due_at, id) order: the pages go on
   * past the timers just delivered, which the timers read models still show pending until they
   * catch up. A tick is not limited to one page, so a burst of due timers (every subscription's
   * period ending at midnight) fires at the pace of what they deliver to rather than a page per interval.
   */
  private async fireAllDue(clock: string, upTo: string, stopped: () => boolean): Promise<number> {
    let fired = 0;
    for (const source of this.sources) {
      for await (const due of this.pages(source, clock, upTo, BATCH)) {
        if (stopped()) return fired;
        await source.deliver(clock, due);
        fired += due.length;
        // The stores answer synchronously: let the runners (and requests, in process) in between pages.
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
    return fired;
  }

  /** The source's deliverable timers, a page (of at least one, when it has any) at a time. */
  private async *pages(source: TimerSource, clock: string, upTo: string, limit: number): AsyncGenerator<DueTimer[]> {
    let after: After | undefined;
    for (;;) {
      const page = await source.pending(clock, upTo, limit, after);
      const due = await source.deliverable(page);
      if (due.length > 0) yield due;
      if (page.length < limit) return;
      const last = page[page.length - 1];
      after = { value: last.due_at, id: last.id };
    }
  }
}
