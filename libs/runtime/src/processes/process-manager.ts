import type { CommandRejected, ProcessDecider, ProcessInput, ProcessOutput, TimerFired } from '@tally/kernel';
import type { RecordedEvent } from '@tally/eventstore';
import type { RequestContext } from '@tally/cells';

export interface IssuedCommand {
  type: string;
  data: unknown;
}

/** Events of a process's own stream that the runtime writes for it. */
export const ProcessEvents = {
  inputReceived: 'ProcessInputReceived',
  commandIssued: 'ProcessCommandIssued',
  timerScheduled: 'ProcessTimerScheduled',
  timerCancelled: 'ProcessTimerCancelled',
} as const;

export interface InputReceivedData {
  input_id: string;
  input_type: string;
  /** Whose personal data `data` may hold; it is sealed with that subject's key (null: none). */
  subject: string | null;
  data: unknown;
}

export interface CommandIssuedData {
  /** Derived from the process stream, the input and the output's place, so a redelivered input issues the same id. */
  command_id: string;
  type: string;
  subject: string | null;
  data: unknown;
}

export interface TimerScheduledData {
  timer_id: string;
  due_at: string;
  /** The test clock the timer belongs to; `system` for the system clock. */
  clock: string;
}

/** The clock of timers that no test clock owns. */
export const SYSTEM_CLOCK = 'system';

/** What a process decides on: the inputs it routes itself, plus what the runtime delivers to every process. */
export type RuntimeInput<I extends ProcessInput> = I | TimerFired | CommandRejected;

/**
 * A long-running flow: a pure decider with its own stream `pm.<name>-<process id>` (its inbox,
 * outbox and timers), plus its routing (which stored events are inputs, for which process) and
 * its dispatch (how an issued command reaches its target). The runtime appends outputs; a
 * dispatcher follows the process streams and executes the issued commands.
 */
export interface ProcessManager<S = unknown, I extends ProcessInput = ProcessInput, C extends IssuedCommand = IssuedCommand> {
  /** Lowercase with underscores, e.g. `tax_id_validation`. */
  name: string;
  streamPrefixes: readonly string[];
  /** Which stored events (personal data decrypted) are inputs, and for which process instance. */
  route(event: RecordedEvent): { processId: string; input: I } | undefined;
  decider: ProcessDecider<S, RuntimeInput<I>, ProcessOutput<C>>;
  /** Executes an issued command; the context carries its command id, which the target applies once. */
  dispatch(command: C, context: RequestContext): Promise<void>;
  /**
   * Command types whose refusal (a domain error) would leave work undone that nobody else will
   * do, such as an invoice that cannot be built or finalised: the dispatcher parks them (listed,
   * counted, logged) for an operator to retry once the cause is fixed, rather than handing the
   * refusal back as `CommandRejected`.
   */
  parkWhenRefused?: readonly C['type'][];
  /** Whose personal data an input or command holds, if any; it is then sealed in the process stream with that subject's key. */
  subjectOf?(message: { type: string; data: unknown }): string | null;
  /**
   * Save the fold every `every` events, so that a long-lived process loads from its snapshot and
   * the events after it. Only for states that survive JSON as they are (no Maps, no null-prototype
   * objects) and streams without personal data (a stream that holds some is never snapshotted).
   * `version` changes with the state's shape; a snapshot of another version is ignored.
   */
  snapshot?: { every: number; version: number };
  /**
   * The input types that start an instance. Given, any other input of an instance that has not
   * started is dropped without a write: a process that follows common events (every paid invoice)
   * but lives for a few of them (those whose payment failed) keeps no stream for the others.
   */
  startsOn?: readonly string[];
}

export const processStream = (name: string, processId: string): string => `pm.${name}-${processId}`;

export function splitProcessStream(stream: string): { name: string; processId: string } {
  const dash = stream.indexOf('-');
  return { name: stream.slice('pm.'.length, dash), processId: stream.slice(dash + 1) };
}
