import type { Checkpoint, Doc, FindQuery, FindResult, IndexSpec, ReadStore, Write } from '@tally/readstore';
import type { LeaseFence } from './lease-fence';

/**
 * A read store whose commits (a projection's writes, a checkpoint) go through only while the lease
 * is held. On SQLite the check and the commit run in one turn of the event loop, so a holder past
 * its deadline writes nothing; on MongoDB a commit already on the wire may still land.
 */
export class FencedReadStore implements ReadStore {
  constructor(
    private readonly store: ReadStore,
    private readonly fence: LeaseFence,
  ) {}

  commit(writes: readonly Write[], checkpoint?: Checkpoint): Promise<void> {
    this.fence.assertHeld();
    return this.store.commit(writes, checkpoint);
  }

  reset(collections: readonly string[], checkpoints: readonly string[]): Promise<void> {
    this.fence.assertHeld();
    return this.store.reset(collections, checkpoints);
  }

  ensureCollection(collection: string, indexes: readonly IndexSpec[]): Promise<void> {
    return this.store.ensureCollection(collection, indexes);
  }

  ensureKeySet(name: string): Promise<void> {
    return this.store.ensureKeySet(name);
  }

  hasKeys(name: string, keys: readonly string[], notBefore?: number): Promise<Set<string>> {
    return this.store.hasKeys(name, keys, notBefore);
  }

  keyRefs(name: string, keys: readonly string[], notBefore?: number): Promise<Map<string, string | null>> {
    return this.store.keyRefs(name, keys, notBefore);
  }

  get<T extends Doc>(collection: string, id: string): Promise<T | undefined> {
    return this.store.get<T>(collection, id);
  }

  getMany<T extends Doc>(collection: string, ids: readonly string[]): Promise<Map<string, T>> {
    return this.store.getMany<T>(collection, ids);
  }

  find<T extends Doc>(collection: string, query: FindQuery): Promise<FindResult<T>> {
    return this.store.find<T>(collection, query);
  }

  getCheckpoint(name: string): Promise<bigint | undefined> {
    return this.store.getCheckpoint(name);
  }

  recoverCheckpoint(name: string): Promise<bigint | undefined> {
    return this.store.recoverCheckpoint(name);
  }

  all<T extends Doc>(collection: string): Promise<T[]> {
    return this.store.all<T>(collection);
  }

  close(): Promise<void> {
    return this.store.close();
  }
}
