import type { After, Condition, ReadStore } from '@tally/readstore';

/** A pending timer as the poller pages through them: by due time, then id. */
export interface DueTimer {
  id: string;
  due_at: string;
}

/** One read model of timers and how its timers are delivered: the process managers', or the aggregates'. */
export interface TimerSource<T extends DueTimer = DueTimer> {
  /** A page of pending timers of `clock` due at or before `upTo`, in (due_at, id) order. */
  pending(clock: string, upTo: string, limit: number, after?: After): Promise<T[]>;
  /** Those of a page that are to be delivered: not those already delivered to no effect. */
  deliverable(page: readonly T[]): Promise<T[]>;
  /** Delivers each timer to what set it, those of one owner in due order. */
  deliver(clock: string, due: readonly T[]): Promise<void>;
}

/** A page of the pending timers of `clock` due at or before `upTo` in a timers collection, of the owners `owner` allows, earliest first. */
export async function findDue<T extends DueTimer & { [key: string]: unknown }>(
  store: ReadStore,
  collection: string,
  owner: Condition,
  { clock, upTo, limit, after }: { clock: string; upTo: string; limit: number; after?: After },
): Promise<T[]> {
  const { items } = await store.find<T>(collection, {
    where: [{ field: 'clock', op: 'eq', value: clock }, { field: 'status', op: 'eq', value: 'pending' }, { field: 'due_at', op: 'lte', value: upTo }, owner],
    sort: { field: 'due_at', direction: 'asc' },
    after,
    limit,
  });
  return items;
}
