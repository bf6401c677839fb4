import type { EventStore } from '@tally/eventstore';
import type { ReadStore } from '@tally/readstore';
import { followInBatches } from '../runtime/follow-in-batches';
import { supervise, type RunnerLog } from '../runtime/supervise';
import { CatchUp } from '../projections/catch-up';
import { ownerOf, type ProcessRuntime } from './process-runtime';
import type { PiiCodec } from '../pii/pii-codec';

/**
 * Feeds a process manager its input events, personal data decrypted: a catch-up subscription
 * from the manager's checkpoint, one event at a time. The checkpoint moves in batches, never past an unhandled input;
 * inputs after it are delivered again after a crash, and the manager's stream answers them as done.
 */
export class ProcessRunner {
  private stopped = false;
  private running: Promise<void> | undefined;
  private close: (() => Promise<void>) | undefined;
  private readonly progress: CatchUp;

  constructor(
    private readonly runtime: ProcessRuntime<unknown>,
    private readonly checkpoints: ReadStore,
    private readonly events: EventStore,
    private readonly pii: PiiCodec,
    private readonly log: RunnerLog,
  ) {
    this.progress = new CatchUp(events, { streamPrefixes: runtime.manager.streamPrefixes });
  }

  get checkpoint(): string {
    return `pm:${this.runtime.manager.name}`;
  }

  async start(): Promise<void> {
    this.progress.advance(await this.checkpoints.getCheckpoint(this.checkpoint));
    this.running = supervise(`process manager ${this.runtime.manager.name}`, () => this.follow(), () => this.stopped, this.log);
  }

  /** Resolves once every input up to `position` is handled. */
  whenCaughtUp(position: bigint): Promise<void> {
    return this.progress.reached(position);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.close?.();
    await this.running;
  }

  private async follow(): Promise<void> {
    const manager = this.runtime.manager;
    const fromPosition = await this.checkpoints.getCheckpoint(this.checkpoint);
    const subscription = this.events.subscribeToAll({ fromPosition, filter: { streamPrefixes: manager.streamPrefixes } });
    this.close = () => subscription.close();
    if (this.stopped) await subscription.close();
    try {
      await followInBatches(
        subscription,
        async (event) => {
          const routed = manager.route({ ...event, data: await this.pii.decode(event.type, event.data) });
          if (routed) await this.runtime.deliver(routed.processId, routed.input, ownerOf(event));
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
}
