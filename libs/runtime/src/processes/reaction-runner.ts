import { derivedId, DomainError } from '@tally/kernel';
import type { RecordedEvent } from '@tally/eventstore';
import type { Cell } from '@tally/cells';
import type { TallyMetrics } from '@tally/observability';
import type { ReadStore } from '@tally/readstore';
import { commandCausedBy } from '../commands/caused-by';
import { LogFollower } from '../runners/log-follower';
import { oncePerEvent } from '../runners/once-per-event';
import type { RunnerLog } from '../runners/supervise';
import type { Reaction } from './reaction';

/** How many ready events (of different lanes) a reaction handles at once. */
const REACTION_LANES = 100;

/**
 * Runs a reaction from its own checkpoint: the commands of different lanes at the same time. A
 * refusal (a domain error) is final, and counted as a process's would be; any other failure stops the follower at the
 * event, which it retries from its checkpoint with a growing pause (as a projection does), so no
 * command is ever skipped.
 */
export class ReactionRunner extends LogFollower {
  constructor(
    private readonly reaction: Reaction,
    private readonly cell: Cell,
    checkpoints: ReadStore,
    private readonly metrics: TallyMetrics,
    log: RunnerLog,
  ) {
    super({ name: `reaction ${reaction.name}`, events: cell.events, checkpoints, checkpoint: `reaction:${reaction.name}`, filter: { streamPrefixes: reaction.streamPrefixes }, log, width: REACTION_LANES });
  }

  protected override async laneOf(event: RecordedEvent): Promise<string> {
    return (await this.commandOf(event))?.lane ?? event.stream;
  }

  protected async handle(event: RecordedEvent): Promise<void> {
    const called = await this.commandOf(event);
    if (!called) return;
    const { name } = this.reaction;
    const context = commandCausedBy(event, this.cell.region, `reaction:${name}`, reactionCommandId(name, event.id));
    try {
      await this.reaction.dispatch(called.command, context);
      this.metrics.commandsDispatched.inc({ process: name, outcome: 'applied' });
    } catch (error) {
      if (!(error instanceof DomainError)) throw error;
      this.metrics.commandsDispatched.inc({ process: name, outcome: 'rejected' });
    }
  }

  /** The command the event calls for, if any (decrypted and asked once for its lane and its handling). */
  private readonly commandOf = oncePerEvent(async (event) => this.reaction.commandOf({ ...event, data: await this.cell.pii.decode(event.type, event.data) }));
}

/** The same event always issues the same command id, however often it is read. */
export const reactionCommandId = (reaction: string, eventId: string): string => derivedId('cmd', [`reaction:${reaction}`, eventId]);
