import type { RecordedEvent } from '@tally/eventstore';
import type { RequestContext } from '@tally/cells';
import type { ReactionCall } from './page-of-type';
import type { IssuedCommand } from './process-manager';

/**
 * A policy that needs no memory between events: each event it picks becomes one command,
 * dispatched as the event is read. Where a process manager keeps a stream (its inputs, the
 * commands it issued, its timers), a reaction keeps only its follower's checkpoint: the command's
 * id derives from the event, so its target applies it once, and the checkpoint moves past the
 * event only once the command ran, so a crash runs it again, to no effect. Use it when the command
 * alone is the decision (the same event always means the same command).
 */
export interface Reaction<C extends IssuedCommand = IssuedCommand> {
  /** Lowercase with underscores, e.g. `invoice_numbering`. */
  name: string;
  streamPrefixes: readonly string[];
  /** The command a stored event (personal data decrypted) calls for, if any, and its lane: commands of one lane run in log order. */
  commandOf(event: RecordedEvent): { lane: string; command: C } | undefined;
  /**
   * Command types whose refusal (a domain error) parks the command, for an operator (or the hourly
   * retrier) to dispatch again once its cause is fixed, instead of dropping it: work nobody else
   * would do. Other refusals are final.
   */
  parkWhenRefused?: readonly string[];
  /** Executes the command; the context carries its command id, which the target applies once. */
  dispatch(command: C, context: RequestContext): Promise<void>;
  /**
   * Executes a page of commands (of different lanes) at once, each settled as `dispatch` would
   * settle it: for a reaction whose commands cost less a page at a time (reads, appends). The
   * runner then sends it the commands of the events it has ready, a round per lane position.
   */
  dispatchEach?(calls: readonly ReactionCall<C>[]): Promise<PromiseSettledResult<void>[]>;
}
