import Database from 'better-sqlite3';
import { SqliteReadStore } from './sqlite-read-store';

describe('SqliteReadStore in a shared database', () => {
  let db: Database.Database;

  beforeEach(() => {
    db = new Database(':memory:');
    db.exec("CREATE TABLE es_events (position INTEGER PRIMARY KEY, data TEXT); INSERT INTO es_events VALUES (1, 'e1');");
  });

  afterEach(() => db.close());

  it('keeps to its rm_ tables and leaves the event store and the database alone', async () => {
    const store = new SqliteReadStore(db);
    await store.ensureCollection('customers', [{ fields: ['email'] }]);
    await store.commit([{ op: 'upsert', collection: 'customers', doc: { id: 'cus_1' }, position: 1n }], { name: 'customers', position: 1n });
    await store.reset(['customers'], ['customers']);
    await store.close();

    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all();
    expect(tables).toEqual(['es_events', 'rm_checkpoints', 'rm_customers']);
    expect(db.prepare('SELECT data FROM es_events').pluck().all()).toEqual(['e1']);
    expect(db.open).toBe(true);
  });

  it('commits its writes inside an enclosing transaction, and rolls back with it', async () => {
    const store = new SqliteReadStore(db);
    const appendAndProject = db.transaction(() => {
      db.prepare("INSERT INTO es_events VALUES (2, 'e2')").run();
      void store.commit([{ op: 'upsert', collection: 'customers', doc: { id: 'cus_1' }, position: 2n }], { name: 'customers', position: 2n });
      throw new Error('append failed');
    });

    expect(() => appendAndProject()).toThrow('append failed');
    expect(await store.all('customers')).toEqual([]);
    expect(await store.getCheckpoint('customers')).toBeUndefined();
    expect(db.prepare('SELECT count(*) FROM es_events').pluck().get()).toBe(1);
  });
});
