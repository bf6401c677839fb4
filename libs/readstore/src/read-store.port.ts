/**
 * The read store: named collections of JSON documents that projections build and list/retrieve
 * endpoints query. Both adapters (SQLite, MongoDB) pass the contract suite in read-store.contract.ts.
 */

/** Every document has a string `id`; other fields are JSON. */
export type Doc = { id: string } & Record<string, unknown>;

export type FilterOp = 'eq' | 'in' | 'gte' | 'gt' | 'lte' | 'lt' | 'starts';

/**
 * `nin`: none of the values (a document without the field matches). No list offers it as a filter:
 * the server adds it, to leave out what a request may not see (the events its API version lacks).
 */
export type ExclusionOp = 'nin';

/** One condition on a top-level field (dotted paths reach into objects: `billing_address.country`). */
export interface Condition {
  field: string;
  op: FilterOp | ExclusionOp;
  /** `in` and `nin` take an array; `starts` a string; the others a string, number or boolean (`eq` also null). */
  value: string | number | boolean | null | readonly (string | number | boolean)[];
}

export interface SortSpec {
  field: string;
  direction: 'asc' | 'desc';
}

/** Keyset: the sort value and id of the last document of the previous page. */
export interface After {
  value: string | number | boolean | null;
  id: string;
}

export interface FindQuery {
  /** Conditions combined with AND. */
  where?: readonly Condition[];
  /** Ties are broken by `id` in the same direction. Default: `id` ascending. */
  sort?: SortSpec;
  after?: After;
  limit: number;
}

export interface FindResult<T extends Doc> {
  items: T[];
  hasMore: boolean;
}

/**
 * A change produced by a projection for the event at `position`. A write applies only when the
 * stored document's position is lower, so replaying events that were already applied changes nothing.
 * A delete leaves a tombstone with its position for the same reason; tombstones are never returned.
 *
 * `add_keys` adds keys to a key set: a collection of bare keys, no documents (a dedupe index).
 * Adding a key twice changes nothing but its time, so it needs no position. A key added `at` a
 * time (a whole number in the caller's unit, such as hours of the log) keeps the latest time it
 * was added at; one added without is kept for good. `refs`, when given, holds a string (or null) for
 * each key (the caller's note of where it came from, such as the position of the event that added it): a key
 * keeps the ref it was last added with, at the latest time (an addition at a later time without
 * refs clears it). `forget_keys` lets the store drop keys added before `before`: a reader
 * that asks only for keys added at or after a time never earlier than `before` gets the same answers
 * whether they were dropped or not. A commit applies its key writes after its document writes:
 * where a commit is not atomic (MongoDB), a key is never there without the documents written
 * beside it.
 */
export type Write =
  | { op: 'upsert'; collection: string; doc: Doc; position: bigint }
  | { op: 'delete'; collection: string; id: string; position: bigint }
  | { op: 'add_keys'; collection: string; keys: readonly string[]; at?: number; refs?: readonly (string | null)[] }
  | { op: 'forget_keys'; collection: string; before: number };

/** Keys added without a time: never forgotten. */
export const FOREVER = Number.MAX_SAFE_INTEGER;

export interface Checkpoint {
  name: string;
  position: bigint;
}

export interface IndexSpec {
  /** Fields of a compound index, in order; `id` is appended by the adapter for keyset pagination. */
  fields: readonly string[];
}

export interface ReadStore {
  /** Creates a collection's indexes if missing; idempotent. */
  ensureCollection(collection: string, indexes: readonly IndexSpec[]): Promise<void>;
  /** Creates a key set if missing; idempotent. A name is a collection of documents or a key set, never both. */
  ensureKeySet(name: string): Promise<void>;
  /** Which of these keys the key set holds, added at or after `notBefore` (at any time without it). */
  hasKeys(name: string, keys: readonly string[], notBefore?: number): Promise<Set<string>>;
  /**
   * Which of these keys the key set holds (added at or after `notBefore`), each with the ref it was
   * last added with (null for none). It reads only what is stored, so a connection that never
   * writes to the set (the API, beside the worker that does) may ask it at any time.
   */
  keyRefs(name: string, keys: readonly string[], notBefore?: number): Promise<Map<string, string | null>>;
  get<T extends Doc>(collection: string, id: string): Promise<T | undefined>;
  /** The documents of those ids that exist, by id, in one round trip (tombstones and missing ids are absent). */
  getMany<T extends Doc>(collection: string, ids: readonly string[]): Promise<Map<string, T>>;
  find<T extends Doc>(collection: string, query: FindQuery): Promise<FindResult<T>>;
  /**
   * Applies the writes in order, then sets the checkpoint if one is given. On SQLite all of it
   * commits in one transaction; on MongoDB the writes are position-guarded and idempotent and the
   * checkpoint is written after them, so a crash in between replays writes that change nothing.
   */
  commit(writes: readonly Write[], checkpoint?: Checkpoint): Promise<void>;
  /**
   * The checkpoint as committed. A commit a crash interrupted is left for its runner to finish (see
   * recoverCheckpoint), so any reader may ask at any time without racing the runner's own commits.
   */
  getCheckpoint(name: string): Promise<bigint | undefined>;
  /** For the checkpoint's own runner as it (re)starts: finishes a commit of its that a crash interrupted, then reads the checkpoint. */
  recoverCheckpoint(name: string): Promise<bigint | undefined>;
  /** Removes every document of the collections (every key of those that are key sets) and the named checkpoints (for a rebuild). */
  reset(collections: readonly string[], checkpoints: readonly string[]): Promise<void>;
  /** Every document of a collection in id order, tombstones excluded (for comparisons and exports). */
  all<T extends Doc>(collection: string): Promise<T[]>;
  close(): Promise<void>;
}
