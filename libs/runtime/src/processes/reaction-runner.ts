import { derivedId, DomainError, type IdGenerator } from '@tally/kernel';
import type { RecordedEvent } from '@tally/eventstore';
import type { Cell, RequestContext } from '@tally/cells';
import type { TallyMetrics } from '@tally/observability';
import type { ReadStore } from '@tally/readstore';
import { commandCausedBy } from '../commands/caused-by';
import { inLanes, roundsOf, throwFirstFailure } from '../runners/lanes';
import { LogFollower } from '../runners/log-follower';
import { oncePerEvent } from '../runners/once-per-event';
import type { RunnerLog } from '../runners/supervise';
import { PARKED_EVENT, RETRIED_EVENT, type CommandParkedData, type CommandRetriedData } from './command-dispatcher';
import { processStream } from './process-manager';
import type { Reaction } from './reaction';

/** How many ready events (of different lanes) a reaction handles at once. */
const REACTION_LANES = 100;

/** A reaction's parked command names the event it came from, which a retry reads again. */
export interface ReactionCommandParkedData extends CommandParkedData {
  source: { stream: string; revision: number };
}

type Called = NonNullable<ReturnType<Reaction['commandOf']>>;

/**
 * Runs a reaction from its own checkpoint: the commands of different lanes at the same time. A
 * refusal (a domain error) is final, and counted as a process's would be, unless the reaction
 * parks that command type when refused (`parkWhenRefused`): then it is recorded in the stream of
 * the reaction's parked commands of that lane, `pm.<reaction>-<lane>`, which the parked
 * commands' list, gauge and retrier read as they read a process's; the runner follows that stream
 * too, and an operator's (or the hourly) retry dispatches the command again from the event it
 * came from, under the same id. Any other
 * failure stops the follower at the event, which it retries from its checkpoint with a growing
 * pause (as a projection does), so no command is ever skipped.
 */
export class ReactionRunner extends LogFollower {
  private readonly parkedStreams: string;

  constructor(
    private readonly reaction: Reaction,
    private readonly cell: Cell,
    checkpoints: ReadStore,
    private readonly metrics: TallyMetrics,
    private readonly ids: IdGenerator,
    private readonly log: RunnerLog,
  ) {
    const parkedStreams = processStream(reaction.name, '');
    const streamPrefixes = [...reaction.streamPrefixes, parkedStreams];
    super({ name: `reaction ${reaction.name}`, events: cell.events, checkpoints, checkpoint: `reaction:${reaction.name}`, filter: { streamPrefixes }, log, width: REACTION_LANES });
    this.parkedStreams = parkedStreams;
  }

  protected override async laneOf(event: RecordedEvent): Promise<string> {
    if (event.stream.startsWith(this.parkedStreams)) return event.stream;
    return (await this.commandOf(event))?.lane ?? event.stream;
  }

  protected async handle(event: RecordedEvent): Promise<void> {
    if (event.stream.startsWith(this.parkedStreams)) {
      if (event.type === RETRIED_EVENT) await this.retry(event);
      return;
    }
    const called = await this.commandOf(event);
    if (called) await this.run(event, called, reactionCommandId(this.reaction.name, event.id));
  }

  private async run(source: RecordedEvent, called: Called, commandId: string): Promise<void> {
    const context = this.contextOf(source, commandId);
    try {
      await this.reaction.dispatch(called.command, context);
      this.metrics.commandsDispatched.inc({ process: this.reaction.name, outcome: 'applied' });
    } catch (error) {
      await this.refused(source, called, commandId, error);
    }
  }

  /**
   * With a page form (`dispatchEach`), the window's commands go a round at a time: the first
   * event of each lane, then the next, so a lane's commands still run in log order. A refusal is
   * its command's, as one by one; any other failure fails the window once its round is done, so
   * the follower retries it from its checkpoint and skips nothing.
   */
  protected override async handleWindow(window: readonly RecordedEvent[]): Promise<void> {
    if (!this.reaction.dispatchEach) return inLanes(window, (event) => this.laneOf(event), (event) => this.handle(event));
    const lanes = new Map(await Promise.all(window.map(async (event) => [event, await this.laneOf(event)] as const)));
    for (const round of roundsOf(window, (event) => lanes.get(event)!)) {
      const paged: { source: RecordedEvent; called: Called; commandId: string }[] = [];
      const alone: RecordedEvent[] = [];
      for (const event of round) {
        const called = event.stream.startsWith(this.parkedStreams) ? undefined : await this.commandOf(event);
        if (called) paged.push({ source: event, called, commandId: reactionCommandId(this.reaction.name, event.id) });
        else alone.push(event);
      }
      const outcomes = await Promise.allSettled([this.runEach(paged), ...alone.map((event) => this.handle(event))]);
      throwFirstFailure(outcomes);
    }
  }

  private async runEach(paged: readonly { source: RecordedEvent; called: Called; commandId: string }[]): Promise<void> {
    if (paged.length === 0) return;
    const settled = await this.reaction.dispatchEach!(paged.map(({ source, called, commandId }) => ({ command: called.command, context: this.contextOf(source, commandId) })));
    const outcomes = await Promise.allSettled(
      settled.map(async (outcome, i) => {
        if (outcome.status === 'fulfilled') this.metrics.commandsDispatched.inc({ process: this.reaction.name, outcome: 'applied' });
        else await this.refused(paged[i].source, paged[i].called, paged[i].commandId, outcome.reason);
      }),
    );
    throwFirstFailure(outcomes);
  }

  private contextOf(source: RecordedEvent, commandId: string): RequestContext {
    return commandCausedBy(source, this.cell.region, `reaction:${this.reaction.name}`, commandId);
  }

  /** A refusal (a domain error) is final, or parks the command; any other failure is thrown on. */
  private async refused(source: RecordedEvent, called: Called, commandId: string, error: unknown): Promise<void> {
    const { name } = this.reaction;
    if (!(error instanceof DomainError)) throw error;
    const { type } = called.command;
    if (!this.reaction.parkWhenRefused?.includes(type)) {
      this.metrics.commandsDispatched.inc({ process: name, outcome: 'rejected' });
      return;
    }
    this.log.error(`reaction ${name}: command ${type} ${commandId} refused (${error.code}); parked until it is retried`, error);
    const parked: ReactionCommandParkedData = { command_id: commandId, type, attempts: 1, error: `${error.code}: ${error.message}`, source: { stream: source.stream, revision: source.revision } };
    // A crash before the checkpoint parks the command again: the listing keys on the command id.
    const metadata = { ...source.metadata, schema_version: this.cell.upcasters.currentVersion(PARKED_EVENT), input_id: `parked:${commandId}` };
    await this.cell.events.append(processStream(name, called.lane), [{ id: this.ids.ulid(), type: PARKED_EVENT, data: parked, metadata }], { expectedRevision: 'any' });
    this.metrics.commandsDispatched.inc({ process: name, outcome: 'parked' });
  }

  /** An operator's (or the hourly) retry: the parked command again, from the event it came from, under its id. */
  private async retry(event: RecordedEvent): Promise<void> {
    const { command_id } = event.data as CommandRetriedData;
    const earlier = await this.cell.events.readStream(event.stream, { fromRevision: event.revision, direction: 'backwards' });
    const parked = earlier.find((stored) => stored.type === PARKED_EVENT && (stored.data as ReactionCommandParkedData).command_id === command_id);
    if (!parked) return;
    const { stream, revision } = (parked.data as ReactionCommandParkedData).source;
    const [source] = await this.cell.events.readStream(stream, { fromRevision: revision, limit: 1 });
    const called = source && (await this.commandOf(source));
    if (called) await this.run(source, called, command_id);
  }

  /** The command the event calls for, if any (decrypted and asked once for its lane and its handling). */
  private readonly commandOf = oncePerEvent(async (event) => this.reaction.commandOf({ ...event, data: await this.cell.pii.decode(event.type, event.data) }));
}

/** The same event always issues the same command id, however often it is read. */
export const reactionCommandId = (reaction: string, eventId: string): string => derivedId('cmd', [`reaction:${reaction}`, eventId]);
