import { randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { ManualClock } from '@tally/kernel/clock';
import { SqliteDataKeyStore } from './sqlite-data-key-store';
import { describeDataKeyStoreContract } from './testing/data-key-store.contract';

interface KeyRow {
  subject_id: string;
  wrapped_key: Buffer | null;
  destroyed_at: string | null;
}

describeDataKeyStoreContract('SqliteDataKeyStore', async () => {
  const db = new Database(':memory:');
  const clock = new ManualClock();
  const masterKey = randomBytes(32);
  return {
    store: new SqliteDataKeyStore(db, masterKey, clock),
    reopen: (key) => new SqliteDataKeyStore(db, key, clock),
    masterKey,
    cleanup: async () => {
      db.close();
    },
  };
});

describe('SqliteDataKeyStore rows', () => {
  const masterKey = randomBytes(32);
  let db: Database.Database;
  let clock: ManualClock;
  let store: SqliteDataKeyStore;

  const row = (subjectId: string) =>
    db.prepare('SELECT * FROM pii_data_keys WHERE subject_id = ?').get(subjectId) as KeyRow | undefined;

  beforeEach(() => {
    db = new Database(':memory:');
    clock = new ManualClock('2026-03-01T10:00:00.000Z');
    store = new SqliteDataKeyStore(db, masterKey, clock);
  });

  afterEach(() => db.close());

  it('stores the key wrapped, never in the clear', async () => {
    const key = await store.getOrCreate('cus_1');
    const stored = row('cus_1')!.wrapped_key!;
    expect(stored.includes(key)).toBe(false);
    expect(stored.length).toBeGreaterThan(key.length);
  });

  it('records when a key was destroyed and keeps the first time', async () => {
    await store.getOrCreate('cus_1');
    await store.destroy('cus_1');
    clock.advance(60_000);
    await store.destroy('cus_1');
    expect(row('cus_1')).toEqual({ subject_id: 'cus_1', wrapped_key: null, destroyed_at: '2026-03-01T10:00:00.000Z' });
  });

  it('refuses a wrapped key copied onto another subject', async () => {
    await store.getOrCreate('cus_1');
    await store.getOrCreate('cus_2');
    db.prepare('UPDATE pii_data_keys SET wrapped_key = ? WHERE subject_id = ?').run(row('cus_1')!.wrapped_key, 'cus_2');
    await expect(store.get('cus_2')).rejects.toThrow();
  });

  it('shares the database with other tables', async () => {
    db.exec('CREATE TABLE es_events (id INTEGER PRIMARY KEY)');
    const again = new SqliteDataKeyStore(db, masterKey, clock);
    await expect(again.getOrCreate('cus_1')).resolves.toHaveLength(32);
  });

  it('requires a 32-byte master key', () => {
    expect(() => new SqliteDataKeyStore(db, randomBytes(16), clock)).toThrow(/32 bytes/);
  });
});
