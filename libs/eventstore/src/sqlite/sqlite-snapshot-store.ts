import type { Statement } from 'better-sqlite3';
import type { Snapshot, SnapshotStore } from '../event-store.port';
import type { SqliteDatabase } from './sqlite-database';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS es_snapshots (
    stream   TEXT    PRIMARY KEY,
    revision INTEGER NOT NULL,
    version  INTEGER NOT NULL,
    state    TEXT    NOT NULL
  );
`;

interface SnapshotRow {
  revision: number;
  version: number;
  state: string;
}

/**
 * One row per stream: the latest snapshot. A save never replaces a newer snapshot of the same
 * version (a slow writer must not move the shortcut backwards); a save of another version always
 * replaces, since only the current version is ever loaded.
 */
export class SqliteSnapshotStore implements SnapshotStore {
  private readonly select: Statement<[string], SnapshotRow>;
  private readonly upsert: Statement<[string, number, number, string]>;

  constructor(db: SqliteDatabase) {
    db.exec(SCHEMA);
    this.select = db.prepare('SELECT revision, version, state FROM es_snapshots WHERE stream = ?');
    this.upsert = db.prepare(`
      INSERT INTO es_snapshots (stream, revision, version, state) VALUES (?, ?, ?, ?)
      ON CONFLICT (stream) DO UPDATE SET revision = excluded.revision, version = excluded.version, state = excluded.state
      WHERE excluded.version <> es_snapshots.version OR excluded.revision >= es_snapshots.revision
    `);
  }

  async load<State>(stream: string, version: number): Promise<Snapshot<State> | undefined> {
    const row = this.select.get(stream);
    if (!row || row.version !== version) return undefined;
    return { stream, revision: row.revision, version: row.version, state: JSON.parse(row.state) as State };
  }

  async save(snapshot: Snapshot): Promise<void> {
    this.upsert.run(snapshot.stream, snapshot.revision, snapshot.version, JSON.stringify(snapshot.state));
  }
}
