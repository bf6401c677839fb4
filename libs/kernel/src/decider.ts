/** A domain event as the domain sees it: a past-tense fact with a typed payload. */
export type Event<Type extends string = string, Data = unknown> = Readonly<{ type: Type; data: Readonly<Data> }>;

/** A command as the domain sees it: an intent with everything it needs, including ids and "now". */
export type Command<Type extends string = string, Data = unknown> = Readonly<{ type: Type; data: Readonly<Data> }>;

/** The commands of a union as a request states them: without the fields the handler fills in (the aggregate's id, "now"). */
export type CommandIntent<C extends Command, Filled extends string> = C extends Command<infer T, infer D> ? { type: T; data: Omit<D, Filled> } : never;

/**
 * One decider per aggregate: pure functions, no I/O, no clock, no randomness.
 * `decide` returns no events when the command is already satisfied, and throws a DomainError
 * when it breaks a rule.
 */
export interface Decider<State, C extends Command, E extends Event> {
  initialState(): State;
  evolve(state: State, event: E): State;
  decide(command: C, state: State): readonly E[];
}

export const fold = <State, E extends Event>(decider: Pick<Decider<State, never, E>, 'initialState' | 'evolve'>, events: readonly E[], from = decider.initialState()): State =>
  events.reduce(decider.evolve, from);

export function assertNever(value: never): never {
  throw new Error(`Unhandled case: ${JSON.stringify(value)}`);
}
