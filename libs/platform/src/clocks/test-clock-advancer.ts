import { DomainError } from '@tally/kernel';
import type { RecordedEvent } from '@tally/eventstore';
import type { ReadStore } from '@tally/readstore';
import type { Cell } from '../cells/cell';
import type { CommandRuntime } from '../commands/command-runtime';
import type { RequestContext } from '../context/request-context';
import { CatchUp } from '../projections/catch-up';
import type { TimerPoller } from '../processes/timer-poller';
import { followInBatches } from '../runtime/follow-in-batches';
import { supervise, type RunnerLog } from '../runtime/supervise';
import { TEST_CLOCK_AGGREGATE } from './clocks';
import type { TestClockAdvanceStarted } from './domain/test-clock.events';
import { testClockAggregate } from './test-clock.aggregate';

/** An advance fires at most this many timers; a flow that keeps scheduling timers in the past would otherwise never let it end. */
export const MAX_TIMERS_PER_ADVANCE = 10_000;

const FILTER = { streamPrefixes: [`${TEST_CLOCK_AGGREGATE}-`] };

/**
 * Runs the advances of a cell's test clocks. For each started advance it repeatedly lets the
 * worker settle, finds the clock's earliest pending timer due by the target, moves the clock to
 * that time and fires every timer due then, so each fires at its own time and sees what the
 * firings before it did (a renewal that schedules the next renewal before the target fires
 * that one too). Then it moves the clock to the target: `ready`. A crash replays the advance
 * from the start, and timers that fired before it do not fire again.
 */
export class TestClockAdvancer {
  private stopped = false;
  private running: Promise<void> | undefined;
  private close: (() => Promise<void>) | undefined;
  private readonly progress: CatchUp;
  readonly checkpoint = 'test_clock_advancer';

  constructor(
    private readonly cell: Cell,
    private readonly runtime: CommandRuntime,
    private readonly timers: TimerPoller,
    private readonly checkpoints: ReadStore,
    /** Resolves once everything but the advancers has handled every event so far. */
    private readonly settleOthers: () => Promise<void>,
    private readonly log: RunnerLog,
  ) {
    this.progress = new CatchUp(cell.events, FILTER);
  }

  async start(): Promise<void> {
    this.progress.advance(await this.checkpoints.getCheckpoint(this.checkpoint));
    this.running = supervise('test clock advancer', () => this.follow(), () => this.stopped, this.log);
  }

  whenCaughtUp(position: bigint): Promise<void> {
    return this.progress.reached(position);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.close?.();
    await this.running;
  }

  private async follow(): Promise<void> {
    const subscription = this.cell.events.subscribeToAll({ fromPosition: await this.checkpoints.getCheckpoint(this.checkpoint), filter: FILTER });
    this.close = () => subscription.close();
    if (this.stopped) await subscription.close();
    try {
      await followInBatches(
        subscription,
        async (event) => {
          if (event.type === 'TestClockAdvanceStarted') await this.advance(event);
        },
        async (handledUpTo) => {
          await this.checkpoints.commit([], { name: this.checkpoint, position: handledUpTo });
          this.progress.advance(handledUpTo);
        },
      );
    } finally {
      await subscription.close();
    }
  }

  private async advance(event: RecordedEvent): Promise<void> {
    const { test_clock_id: clockId, target } = (event as unknown as TestClockAdvanceStarted).data;
    const context = this.contextOf(event);
    try {
      for (let fired = 0; fired < MAX_TIMERS_PER_ADVANCE && !this.stopped; ) {
        await this.settleOthers();
        const next = await this.timers.nextDue(clockId, target);
        if (!next) break;
        await this.runtime.execute(testClockAggregate, clockId, { type: 'MoveTestClock', data: { test_clock_id: clockId, now: next } }, context);
        fired += await this.timers.fireDue(clockId, next);
      }
      if (this.stopped) return;
      await this.settleOthers();
      await this.runtime.execute(testClockAggregate, clockId, { type: 'CompleteTestClockAdvance', data: { test_clock_id: clockId } }, context);
    } catch (error) {
      // The clock was deleted while it advanced: nothing is left to advance.
      if (!(error instanceof DomainError)) throw error;
      this.log.error(`test clock ${clockId}: advance stopped`, error);
    }
  }

  private contextOf(event: RecordedEvent): RequestContext {
    return {
      tenantId: event.metadata.tenant_id,
      environment: event.metadata.environment,
      region: this.cell.region,
      actor: 'system:test_clock',
      requestId: null,
      correlationId: event.metadata.correlation_id,
      causationId: event.id,
    };
  }
}
