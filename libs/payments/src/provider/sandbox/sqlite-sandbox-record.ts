import type { OnModuleDestroy } from '@nestjs/common';
import type { Statement } from 'better-sqlite3';
import { openSqliteDatabase, type SqliteDatabase } from '@tally/eventstore';
import type { SandboxRecord } from './sandbox-record';

/**
 * The sandbox provider's record in a SQLite file of its own, as a real provider keeps its records
 * apart from ours: it outlives a killed process, and the API and the worker thread (two provider
 * instances on one data folder) share it, so an idempotency key answered by one is answered alike
 * by the other and nothing is charged twice.
 */
/** Where the sandbox provider's record lives in a data folder. */
export const SANDBOX_RECORD_FILE = 'sandbox-provider.sqlite';

export class SqliteSandboxRecord implements SandboxRecord, OnModuleDestroy {
  private readonly db: SqliteDatabase;
  /** Prepared once: a charge looks up and writes its keys several times. */
  private readonly select: Statement<[string], string>;
  private readonly upsert: Statement<[string, string]>;

  constructor(file: string) {
    this.db = openSqliteDatabase(file);
    this.db.exec('CREATE TABLE IF NOT EXISTS sandbox_record (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT');
    this.select = this.db.prepare<[string], string>('SELECT value FROM sandbox_record WHERE key = ?').pluck();
    this.upsert = this.db.prepare<[string, string]>('INSERT INTO sandbox_record (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value');
  }

  async get(key: string): Promise<unknown | undefined> {
    const row = this.select.get(key);
    return row === undefined ? undefined : JSON.parse(row);
  }

  async put(key: string, value: unknown): Promise<void> {
    this.upsert.run(key, JSON.stringify(value));
  }

  /** Ordered by rowid: an upsert keeps a key's row, so this is the order keys were first put. */
  async list(prefix: string): Promise<unknown[]> {
    const rows = this.db.prepare('SELECT value FROM sandbox_record WHERE substr(key, 1, ?) = ? ORDER BY rowid').pluck().all(prefix.length, prefix) as string[];
    return rows.map((row) => JSON.parse(row));
  }

  /**
   * One IMMEDIATE transaction around `work`: another connection's operation waits for it (busy
   * timeout), so its look-up of an idempotency key sees this one's answer. The provider runs one
   * operation at a time on its connection, so nothing else of this connection lands inside. The
   * wait blocks the waiting thread, so there is one connection per thread (one provider per app):
   * a second connection in the same thread would wait for a transaction that cannot go on.
   */
  async exclusively<T>(work: () => Promise<T>): Promise<T> {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = await work();
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
  }

  onModuleDestroy(): void {
    this.db.close();
  }
}
