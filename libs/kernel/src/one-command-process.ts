import { assertNever } from './decider';
import { COMMAND_REJECTED, TIMER_FIRED, type CommandRejected, type ProcessDecider, type ProcessInput, type ProcessMessage, type TimerFired } from './process';

/** Before its trigger, and once it issued its command. */
export type OneCommandState = { status: 'awaiting_trigger' } | { status: 'issued' };

export type OneCommandOutput<C extends { type: string; data: unknown }> = { kind: 'command'; command: C };

/**
 * The decider of a process that answers one trigger with one command, once: a redelivered or
 * repeated trigger issues nothing more, a refusal ends it, and it sets no timers (a timer fired
 * at it is none of its own). Its stream holds the trigger and the command, nothing else.
 */
export function oneCommandProcess<T extends ProcessInput, C extends { type: string; data: unknown }>(
  commandOf: (trigger: T) => C,
): ProcessDecider<OneCommandState, T | TimerFired | CommandRejected, OneCommandOutput<C>> {
  return {
    initialState: () => ({ status: 'awaiting_trigger' }),

    evolve(state, message: ProcessMessage<T | TimerFired | CommandRejected, OneCommandOutput<C>>) {
      switch (message.kind) {
        case 'input':
          return state;
        case 'command':
          return { status: 'issued' };
        default:
          return assertNever(message);
      }
    },

    decide(input, state) {
      switch (input.type) {
        case TIMER_FIRED:
        case COMMAND_REJECTED:
          return [];
        default:
          // What is neither is the trigger (the process's routing makes no other input).
          return state.status === 'awaiting_trigger' ? [{ kind: 'command', command: commandOf(input as T) }] : [];
      }
    },
  };
}
