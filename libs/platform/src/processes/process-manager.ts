import type { RecordedEvent } from '@tally/eventstore';
import type { RequestContext } from '../context/request-context';

/** An input of a process manager: a stored event of another stream, or one of its timers firing. */
export interface ProcessInput {
  /** Unique per input (the stored event's id, or `timer:<timer id>`); a redelivered input does nothing. */
  id: string;
  type: string;
  data: unknown;
}

/** What a process manager decides: commands to send, timers to set or cancel, facts about itself. */
export type ProcessOutput =
  | { kind: 'command'; type: string; data: unknown }
  | { kind: 'schedule'; timerId: string; dueAt: string }
  | { kind: 'cancel'; timerId: string }
  | { kind: 'event'; type: string; data: unknown };

/** Events of a process manager's own stream that the runtime writes for it. */
export const ProcessEvents = {
  commandIssued: 'ProcessCommandIssued',
  timerScheduled: 'ProcessTimerScheduled',
  timerCancelled: 'ProcessTimerCancelled',
  timerFired: 'ProcessTimerFired',
} as const;

export const TIMER_FIRED_INPUT = 'TimerFired';

/**
 * A long-running flow as a decider with its own stream `pm.<name>-<process id>`, which is its
 * inbox (the ids of inputs it has handled), its outbox (the commands it issued) and its timers.
 * `decide` and `evolve` are pure; `dispatch` executes an issued command and must be idempotent,
 * because a crash after the append and before the checkpoint dispatches it again.
 */
export interface ProcessManager<S> {
  /** Lowercase with underscores, e.g. `tax_id_validation`. */
  name: string;
  streamPrefixes: readonly string[];
  /** Which stored events are inputs, and for which process instance. */
  route(event: RecordedEvent): { processId: string; input: ProcessInput } | undefined;
  initialState(): S;
  evolve(state: S, event: { type: string; data: unknown }): S;
  decide(input: ProcessInput, state: S): readonly ProcessOutput[];
  dispatch(command: { type: string; data: unknown }, context: RequestContext): Promise<void>;
}

export const processStream = (name: string, processId: string): string => `pm.${name}-${processId}`;
