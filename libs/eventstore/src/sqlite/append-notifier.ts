import { resolve } from 'node:path';
import type { SqliteDatabase } from './sqlite-database';

/** Called with the stream an append wrote to. */
type Listener = (stream: string) => void;

/** Called with the file and the stream of every append this thread makes to a file. */
export type AppendTap = (file: string, stream: string) => void;

/**
 * Wakes the subscriptions of one SQLite file when this thread appends to it, so live events
 * arrive without a polling delay. Connections to the same file share one notifier. Appends by
 * other threads arrive through `deliver` when something forwards them (see `tap`); appends by
 * other processes are not seen here (subscriptions poll slowly for those).
 */
export class AppendNotifier {
  private static readonly byFile = new Map<string, AppendNotifier>();
  private static readonly byMemoryDatabase = new WeakMap<SqliteDatabase, AppendNotifier>();
  private static readonly taps = new Set<AppendTap>();

  private readonly listeners = new Set<Listener>();

  /** `file` is undefined for an in-memory database, which no other thread can open. */
  constructor(private readonly file?: string) {}

  static for(db: SqliteDatabase): AppendNotifier {
    if (db.memory) return AppendNotifier.getOrCreate(AppendNotifier.byMemoryDatabase, db, undefined);
    const file = resolve(db.name);
    return AppendNotifier.getOrCreate(AppendNotifier.byFile, file, file);
  }

  /** Sees every append this thread makes to a file, to forward it to another thread. Returns the function that removes the tap. */
  static tap(tap: AppendTap): () => void {
    AppendNotifier.taps.add(tap);
    return () => AppendNotifier.taps.delete(tap);
  }

  /** An append another thread made to `file`: wakes this thread's subscriptions of that file, and is not tapped again. */
  static deliver(file: string, stream: string): void {
    AppendNotifier.byFile.get(resolve(file))?.wake(stream);
  }

  private static getOrCreate<K>(
    registry: { get(key: K): AppendNotifier | undefined; set(key: K, value: AppendNotifier): unknown },
    key: K,
    file: string | undefined,
  ): AppendNotifier {
    let notifier = registry.get(key);
    if (!notifier) {
      notifier = new AppendNotifier(file);
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
    this.wake(stream);
    if (this.file === undefined) return;
    for (const tap of AppendNotifier.taps) tap(this.file, stream);
  }

  private wake(stream: string): void {
    for (const listener of this.listeners) listener(stream);
  }
}
