import type { RecordedEvent } from '@tally/eventstore';
import type { Doc, ReadStore, Write } from '@tally/readstore';
import type { ProjectionWriter } from './projection';

/**
 * Collects a batch of projection writes in memory: reads see the batch's own writes first, and
 * only the last write of each document is committed, together with the keys added to key sets
 * and the checkpoint.
 *
 * With `keepCommitted`, up to that many committed documents of the collections the projection
 * reads stay in memory (the least recently written leave first) and answer later reads in place
 * of the store. Only for a unit that is the sole writer of those documents, as a catch-up is.
 */
export class UnitOfWork {
  private readonly pending = new Map<string, Write>();
  /** Keys added, by key set. */
  private readonly pendingKeys = new Map<string, Set<string>>();
  private pendingKeyCount = 0;
  private readonly committed = new Map<string, Write>();
  private readonly readCollections = new Set<string>();
  private lastPosition: bigint | undefined;

  constructor(
    private readonly store: ReadStore,
    private readonly keepCommitted = 0,
  ) {}

  get size(): number {
    return this.pending.size + this.pendingKeyCount;
  }

  writerFor(event: RecordedEvent): ProjectionWriter {
    this.lastPosition = event.position;
    const position = event.position;
    return {
      get: async <T extends Doc>(collection: string, id: string) => {
        this.readCollections.add(collection);
        const write = this.written(collection, id);
        if (write) return write.op === 'upsert' ? (write.doc as T) : undefined;
        return this.store.get<T>(collection, id);
      },
      getMany: async <T extends Doc>(collection: string, ids: readonly string[]) => {
        this.readCollections.add(collection);
        const found = new Map<string, T>();
        const unwritten: string[] = [];
        for (const id of ids) {
          const write = this.written(collection, id);
          if (!write) unwritten.push(id);
          else if (write.op === 'upsert') found.set(id, write.doc as T);
        }
        for (const [id, doc] of await this.store.getMany<T>(collection, unwritten)) found.set(id, doc);
        return found;
      },
      hasKeys: async (keySet: string, keys: readonly string[]) => {
        const added = this.pendingKeys.get(keySet);
        const held = new Set<string>();
        const unwritten: string[] = [];
        for (const candidate of keys) {
          if (added?.has(candidate)) held.add(candidate);
          else unwritten.push(candidate);
        }
        for (const stored of await this.store.hasKeys(keySet, unwritten)) held.add(stored);
        return held;
      },
      addKey: (keySet, added) => {
        const keys = this.pendingKeys.get(keySet) ?? new Set<string>();
        this.pendingKeys.set(keySet, keys);
        this.pendingKeyCount += keys.has(added) ? 0 : 1;
        keys.add(added);
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
    const keys = [...this.pendingKeys].map(([collection, added]): Write => ({ op: 'add_keys', collection, keys: [...added] }));
    await this.store.commit([...this.pending.values(), ...keys], { name: checkpointName, position: handledUpTo });
    if (this.keepCommitted > 0) this.keep();
    this.pending.clear();
    this.pendingKeys.clear();
    this.pendingKeyCount = 0;
    this.lastPosition = undefined;
    return handledUpTo;
  }

  private written(collection: string, id: string): Write | undefined {
    return this.pending.get(key(collection, id)) ?? this.committed.get(key(collection, id));
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
