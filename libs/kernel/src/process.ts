/** An input of a process: a stored event of another stream, one of its timers firing, or a refusal of a command it issued. */
export interface ProcessInput<Type extends string = string, Data = unknown> {
  /** Unique per input (the stored event's id, `timer:<timer id>`, `rejected:<command id>`); a redelivered input does nothing. */
  readonly id: string;
  readonly type: Type;
  readonly data: Data;
}

/** Input types every process may receive from the runtime. */
export const TIMER_FIRED = 'TimerFired';
export const COMMAND_REJECTED = 'CommandRejected';

export type TimerFired = ProcessInput<typeof TIMER_FIRED, { timer_id: string }>;
/** A command the process issued was refused by its target with a domain error. */
export type CommandRejected = ProcessInput<typeof COMMAND_REJECTED, { command_id: string; command_type: string; code: string; message: string }>;

/** What a process decides: commands to issue, timers to set or cancel, facts about itself. */
export type ProcessOutput<C extends { type: string; data: unknown } = { type: string; data: unknown }> =
  | { readonly kind: 'command'; readonly command: C }
  | { readonly kind: 'schedule'; readonly timerId: string; readonly dueAt: string }
  | { readonly kind: 'cancel'; readonly timerId: string }
  | { readonly kind: 'event'; readonly type: string; readonly data: unknown };

/** What a process's stream holds, in order: each input it handled, followed by the outputs it decided. */
export type ProcessMessage<I extends ProcessInput = ProcessInput, O extends ProcessOutput = ProcessOutput> =
  | { readonly kind: 'input'; readonly input: I }
  | O;

/**
 * A long-running flow as a pure decider (emmett's workflow): `decide(input, state)` answers the
 * outputs, `evolve` folds the process's own messages (inputs and outputs) into its state. No I/O,
 * no clock: "now" arrives inside inputs. Routing and dispatch live apart, in the runtime.
 */
export interface ProcessDecider<S, I extends ProcessInput = ProcessInput, O extends ProcessOutput = ProcessOutput> {
  initialState(): S;
  evolve(state: S, message: ProcessMessage<I, O>): S;
  decide(input: I, state: S): readonly O[];
}

/** The state after handling `inputs` one by one, as the runtime would: each input, then its outputs, folded in. */
export function runProcess<S, I extends ProcessInput, O extends ProcessOutput>(decider: ProcessDecider<S, I, O>, inputs: readonly I[], from = decider.initialState()): S {
  return inputs.reduce((state, input) => {
    const outputs = decider.decide(input, state);
    return [{ kind: 'input', input } as ProcessMessage<I, O>, ...outputs].reduce(decider.evolve, state);
  }, from);
}
