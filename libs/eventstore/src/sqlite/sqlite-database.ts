import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

export type SqliteDatabase = Database.Database;

/**
 * Opens (and creates) the SQLite file of one region. The event store and the read store of that
 * region share the connection, so their tables carry prefixes (`es_` here).
 *
 * Durability: WAL with `synchronous = NORMAL`. A commit writes its WAL frames to the file before it
 * returns and fsyncs only at checkpoints, so an acknowledged append survives a killed process
 * (SIGKILL, crash: the operating system still holds the written pages) but may be lost on a power
 * failure or kernel crash. That is the guarantee we need ("no acknowledged event lost after a kill
 * of the process"); FULL would add an fsync per commit to survive power loss too.
 */
export function openSqliteDatabase(file: string, checkpoints: WalCheckpoints = 'regularly'): SqliteDatabase {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  db.pragma(`wal_autocheckpoint = ${checkpoints === 'regularly' ? REGULAR_CHECKPOINT_PAGES : BACKSTOP_CHECKPOINT_PAGES}`);
  return db;
}

/**
 * Who copies the WAL back into the database file. SQLite does it in the commit that finds the WAL
 * past a connection's threshold, and that commit waits for the copy (up to ~100 ms for 40 MB).
 * `regularly`: this connection, every ~40 MB rather than SQLite's ~4 MB (projection batches
 * rewrite the same pages again and again, and each checkpoint copies them once more).
 * `as-a-backstop`: another connection to the file that commits often does it regularly (the
 * followers' worker thread, beside the request thread and the services' thread), so that neither
 * of those waits for a checkpoint;
 * this one checkpoints only if the WAL reaches ~400 MB, which takes the other to stop committing.
 */
export type WalCheckpoints = 'regularly' | 'as-a-backstop';

const REGULAR_CHECKPOINT_PAGES = 10_000;
const BACKSTOP_CHECKPOINT_PAGES = 100_000;
