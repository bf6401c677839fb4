import type { Statement } from 'better-sqlite3';
import type { SqliteDatabase } from './sqlite-database';

/**
 * Streams whose end is remembered per connection; past it, the one remembered longest ago is
 * forgotten (a forgotten end costs one query). Forgetting all at once made a run over more streams
 * than this (a billing run of 10,000 subscriptions touches five streams each) query again, at every
 * crossing, the tails of the streams it was in the middle of.
 */
export const REMEMBERED_STREAMS = 10_000;

/**
 * Where the streams a connection lately read to their end, or appended to, end: a read from a
 * revision the stream does not reach then needs no query (the command runtime reads the tail of
 * each stream it keeps folded, and usually finds nothing). What is remembered holds only while no
 * other connection has committed to the file: `PRAGMA data_version` changes exactly when another
 * connection (of this process or another) commits, and then everything is forgotten. The
 * connection's own commits to `es_events` all go through SqliteEventStore.append, which tells
 * this. The version is looked at once per turn of the event loop: a read then answers the log as
 * it was when the turn began, as if it had run a moment earlier (a command deciding on it is still
 * checked by its append's expected revision). Shared by the event stores of one connection.
 */
export class StreamEnds {
  private static readonly byConnection = new WeakMap<SqliteDatabase, StreamEnds>();

  /** Stream → a revision from which it has no event (its last revision + 1, or less is never stored). */
  private readonly ends = new Map<string, number>();
  private readonly dataVersion: Statement<[], number>;
  private version: number;
  private lookedThisTurn = false;

  private constructor(db: SqliteDatabase) {
    this.dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
    this.version = this.dataVersion.get()!;
  }

  static for(db: SqliteDatabase): StreamEnds {
    let ends = StreamEnds.byConnection.get(db);
    if (!ends) {
      ends = new StreamEnds(db);
      StreamEnds.byConnection.set(db, ends);
    }
    return ends;
  }

  /** Whether the stream is known to have no event at `revision` or after. */
  hasNoneFrom(stream: string, revision: number): boolean {
    this.forgetIfOthersCommitted();
    const end = this.ends.get(stream);
    return end !== undefined && end <= revision;
  }

  /**
   * The stream has no event at `end` or after: it was just read to its end, or appended to. (The
   * version is not looked at here: a commit by another connection since the last look, even one
   * before this read, makes the next look forget this too.)
   */
  remember(stream: string, end: number): void {
    // Remembered again, a stream becomes the newest: a Map keeps the order in which keys were set.
    this.ends.delete(stream);
    this.ends.set(stream, end);
    if (this.ends.size > REMEMBERED_STREAMS) this.ends.delete(this.ends.keys().next().value!);
  }

  private forgetIfOthersCommitted(): void {
    if (this.lookedThisTurn) return;
    this.lookedThisTurn = true;
    setImmediate(() => (this.lookedThisTurn = false));
    const version = this.dataVersion.get()!;
    if (version === this.version) return;
    this.version = version;
    this.ends.clear();
  }
}
