import { DomainError } from '@tally/kernel';
import type { RecordedEvent } from '@tally/eventstore';
import type { ReadStore } from '@tally/readstore';
import type { Cell } from '@tally/cells';
import { asEventOf } from '../commands/history-event';
import { causedBy } from '../commands/caused-by';
import type { CommandRuntime } from '../commands/command-runtime';
import type { TimerPoller } from '../processes/timer-poller';
import { LogFollower } from '../runners/log-follower';
import type { RunnerLog } from '../runners/supervise';
import { TEST_CLOCK_AGGREGATE } from './clocks';
import type { TestClockAdvanceStarted } from './domain/test-clock.events';
import { testClockAggregate } from './test-clock.aggregate';

/** An advance fires at most this many timers; a flow that keeps scheduling timers in the past would otherwise never let it end. */
export const MAX_TIMERS_PER_ADVANCE = 10_000;

/**
 * Runs the advances of a cell's test clocks. For each started advance it repeatedly lets the
 * worker settle, finds the clock's earliest pending timer due by the target, moves the clock to
 * that time and fires every timer due then, so each fires at its own time and sees what the
 * firings before it did (a renewal that schedules the next renewal before the target fires
 * that one too). Then it moves the clock to the target: `ready`. A crash replays the advance
 * from the start, and timers that fired before it do not fire again.
 */
export class TestClockAdvancer extends LogFollower {
  constructor(
    private readonly cell: Cell,
    private readonly runtime: CommandRuntime,
    private readonly timers: TimerPoller,
    checkpoints: ReadStore,
    /** Resolves once everything but the advancers has handled every event so far. */
    private readonly settleOthers: () => Promise<void>,
    private readonly log: RunnerLog,
  ) {
    super({ name: 'test clock advancer', events: cell.events, checkpoints, checkpoint: 'test_clock_advancer', filter: { streamPrefixes: [`${TEST_CLOCK_AGGREGATE}-`] }, log });
  }

  protected async handle(event: RecordedEvent): Promise<void> {
    if (event.type === 'TestClockAdvanceStarted') await this.advance(event);
  }

  private async advance(event: RecordedEvent): Promise<void> {
    const { test_clock_id: clockId, target } = asEventOf<TestClockAdvanceStarted>(event).data;
    const context = causedBy(event, this.cell.region, 'system:test_clock');
    try {
      for (let fired = 0; fired < MAX_TIMERS_PER_ADVANCE && !this.isStopped; ) {
        await this.settleOthers();
        const next = await this.timers.nextDue(clockId, target);
        if (!next) break;
        await this.runtime.execute(testClockAggregate, clockId, { type: 'MoveTestClock', data: { test_clock_id: clockId, now: next } }, context);
        fired += await this.timers.fireDue(clockId, next);
      }
      if (this.isStopped) return;
      await this.settleOthers();
      await this.runtime.execute(testClockAggregate, clockId, { type: 'CompleteTestClockAdvance', data: { test_clock_id: clockId } }, context);
    } catch (error) {
      // The clock was deleted while it advanced: nothing is left to advance.
      if (!(error instanceof DomainError)) throw error;
      this.log.error(`test clock ${clockId}: advance stopped`, error);
    }
  }
}
