import type { Database, Statement } from 'better-sqlite3';
import type { Clock } from '@tally/kernel/clock';
import { DataKeyDestroyedError } from './data-key-destroyed.error';
import type { DataKeyStore } from './data-key-store.port';
import { assertMasterKey, newDataKey, unwrapKey, wrapKey } from './key-wrapping';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS pii_data_keys (
    subject_id   TEXT PRIMARY KEY,
    wrapped_key  BLOB NULL,
    destroyed_at TEXT NULL
  );
`;

interface KeyRow {
  wrapped_key: Buffer | null;
  destroyed_at: string | null;
}

/**
 * Data keys in the region's SQLite file. A destroyed key leaves a tombstone row (no key, the time
 * of destruction), which is what stops it from ever being created again.
 */
export class SqliteDataKeyStore implements DataKeyStore {
  private readonly select: Statement<[string], KeyRow>;
  private readonly insertIfAbsent: Statement<[string, Buffer]>;
  private readonly tombstone: Statement<[string, string]>;

  constructor(
    db: Database,
    private readonly masterKey: Buffer,
    private readonly clock: Clock,
  ) {
    assertMasterKey(masterKey);
    db.exec(SCHEMA);
    this.select = db.prepare('SELECT wrapped_key, destroyed_at FROM pii_data_keys WHERE subject_id = ?');
    this.insertIfAbsent = db.prepare(
      'INSERT INTO pii_data_keys (subject_id, wrapped_key) VALUES (?, ?) ON CONFLICT (subject_id) DO NOTHING',
    );
    this.tombstone = db.prepare(`
      INSERT INTO pii_data_keys (subject_id, wrapped_key, destroyed_at) VALUES (?, NULL, ?)
      ON CONFLICT (subject_id) DO UPDATE SET wrapped_key = NULL, destroyed_at = COALESCE(destroyed_at, excluded.destroyed_at)
    `);
  }

  async getOrCreate(subjectId: string): Promise<Buffer> {
    // Reading first costs a couple of microseconds and spares an existing key the write lock,
    // which another process (the worker's projections) may hold. A key this call inserted is
    // returned as created, with no read-back and no unwrap; when the insert changed nothing,
    // another writer won the race and its row is the answer.
    let row = this.select.get(subjectId);
    if (!row) {
      const created = newDataKey();
      if (this.insertIfAbsent.run(subjectId, wrapKey(this.masterKey, subjectId, created)).changes === 1) return created;
      row = this.select.get(subjectId);
    }
    if (!row?.wrapped_key) throw new DataKeyDestroyedError(subjectId);
    return unwrapKey(this.masterKey, subjectId, row.wrapped_key);
  }

  async get(subjectId: string): Promise<Buffer | undefined> {
    const row = this.select.get(subjectId);
    return row?.wrapped_key ? unwrapKey(this.masterKey, subjectId, row.wrapped_key) : undefined;
  }

  async destroy(subjectId: string): Promise<void> {
    this.tombstone.run(subjectId, this.clock.now().toISOString());
  }
}
