import type { EventStore, RecordedEvent } from '@tally/eventstore';
import type { ReadStore } from '@tally/readstore';
import type { PiiCodec } from '@tally/cells';
import { LogFollower } from '../runners/log-follower';
import type { RunnerLog } from '../runners/supervise';
import { ownerOf, type ProcessRuntime } from './process-runtime';

/**
 * Feeds a process manager its input events, personal data decrypted, from the manager's own
 * checkpoint. Inputs after the checkpoint are delivered again after a crash, and the manager's
 * stream answers them as done.
 */
export class ProcessRunner extends LogFollower {
  constructor(
    private readonly runtime: ProcessRuntime<unknown>,
    checkpoints: ReadStore,
    events: EventStore,
    private readonly pii: PiiCodec,
    log: RunnerLog,
  ) {
    const manager = runtime.manager;
    super({ name: `process manager ${manager.name}`, events, checkpoints, checkpoint: `pm:${manager.name}`, filter: { streamPrefixes: manager.streamPrefixes }, log });
  }

  protected async handle(event: RecordedEvent): Promise<void> {
    const routed = this.runtime.manager.route({ ...event, data: await this.pii.decode(event.type, event.data) });
    if (routed) await this.runtime.deliver(routed.processId, routed.input, ownerOf(event));
  }
}
