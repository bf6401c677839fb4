import type { RecordedEvent } from '@tally/eventstore';
import { FOREVER, type Doc, type ReadStore, type Write } from '@tally/readstore';
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
  /** Keys added, by key set, each with the latest time it was added at (FOREVER: for good) and the ref it was added with then. */
  private readonly pendingKeys = new Map<string, Map<string, { at: number; ref: string | null }>>();
  private pendingKeyCount = 0;
  /** By key set: before when keys may be dropped. */
  private readonly pendingForgets = new Map<string, number>();
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
      hasKeys: async (keySet: string, keys: readonly string[], notBefore?: number) => {
        const added = this.pendingKeys.get(keySet);
        const held = new Set<string>();
        const unwritten: string[] = [];
        for (const candidate of keys) {
          const at = added?.get(candidate)?.at;
          if (at !== undefined && (notBefore === undefined || at >= notBefore)) held.add(candidate);
          else unwritten.push(candidate);
        }
        for (const stored of await this.store.hasKeys(keySet, unwritten, notBefore)) held.add(stored);
        return held;
      },
      addKey: (keySet, added, at = FOREVER, ref) => {
        const keys = this.pendingKeys.get(keySet) ?? new Map<string, { at: number; ref: string | null }>();
        this.pendingKeys.set(keySet, keys);
        const before = keys.get(added);
        this.pendingKeyCount += before === undefined ? 1 : 0;
        if (before === undefined || at > before.at) keys.set(added, { at, ref: ref ?? null });
      },
      forgetKeys: (keySet, before) => {
        this.pendingForgets.set(keySet, Math.max(this.pendingForgets.get(keySet) ?? before, before));
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
    await this.store.commit([...this.pending.values(), ...this.keyWrites()], { name: checkpointName, position: handledUpTo });
    if (this.keepCommitted > 0) this.keep();
    this.pending.clear();
    this.pendingKeys.clear();
    this.pendingKeyCount = 0;
    this.pendingForgets.clear();
    this.lastPosition = undefined;
    return handledUpTo;
  }

  /** The keys added, one write per key set and time (with their refs, when any has one), then what may be forgotten. */
  private keyWrites(): Write[] {
    const writes: Write[] = [];
    for (const [collection, added] of this.pendingKeys) {
      const byTime = new Map<number, { keys: string[]; refs: (string | null)[] }>();
      for (const [key, { at, ref }] of added) {
        let group = byTime.get(at);
        if (!group) byTime.set(at, (group = { keys: [], refs: [] }));
        group.keys.push(key);
        group.refs.push(ref);
      }
      for (const [at, { keys, refs }] of byTime) {
        writes.push({ op: 'add_keys', collection, keys, ...(at !== FOREVER && { at }), ...(refs.some((ref) => ref !== null) && { refs }) });
      }
    }
    for (const [collection, before] of this.pendingForgets) writes.push({ op: 'forget_keys', collection, before });
    return writes;
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
