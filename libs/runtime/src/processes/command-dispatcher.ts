import { setTimeout as sleep } from 'node:timers/promises';
import { COMMAND_REJECTED, DomainError, type CommandRejected, type IdGenerator } from '@tally/kernel';
import type { RecordedEvent } from '@tally/eventstore';
import type { ReadStore } from '@tally/readstore';
import type { Cell } from '@tally/cells';
import type { TallyMetrics } from '@tally/observability';
import { commandCausedBy } from '../commands/caused-by';
import { LogFollower } from '../runners/log-follower';
import type { RunnerLog } from '../runners/supervise';
import { ProcessEvents, splitProcessStream, type CommandIssuedData } from './process-manager';
import { issuedCommandId, ownerOf, type ProcessRuntime } from './process-runtime';

/** Attempts before a command is parked, and the pause before the first retry (doubling each time). */
export const DISPATCH_ATTEMPTS = 5;
const FIRST_RETRY_MS = 100;
/** How many ready commands (of different processes) run at once. */
const DISPATCH_LANES = 100;

export const PARKED_EVENT = 'ProcessCommandParked';
/** An operator asked for a parked command to be dispatched again. */
export const RETRIED_EVENT = 'ProcessCommandRetried';

export interface CommandParkedData {
  command_id: string;
  type: string;
  attempts: number;
  error: string;
}

export interface CommandRetriedData {
  command_id: string;
}

/**
 * Executes the commands process managers issued, each process's in the order it stored them
 * (those of different processes at the same time, so that their appends commit together), by
 * following the process streams from its own checkpoint (never inline, so an outage or a crash between a
 * process's append and the command loses nothing). Each command carries its id, which its target
 * stream applies once, so a command dispatched again changes nothing. A refusal (a domain error)
 * goes back to its process as a `CommandRejected` input, unless the process parks that command
 * type when refused (`parkWhenRefused`: work nobody else would do), which parks it at once; any
 * other failure is retried with a doubling pause and, after DISPATCH_ATTEMPTS, parked: recorded
 * in the process stream, counted, and listed for operators, while later commands go on. An operator's retry (`ProcessCommandRetried`)
 * dispatches the parked command again, with the same attempts.
 */
export class CommandDispatcher extends LogFollower {
  constructor(
    private readonly cell: Cell,
    private readonly runtimes: ReadonlyMap<string, ProcessRuntime<unknown>>,
    checkpoints: ReadStore,
    private readonly metrics: TallyMetrics,
    private readonly ids: IdGenerator,
    private readonly log: RunnerLog,
    private readonly firstRetryMs = FIRST_RETRY_MS,
  ) {
    super({ name: 'command dispatcher', events: cell.events, checkpoints, checkpoint: 'dispatcher', filter: { streamPrefixes: ['pm.'] }, log, width: DISPATCH_LANES });
  }

  /** A process's commands run in the order it issued them; different processes' at the same time. */
  protected override laneOf(event: RecordedEvent): string {
    return event.stream;
  }

  protected async handle(event: RecordedEvent): Promise<void> {
    if (event.type === ProcessEvents.commandIssued) await this.dispatch(event);
    if (event.type === RETRIED_EVENT) await this.retry(event);
  }

  private async retry(event: RecordedEvent): Promise<void> {
    const { command_id } = event.data as CommandRetriedData;
    const earlier = await this.cell.events.readStream(event.stream, { fromRevision: event.revision, direction: 'backwards' });
    const issued = earlier.find((stored) => stored.type === ProcessEvents.commandIssued && commandIdOf(stored) === command_id);
    if (issued) await this.dispatch(issued);
  }

  private async dispatch(event: RecordedEvent): Promise<void> {
    const { name, processId } = splitProcessStream(event.stream);
    const runtime = this.runtimes.get(name);
    if (!runtime) return;
    const issued = (await this.cell.pii.decode(event.type, event.data)) as CommandIssuedData;
    const commandId = commandIdOf(event);
    const context = commandCausedBy(event, this.cell.region, `process:${name}`, commandId);
    for (let attempt = 1; ; attempt++) {
      try {
        await runtime.manager.dispatch({ type: issued.type, data: issued.data }, context);
        this.metrics.commandsDispatched.inc({ process: name, outcome: 'applied' });
        return;
      } catch (error) {
        if (error instanceof DomainError && runtime.manager.parkWhenRefused?.includes(issued.type)) {
          this.log.error(`process ${name}: command ${issued.type} ${commandId} refused (${error.code}); parked until an operator retries it`, error);
          return this.park(event, { command_id: commandId, type: issued.type, attempts: attempt, error: `${error.code}: ${error.message}` });
        }
        if (error instanceof DomainError) {
          const rejected: CommandRejected = {
            id: `rejected:${commandId}`,
            type: COMMAND_REJECTED,
            data: { command_id: commandId, command_type: issued.type, code: error.code, message: error.message },
          };
          await runtime.deliver(processId, rejected, ownerOf(event));
          this.metrics.commandsDispatched.inc({ process: name, outcome: 'rejected' });
          return;
        }
        if (this.isStopped) throw error;
        if (attempt >= DISPATCH_ATTEMPTS) return this.park(event, { command_id: commandId, type: issued.type, attempts: attempt, error: String((error as Error)?.message ?? error) });
        this.metrics.commandRetries.inc({ process: name });
        this.log.error(`process ${name}: command ${issued.type} ${commandId} failed (attempt ${attempt}); retrying`, error);
        await sleep(this.firstRetryMs * 2 ** (attempt - 1));
      }
    }
  }

  private async park(event: RecordedEvent, parked: CommandParkedData): Promise<void> {
    // A crash before the checkpoint parks the command again: the listing keys on the command id.
    const metadata = { ...event.metadata, input_id: `parked:${parked.command_id}` };
    await this.cell.events.append(event.stream, [{ id: this.ids.ulid(), type: PARKED_EVENT, data: parked, metadata }], { expectedRevision: 'any' });
    this.metrics.commandsDispatched.inc({ process: splitProcessStream(event.stream).name, outcome: 'parked' });
  }
}

/** The id of an issued command; events stored before ids were kept carry none and get the id they were dispatched with. */
const commandIdOf = (issued: RecordedEvent): string => (issued.data as CommandIssuedData).command_id ?? issuedCommandId(issued.stream, issued.id, 0);
