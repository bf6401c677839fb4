import { randomUUID } from 'node:crypto';
import type { Database, Statement, Transaction } from 'better-sqlite3';
import type { ClaimOutcome, IdempotencyClaim, IdempotencyStore, StoredResponse } from './idempotency-store.port';
import { classifyRecord, isVacant, PURGE_BATCH } from './idempotency-record';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS idempotency_keys (
    scope        TEXT NOT NULL,
    key          TEXT NOT NULL,
    fingerprint  TEXT NOT NULL,
    token        TEXT NOT NULL,
    response     TEXT NULL,
    locked_until TEXT NOT NULL,
    expires_at   TEXT NOT NULL,
    PRIMARY KEY (scope, key)
  );
  CREATE INDEX IF NOT EXISTS idempotency_keys_expires_at ON idempotency_keys (expires_at);
`;

interface KeyRow {
  fingerprint: string;
  token: string;
  response: string | null;
  locked_until: string;
  expires_at: string;
}

/**
 * Idempotency records in the region's SQLite file (table `idempotency_keys`); times are ISO 8601
 * text, which sorts in time order. A claim reads and writes in one immediate transaction, so it is
 * atomic also against another process on the same file.
 */
export class SqliteIdempotencyStore implements IdempotencyStore {
  private readonly select: Statement<[string, string], KeyRow>;
  private readonly upsert: Statement<[string, string, string, string, string, string]>;
  private readonly purge: Statement<[string, number]>;
  private readonly store: Statement<[string, string, string, string]>;
  private readonly remove: Statement<[string, string, string]>;
  private readonly claimInTransaction: Transaction<(claim: IdempotencyClaim) => ClaimOutcome>;

  constructor(db: Database) {
    db.exec(SCHEMA);
    this.select = db.prepare('SELECT fingerprint, token, response, locked_until, expires_at FROM idempotency_keys WHERE scope = ? AND key = ?');
    this.upsert = db.prepare(`
      INSERT INTO idempotency_keys (scope, key, fingerprint, token, response, locked_until, expires_at) VALUES (?, ?, ?, ?, NULL, ?, ?)
      ON CONFLICT (scope, key) DO UPDATE SET fingerprint = excluded.fingerprint, token = excluded.token, response = NULL,
        locked_until = excluded.locked_until, expires_at = excluded.expires_at
    `);
    this.purge = db.prepare('DELETE FROM idempotency_keys WHERE rowid IN (SELECT rowid FROM idempotency_keys WHERE expires_at <= ? LIMIT ?)');
    this.store = db.prepare('UPDATE idempotency_keys SET response = ? WHERE scope = ? AND key = ? AND token = ?');
    this.remove = db.prepare('DELETE FROM idempotency_keys WHERE scope = ? AND key = ? AND token = ?');
    this.claimInTransaction = db.transaction((claim: IdempotencyClaim) => {
      const row = this.select.get(claim.scope, claim.key);
      if (row && !isVacant({ completed: row.response !== null, lockedUntil: new Date(row.locked_until), expiresAt: new Date(row.expires_at) }, claim.now)) {
        return classifyRecord(row.fingerprint, row.response === null ? undefined : (JSON.parse(row.response) as StoredResponse), claim.fingerprint);
      }
      const token = randomUUID();
      this.upsert.run(claim.scope, claim.key, claim.fingerprint, token, claim.lockedUntil.toISOString(), claim.expiresAt.toISOString());
      this.purge.run(claim.now.toISOString(), PURGE_BATCH);
      return { outcome: 'new', token };
    });
  }

  async claim(claim: IdempotencyClaim): Promise<ClaimOutcome> {
    return this.claimInTransaction.immediate(claim);
  }

  async complete(scope: string, key: string, token: string, response: StoredResponse): Promise<void> {
    this.store.run(JSON.stringify(response), scope, key, token);
  }

  async release(scope: string, key: string, token: string): Promise<void> {
    this.remove.run(scope, key, token);
  }
}
