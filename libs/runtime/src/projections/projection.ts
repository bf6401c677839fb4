import type { RecordedEvent } from '@tally/eventstore';
import type { Doc, IndexSpec } from '@tally/readstore';

/** Reads and writes a projection makes while handling one event; the runner commits them with the checkpoint. */
export interface ProjectionWriter {
  get<T extends Doc>(collection: string, id: string): Promise<T | undefined>;
  upsert(collection: string, doc: Doc): void;
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
  /** `directory` projections write the global key directory instead of their cell's read store. */
  target?: 'cell' | 'directory';
  handle(event: RecordedEvent, writer: ProjectionWriter): Promise<void>;
}
