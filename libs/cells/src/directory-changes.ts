import type { Database } from 'better-sqlite3';
import { SqliteReadStore, type Checkpoint, type Write } from '@tally/readstore';

/**
 * Says when the global directory (API keys, tenants) changed, so that whatever caches its entries
 * drops them. Where the directory projection runs in this thread its store reports each commit;
 * a worker thread's commits arrive through `changed()` from the thread's host.
 */
export class DirectoryChanges {
  private readonly listeners = new Set<() => void>();

  /** Returns the function that removes the listener. */
  listen(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  changed(): void {
    for (const listener of this.listeners) listener();
  }
}

/** The embedded profile's directory store: every commit and reset is reported once it is durable. */
export class SignallingSqliteReadStore extends SqliteReadStore {
  constructor(
    db: Database,
    private readonly changes: DirectoryChanges,
  ) {
    super(db);
  }

  override async commit(writes: readonly Write[], checkpoint?: Checkpoint): Promise<void> {
    await super.commit(writes, checkpoint);
    this.changes.changed();
  }

  override async reset(collections: readonly string[], checkpoints: readonly string[]): Promise<void> {
    await super.reset(collections, checkpoints);
    this.changes.changed();
  }
}
