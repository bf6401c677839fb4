import { applyEvent, ensureCollections, type ProjectionBinding } from './projection-source';
import { UnitOfWork } from './unit-of-work';
import { CatchUp } from './catch-up';
import { followInBatches, ONE_LANE } from '../runners/follow-in-batches';
import { supervise, type RunnerLog } from '../runners/supervise';

/**
 * Keeps one projection up to date: a catch-up subscription from the stored checkpoint, handled
 * one event at a time, its writes committed with the checkpoint in batches (see followInBatches).
 * A failure restarts the subscription from the last committed checkpoint, with backoff.
 */
export class ProjectionRunner {
  private stopped = false;
  private running: Promise<void> | undefined;
  private close: (() => Promise<void>) | undefined;
  private readonly progress: CatchUp;

  constructor(
    private readonly binding: ProjectionBinding,
    private readonly log: RunnerLog,
  ) {
    this.progress = new CatchUp(binding.events, { streamPrefixes: binding.projection.streamPrefixes });
  }

  get name(): string {
    return this.binding.checkpoint;
  }

  async start(): Promise<void> {
    await ensureCollections(this.binding);
    this.progress.advance(await this.binding.store.recoverCheckpoint(this.binding.checkpoint));
    this.running = supervise(`projection ${this.name}`, () => this.follow(), () => this.stopped, this.log);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.close?.();
    await this.running;
  }

  /** Resolves once every event of this projection up to `position` is committed to the read model. */
  whenCaughtUp(position: bigint): Promise<void> {
    return this.progress.reached(position);
  }

  private async follow(): Promise<void> {
    const { events, projection, store, checkpoint } = this.binding;
    const from = await store.recoverCheckpoint(checkpoint);
    const subscription = events.subscribeToAll({ fromPosition: from, filter: { streamPrefixes: projection.streamPrefixes } });
    this.close = () => subscription.close();
    if (this.stopped) await subscription.close();
    const unit = new UnitOfWork(store, projection.keepWritten);
    try {
      await followInBatches(
        subscription,
        (event) => applyEvent(this.binding, event, unit),
        async () => this.progress.advance(await unit.commit(checkpoint)),
        ONE_LANE,
        projection.pacing,
      );
    } finally {
      await subscription.close();
    }
  }
}
