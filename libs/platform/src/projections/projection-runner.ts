import type { RecordedEvent } from '@tally/eventstore';
import { applyEvent, ensureCollections, type ProjectionBinding } from './projection-source';
import { UnitOfWork } from './unit-of-work';
import { CatchUp } from './catch-up';
import { supervise, type RunnerLog } from '../runtime/supervise';

const MAX_BATCH = 500;
/** Under a steady stream of appends the subscription never waits; commit at least this often anyway. */
const MAX_BATCH_MS = 50;
const NOT_READY = Symbol('not ready');

/**
 * Keeps one projection up to date: a catch-up subscription from the stored checkpoint, handled
 * one event at a time. Writes are batched while events are immediately available (catch-up) and
 * committed with the checkpoint as soon as the subscription has to wait, or every 500 events or
 * 50 ms, so a live event is visible within milliseconds and the checkpoint never runs ahead of
 * handled events. A failure restarts the subscription from the last committed checkpoint, with
 * backoff.
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
    this.progress.advance(await this.binding.store.getCheckpoint(this.binding.checkpoint));
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
    const from = await store.getCheckpoint(checkpoint);
    const subscription = events.subscribeToAll({ fromPosition: from, filter: { streamPrefixes: projection.streamPrefixes } });
    this.close = () => subscription.close();
    if (this.stopped) await subscription.close();
    const iterator = subscription[Symbol.asyncIterator]();
    const unit = new UnitOfWork(store);
    let batched = 0;
    let batchStarted = performance.now();
    let next = iterator.next();
    try {
      for (;;) {
        let result = await Promise.race([next, new Promise<typeof NOT_READY>((resolve) => setImmediate(resolve, NOT_READY))]);
        if (result === NOT_READY) {
          await this.flush(unit);
          batched = 0;
          result = await next;
          batchStarted = performance.now();
        }
        if (result.done) break;
        const event: RecordedEvent = result.value;
        await applyEvent(this.binding, event, unit);
        if (++batched >= MAX_BATCH || performance.now() - batchStarted > MAX_BATCH_MS) {
          await this.flush(unit);
          batched = 0;
          batchStarted = performance.now();
        }
        next = iterator.next();
      }
      await this.flush(unit);
    } finally {
      await subscription.close();
    }
  }

  private async flush(unit: UnitOfWork): Promise<void> {
    this.progress.advance(await unit.commit(this.binding.checkpoint));
  }
}
