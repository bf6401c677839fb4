import { resolve } from 'node:path';
import type { SqliteDatabase } from './sqlite-database';

/** Called with the stream an append wrote to. */
type Listener = (stream: string) => void;

/**
 * Wakes the subscriptions of one SQLite file when this process appends to it, so live events
 * arrive without a polling delay. Connections to the same file share one notifier; appends by
 * other processes are not seen here (subscriptions poll slowly for those).
 */
export class AppendNotifier {
  private static readonly byFile = new Map<string, AppendNotifier>();
  private static readonly byMemoryDatabase = new WeakMap<SqliteDatabase, AppendNotifier>();

  private readonly listeners = new Set<Listener>();

  static for(db: SqliteDatabase): AppendNotifier {
    if (db.memory) return AppendNotifier.getOrCreate(AppendNotifier.byMemoryDatabase, db);
    return AppendNotifier.getOrCreate(AppendNotifier.byFile, resolve(db.name));
  }

  private static getOrCreate<K>(registry: { get(key: K): AppendNotifier | undefined; set(key: K, value: AppendNotifier): unknown }, key: K): AppendNotifier {
    let notifier = registry.get(key);
    if (!notifier) {
      notifier = new AppendNotifier();
      registry.set(key, notifier);
    }
    return notifier;
  }

  /** Returns the function that removes the listener. */
  listen(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  notify(stream: string): void {
    for (const listener of this.listeners) listener(stream);
  }
}
