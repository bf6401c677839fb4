import type { RecordedEvent } from '@tally/eventstore';
import type { Doc, IndexSpec } from '@tally/readstore';
import type { Pacing } from '../runners/follow-in-batches';
import type { PublicEventSource } from '../public-events/resource-view';

/** Reads and writes a projection makes while handling one event; the runner commits them with the checkpoint. */
export interface ProjectionWriter {
  get<T extends Doc>(collection: string, id: string): Promise<T | undefined>;
  /** The documents of those ids that exist, by id: for a projection that handles an event of many parts in one go. */
  getMany<T extends Doc>(collection: string, ids: readonly string[]): Promise<Map<string, T>>;
  /** Which of these keys the key set holds (added at or after `notBefore`, when given), the keys this unit added included. */
  hasKeys(keySet: string, keys: readonly string[], notBefore?: number): Promise<Set<string>>;
  upsert(collection: string, doc: Doc): void;
  /** Adds a key, `at` a time (a whole number in the projection's unit) or for good, with a `ref` of the caller's (where it came from), if any. */
  addKey(keySet: string, key: string, at?: number, ref?: string): void;
  /** Lets the store drop keys added before `before`, which no later `hasKeys` asks for. */
  forgetKeys(keySet: string, before: number): void;
  delete(collection: string, id: string): void;
}

export interface CollectionSpec {
  name: string;
  indexes: readonly IndexSpec[];
}

/**
 * A read model built from the global order. `handle` sees each matching event once per
 * checkpoint (personal data decoded) and must be deterministic: a rebuild from the log produces
 * the same documents.
 */
export interface Projection {
  /** Checkpoint name; change it (e.g. `customers.v2`) to rebuild under a new shape. */
  name: string;
  streamPrefixes: readonly string[];
  collections: readonly CollectionSpec[];
  /** Key sets it keeps (see the read store's `add_key`): bare keys, such as a dedupe index. */
  keySets?: readonly string[];
  /**
   * When its writes are committed; by default promptly (a live event within milliseconds). A
   * projection whose every event writes many scattered rows (a dedupe index) commits fewer,
   * larger batches: each commit writes every page it touched once.
   */
  pacing?: Pacing;
  /**
   * How many of the documents it wrote stay in memory between batches to answer its own reads
   * again (the least recently written leave first); none by default. Only for a projection whose
   * reads are mostly of documents it wrote a moment before and that nothing else changes but by
   * deleting what it will not read again (the webhook outbox).
   */
  keepWritten?: number;
  /** `directory` projections write the global key directory instead of their cell's read store. */
  target?: 'cell' | 'directory';
  /** The public events it writes to the log (a resource projection): which events of its streams are public, as which type. */
  publishes?: PublicEventSource;
  /**
   * A resource projection's collection, with one document per stream of the aggregate type, each
   * holding the revision of its stream it reflects (`stream_revision`): a retrieve can tell from the
   * stream whether the document is behind it.
   */
  resource?: { collection: string; aggregateType: string };
  handle(event: RecordedEvent, writer: ProjectionWriter): Promise<void>;
}
