import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { SealedIdempotencyStore } from './sealed-idempotency-store';
import { SqliteIdempotencyStore } from './sqlite-idempotency-store';
import { describeIdempotencyStoreContract } from './testing/idempotency-store.contract';

function openStore(seal: boolean) {
  const db = new Database(':memory:');
  const store = new SqliteIdempotencyStore(db);
  return {
    store: seal ? new SealedIdempotencyStore(store, randomBytes(32)) : store,
    records: async () => (db.prepare('SELECT COUNT(*) AS n FROM idempotency_keys').get() as { n: number }).n,
    cleanup: async () => {
      db.close();
    },
  };
}

describeIdempotencyStoreContract('SqliteIdempotencyStore', async () => openStore(false));
describeIdempotencyStoreContract('SealedIdempotencyStore over SqliteIdempotencyStore', async () => openStore(true));
