import type { EventStore, RecordedEvent, SubscriptionFilter } from '@tally/eventstore';
import type { ReadStore } from '@tally/readstore';
import { CatchUp } from '../projections/catch-up';
import { followInBatches } from './follow-in-batches';
import { supervise, type RunnerLog } from './supervise';

export interface LogFollowerOptions {
  /** For logs, e.g. `process manager tax_id_validation`. */
  name: string;
  events: EventStore;
  /** Where the checkpoint is kept. */
  checkpoints: ReadStore;
  checkpoint: string;
  filter: SubscriptionFilter;
  log: RunnerLog;
  /** How many ready events of different lanes (see laneOf) are handled at once; 1 by default. */
  width?: number;
}

/**
 * Follows a cell's log from a checkpoint of its own, one event at a time, committing the
 * checkpoint in batches (see followInBatches) and restarting from it after a failure. What
 * process runners, the command dispatcher and test clock advancers have in common.
 */
export abstract class LogFollower {
  private stopped = false;
  private running: Promise<void> | undefined;
  private close: (() => Promise<void>) | undefined;
  private readonly progress: CatchUp;

  constructor(private readonly options: LogFollowerOptions) {
    this.progress = new CatchUp(options.events, options.filter);
  }

  /** Handles one event; the checkpoint never moves past an event whose handling did not finish. */
  protected abstract handle(event: RecordedEvent): Promise<void>;

  /** Events of one lane are handled in log order; of different lanes, possibly at the same time. */
  protected laneOf(_event: RecordedEvent): string | Promise<string> {
    return '';
  }

  /** Handles a window of ready events together (see Lanes.handleWindow); by default each in its lane. */
  protected handleWindow?(window: readonly RecordedEvent[]): Promise<void>;

  protected get isStopped(): boolean {
    return this.stopped;
  }

  async start(): Promise<void> {
    this.progress.advance(await this.options.checkpoints.recoverCheckpoint(this.options.checkpoint));
    this.running = supervise(this.options.name, () => this.follow(), () => this.stopped, this.options.log);
  }

  /** Resolves once every event up to `position` that the filter selects is handled. */
  whenCaughtUp(position: bigint): Promise<void> {
    return this.progress.reached(position);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.close?.();
    await this.running;
  }

  private async follow(): Promise<void> {
    const { events, checkpoints, checkpoint, filter } = this.options;
    const subscription = events.subscribeToAll({ fromPosition: await checkpoints.recoverCheckpoint(checkpoint), filter });
    this.close = () => subscription.close();
    if (this.stopped) await subscription.close();
    try {
      await followInBatches(
        subscription,
        (event) => this.handle(event),
        async (handledUpTo) => {
          await checkpoints.commit([], { name: checkpoint, position: handledUpTo });
          this.progress.advance(handledUpTo);
        },
        { laneOf: (event) => this.laneOf(event), width: this.options.width ?? 1, ...(this.handleWindow && { handleWindow: (window) => this.handleWindow!(window) }) },
      );
    } finally {
      await subscription.close();
    }
  }
}
