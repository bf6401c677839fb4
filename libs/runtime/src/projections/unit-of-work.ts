import type { RecordedEvent } from '@tally/eventstore';
import type { Doc, ReadStore, Write } from '@tally/readstore';
import type { ProjectionWriter } from './projection';

/**
 * Collects a batch of projection writes in memory: reads see the batch's own writes first, and
 * only the last write of each document is committed, together with the checkpoint.
 *
 * With `keepCommitted`, up to that many committed documents of the collections the projection
 * reads stay in memory (the least recently written leave first) and answer later reads in place
 * of the store. Only for a unit that is the sole writer of those documents, as a catch-up is.
 */
export class UnitOfWork {
  private readonly pending = new Map<string, Write>();
  private readonly committed = new Map<string, Write>();
  private readonly readCollections = new Set<string>();
  private lastPosition: bigint | undefined;

  constructor(
    private readonly store: ReadStore,
    private readonly keepCommitted = 0,
  ) {}

  get size(): number {
    return this.pending.size;
  }

  writerFor(event: RecordedEvent): ProjectionWriter {
    this.lastPosition = event.position;
    const position = event.position;
    return {
      get: async <T extends Doc>(collection: string, id: string) => {
        this.readCollections.add(collection);
        const write = this.pending.get(key(collection, id)) ?? this.committed.get(key(collection, id));
        if (write) return write.op === 'upsert' ? (write.doc as T) : undefined;
        return this.store.get<T>(collection, id);
      },
      upsert: (collection, doc) => {
        this.pending.set(key(collection, doc.id), { op: 'upsert', collection, doc, position });
      },
      delete: (collection, id) => {
        this.pending.set(key(collection, id), { op: 'delete', collection, id, position });
      },
    };
  }

  /** Commits the writes and moves the checkpoint to the last event handled; returns that position. */
  async commit(checkpointName: string, handledUpTo: bigint | undefined = this.lastPosition): Promise<bigint | undefined> {
    if (handledUpTo === undefined) return undefined;
    await this.store.commit([...this.pending.values()], { name: checkpointName, position: handledUpTo });
    if (this.keepCommitted > 0) this.keep();
    this.pending.clear();
    this.lastPosition = undefined;
    return handledUpTo;
  }

  private keep(): void {
    for (const [written, write] of this.pending) {
      if (!this.readCollections.has(write.collection)) continue;
      this.committed.delete(written);
      this.committed.set(written, write);
    }
    for (const oldest of this.committed.keys()) {
      if (this.committed.size <= this.keepCommitted) break;
      this.committed.delete(oldest);
    }
  }
}

const key = (collection: string, id: string) => `${collection}\u0000${id}`;
