import type { EventStore, RecordedEvent } from '@tally/eventstore';
import type { ReadStore } from '@tally/readstore';
import type { PiiCodec } from '@tally/cells';
import { LogFollower } from '../runners/log-follower';
import { oncePerEvent } from '../runners/once-per-event';
import type { RunnerLog } from '../runners/supervise';
import { ownerOf, type ProcessRuntime } from './process-runtime';

/** How many ready input events a process manager handles at once (of different processes). */
const PROCESS_LANES = 100;

/**
 * Feeds a process manager its input events, personal data decrypted, from the manager's own
 * checkpoint: the inputs of one process in log order, those of different processes (up to
 * PROCESS_LANES ready events) at the same time, so that their appends commit together. Inputs
 * after the checkpoint are delivered again after a crash, and the manager's stream answers them
 * as done.
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
    super({ name: `process manager ${manager.name}`, events, checkpoints, checkpoint: `pm:${manager.name}`, filter: { streamPrefixes: manager.streamPrefixes }, log, width: PROCESS_LANES });
  }

  protected async handle(event: RecordedEvent): Promise<void> {
    const routed = await this.routed(event);
    if (routed) await this.runtime.deliver(routed.processId, routed.input, ownerOf(event));
  }

  protected override async laneOf(event: RecordedEvent): Promise<string> {
    return (await this.routed(event))?.processId ?? '';
  }

  /** The event as an input, and for which process, if it is one (decrypted and routed once for its lane and its handling). */
  private readonly routed = oncePerEvent(async (event) => this.runtime.manager.route({ ...event, data: await this.pii.decode(event.type, event.data) }));
}
