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
    // which another connection (the worker's projections) may hold. A key this call inserted is
    // returned as created, with no read-back and no unwrap; when the insert changed nothing,
    // another writer won the race and its row is the answer.
    const stored = this.stored(subjectId);
    if (stored !== undefined) return this.usable(subjectId, stored);
    const created = newDataKey();
    return this.insertNew(subjectId, created) ? created : this.usable(subjectId, this.stored(subjectId));
  }

  async get(subjectId: string): Promise<Buffer | undefined> {
    return this.stored(subjectId) ?? undefined;
  }

  /** The subject's key; null once destroyed, undefined when never created. */
  stored(subjectId: string): Buffer | null | undefined {
    const row = this.select.get(subjectId);
    if (!row) return undefined;
    return row.wrapped_key ? unwrapKey(this.masterKey, subjectId, row.wrapped_key) : null;
  }

  /**
   * Stores a key created by the caller unless the subject has a row already (a key or a tombstone),
   * and says whether it did. Synchronous, so it can run inside the caller's transaction.
   */
  insertNew(subjectId: string, key: Buffer): boolean {
    return this.insertIfAbsent.run(subjectId, wrapKey(this.masterKey, subjectId, key)).changes === 1;
  }

  async destroy(subjectId: string): Promise<void> {
    this.tombstone.run(subjectId, this.clock.now().toISOString());
  }

  private usable(subjectId: string, stored: Buffer | null | undefined): Buffer {
    if (!stored) throw new DataKeyDestroyedError(subjectId);
    return stored;
  }
}
