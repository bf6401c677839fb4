import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuplicateEventIdError } from '../event-store.port';
import { describeEventStoreContract } from '../testing/event-store.contract';
import { describeSnapshotStoreContract } from '../testing/snapshot-store.contract';
import { openSqliteDatabase, type SqliteDatabase } from './sqlite-database';
import { SqliteEventStore } from './sqlite-event-store';
import { SqliteSnapshotStore } from './sqlite-snapshot-store';

function tempDatabase(): { db: SqliteDatabase; file: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'tally-es-'));
  const file = join(dir, 'region', 'events.db');
  const db = openSqliteDatabase(file);
  return {
    db,
    file,
    remove() {
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

describeEventStoreContract(
  'SQLite',
  async () => {
    const { db, remove } = tempDatabase();
    return { store: new SqliteEventStore(db), cleanup: async () => remove() };
  },
  { startsEmpty: true, liveDeliveryWithinMs: 100 },
);

describeSnapshotStoreContract('SQLite', async () => {
  const { db, remove } = tempDatabase();
  return { store: new SqliteSnapshotStore(db), cleanup: async () => remove() };
});

describe('SqliteEventStore specifics', () => {
  let temp: ReturnType<typeof tempDatabase>;
  beforeEach(() => (temp = tempDatabase()));
  afterEach(() => temp.remove());

  const metadata = {
    tenant_id: 'ten_1',
    environment: 'sandbox' as const,
    actor: 'test',
    request_id: null,
    causation_id: null,
    correlation_id: null,
    occurred_at: '2026-01-01T00:00:00.000Z',
    schema_version: 1,
  };

  it('opens the file in WAL mode with synchronous NORMAL and a busy timeout', () => {
    expect(temp.db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(temp.db.pragma('synchronous', { simple: true })).toBe(1);
    expect(temp.db.pragma('busy_timeout', { simple: true })).toBe(5000);
  });

  it('a subscription sees rows written by another connection that bypasses this process (fallback poll)', async () => {
    const store = new SqliteEventStore(temp.db);
    const subscription = store.subscribeToAll({});
    const iterator = subscription[Symbol.asyncIterator]();
    const next = iterator.next();
    const other = openSqliteDatabase(temp.file);
    // Raw SQL, as another process would write it: nothing in this process is notified.
    other
      .prepare('INSERT INTO es_events (stream, revision, event_id, type, data, metadata) VALUES (?, 0, ?, ?, ?, ?)')
      .run('order-1', '01JAAAAAAAAAAAAAAAAAAAAAAA', 'Opened', '{"a":1}', JSON.stringify(metadata));
    other.close();

    const result = await next;
    expect(result.done).toBe(false);
    expect(result.value).toMatchObject({ stream: 'order-1', revision: 0, type: 'Opened', data: { a: 1 }, metadata });
    await subscription.close();
  });

  it('appends through a second connection to the same file wake this process\'s subscriptions at once', async () => {
    const store = new SqliteEventStore(temp.db);
    const other = openSqliteDatabase(temp.file);
    const writer = new SqliteEventStore(other);
    const subscription = store.subscribeToAll({});
    const iterator = subscription[Symbol.asyncIterator]();
    const next = iterator.next();
    await new Promise((resolve) => setTimeout(resolve, 20));

    const started = performance.now();
    await writer.append('order-1', [{ id: '01JAAAAAAAAAAAAAAAAAAAAAAB', type: 'Opened', data: {}, metadata }], { expectedRevision: 'no_stream' });
    const result = await next;

    expect(result.value).toMatchObject({ stream: 'order-1', type: 'Opened' });
    expect(performance.now() - started).toBeLessThan(100);
    await subscription.close();
    other.close();
  });

  it('an append made while the consumer handles an event is delivered right after, without waiting for the poll', async () => {
    const store = new SqliteEventStore(temp.db);
    await store.append('order-1', [{ id: '01JAAAAAAAAAAAAAAAAAAAAAAE', type: 'First', data: {}, metadata }], { expectedRevision: 'no_stream' });
    const subscription = store.subscribeToAll({});
    const seen: string[] = [];
    let handledAt = 0;
    let gap = Infinity;

    for await (const event of subscription) {
      seen.push(event.type);
      if (event.type === 'Second') {
        gap = performance.now() - handledAt;
        break;
      }
      await store.append('order-1', [{ id: '01JAAAAAAAAAAAAAAAAAAAAAAF', type: 'Second', data: {}, metadata }], { expectedRevision: 0 });
      handledAt = performance.now();
    }

    expect(seen).toEqual(['First', 'Second']);
    expect(gap).toBeLessThan(100);
  });

  it('a read past the end of a stream sees what other connections and other stores of the connection appended since', async () => {
    const store = new SqliteEventStore(temp.db);
    const event = (id: string) => ({ id, type: 'Opened', data: {}, metadata });
    await store.append('order-1', [event('01JAAAAAAAAAAAAAAAAAAAAAB1')], { expectedRevision: 'no_stream' });
    expect(await store.readStream('order-1', { fromRevision: 1 })).toEqual([]);
    expect(await store.readStream('order-2')).toEqual([]);

    // Another process's connection, through a store and through raw SQL.
    const other = openSqliteDatabase(temp.file);
    await new SqliteEventStore(other).append('order-1', [event('01JAAAAAAAAAAAAAAAAAAAAAB2')], { expectedRevision: 0 });
    expect((await store.readStream('order-1', { fromRevision: 1 })).map((e) => e.revision)).toEqual([1]);
    other
      .prepare('INSERT INTO es_events (stream, revision, event_id, type, data, metadata) VALUES (?, 0, ?, ?, ?, ?)')
      .run('order-2', '01JAAAAAAAAAAAAAAAAAAAAAB3', 'Opened', '{}', JSON.stringify(metadata));
    expect((await store.readStream('order-2')).map((e) => e.revision)).toEqual([0]);
    other.close();

    // A second store on the same connection.
    await new SqliteEventStore(temp.db).append('order-1', [event('01JAAAAAAAAAAAAAAAAAAAAAB4')], { expectedRevision: 1 });
    expect((await store.readStream('order-1', { fromRevision: 2 })).map((e) => e.revision)).toEqual([2]);
    expect(await store.readStream('order-1', { fromRevision: 3 })).toEqual([]);
  });

  it('a failure in the middle of a batch rolls the whole batch back', async () => {
    const store = new SqliteEventStore(temp.db);
    const taken = '01JAAAAAAAAAAAAAAAAAAAAAAC';
    await store.append('order-1', [{ id: taken, type: 'Opened', data: {}, metadata }], { expectedRevision: 'no_stream' });
    const batch = [
      { id: '01JAAAAAAAAAAAAAAAAAAAAAAD', type: 'Fresh', data: {}, metadata },
      { id: taken, type: 'DuplicateId', data: {}, metadata },
    ];

    await expect(store.append('order-2', batch, { expectedRevision: 'no_stream' })).rejects.toBeInstanceOf(DuplicateEventIdError);
    expect(await store.readStream('order-2')).toEqual([]);
    expect((await store.readAll({ limit: 10 })).map((e) => e.type)).toEqual(['Opened']);
  });

  it('appends made in one turn of the event loop commit in one transaction, a failing one in its savepoint alone', async () => {
    const store = new SqliteEventStore(temp.db);
    const taken = '01JAAAAAAAAAAAAAAAAAAAAAAE';
    await store.append('order-1', [{ id: taken, type: 'Opened', data: {}, metadata }], { expectedRevision: 'no_stream' });
    const other = openSqliteDatabase(temp.file);
    const versionSeenByOther = () => other.pragma('data_version', { simple: true }) as number;
    const before = versionSeenByOther();

    const results = await Promise.allSettled([
      store.append('order-2', [{ id: '01JAAAAAAAAAAAAAAAAAAAAAAF', type: 'A', data: {}, metadata }], { expectedRevision: 'no_stream' }),
      store.append('order-3', [{ id: '01JAAAAAAAAAAAAAAAAAAAAAAG', type: 'B', data: {}, metadata }, { id: taken, type: 'DuplicateId', data: {}, metadata }], { expectedRevision: 'no_stream' }),
      store.append('order-4', [{ id: '01JAAAAAAAAAAAAAAAAAAAAAAH', type: 'C', data: {}, metadata }], { expectedRevision: 'no_stream' }),
    ]);

    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toBeInstanceOf(DuplicateEventIdError);
    expect((await store.readAll({ limit: 10 })).map((e) => `${e.stream}:${e.type}`)).toEqual(['order-1:Opened', 'order-2:A', 'order-4:C']);
    // Another connection sees one commit for the three appends (data_version moves once per commit it did not make).
    expect(versionSeenByOther()).toBe(before + 1);
    other.close();
  });

  it('rejects an empty append', async () => {
    const store = new SqliteEventStore(temp.db);
    await expect(store.append('order-1', [], { expectedRevision: 'any' })).rejects.toThrow(RangeError);
  });
});
