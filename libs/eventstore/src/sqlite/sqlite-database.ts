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
export function openSqliteDatabase(file: string): SqliteDatabase {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  // Checkpoint the WAL every ~40 MB rather than every ~4 MB: projection batches rewrite the same
  // pages again and again, and each checkpoint copies them into the database file once more.
  db.pragma('wal_autocheckpoint = 10000');
  return db;
}
