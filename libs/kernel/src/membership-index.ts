import type { Command, Decider, Event } from './decider';

/** The members of an index by id, each with what the index keeps of it, in the order they joined. */
export type MembershipIndexState<V> = { status: 'none' } | { status: 'indexed'; members: ReadonlyMap<string, V> };

/** What one record of an index says: `member` is in it with `value`, or (`joined` false) is not. */
export interface Membership<V> {
  member: string;
  joined: boolean;
  value: V;
}

/**
 * The decider of an index kept on the write side (the subscriptions of a customer, the customers of
 * a test clock, the alerts of a subscription), so that writes decide from the event store rather
 * than from a read model. Its one command records a membership and its one event carries the same
 * data; a record the index already holds (the same value, or a member already out) appends nothing.
 */
export function membershipIndex<CommandType extends string, EventType extends string, Data, V>(
  types: { command: CommandType; event: EventType },
  membershipOf: (data: Readonly<Data>) => Membership<V>,
): Decider<MembershipIndexState<V>, Command<CommandType, Data>, Event<EventType, Data>> {
  return {
    initialState: () => ({ status: 'none' }),

    decide(command, state) {
      const { member, joined, value } = membershipOf(command.data);
      const members = indexMembers(state);
      const held = joined ? members.has(member) && members.get(member) === value : !members.has(member);
      return held ? [] : [{ type: types.event, data: command.data }];
    },

    evolve(state, event) {
      const { member, joined, value } = membershipOf(event.data);
      const members = new Map(indexMembers(state));
      if (joined) members.set(member, value);
      else members.delete(member);
      return { status: 'indexed', members };
    },
  };
}

export const indexMembers = <V>(state: MembershipIndexState<V>): ReadonlyMap<string, V> => (state.status === 'none' ? new Map() : state.members);
