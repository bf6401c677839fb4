import Database from 'better-sqlite3';
import type { PiiCodec } from '@tally/cells';
import { SqliteEventStore, type NewEvent } from '@tally/eventstore';
import { SqliteReadStore } from '@tally/readstore';
import type { Projection } from './projection';
import { ProjectionRunner } from './projection-runner';

const metadata = { tenant_id: 'ten_1', environment: 'sandbox', actor: 'test', request_id: null, causation_id: null, correlation_id: null, occurred_at: '2026-05-01T10:00:00.000Z', schema_version: 1 } as const;
const noted = (id: string): NewEvent => ({ id, type: 'Noted', data: {}, metadata });
const plain = { decode: async (_type: string, data: unknown) => data } as unknown as PiiCodec;

/** Counts, per stream, the events it saw, reading the count it wrote for the event before. */
const counter = (keepWritten?: number): Projection => ({
  name: 'counts',
  streamPrefixes: ['counter-'],
  collections: [{ name: 'counts', indexes: [] }],
  keepWritten,
  async handle(event, writer) {
    const count = (await writer.get<{ id: string; seen: number }>('counts', event.stream))?.seen ?? 0;
    writer.upsert('counts', { id: event.stream, seen: count + 1 });
  },
});

describe('ProjectionRunner', () => {
  let db: Database.Database;
  let events: SqliteEventStore;
  let store: SqliteReadStore;

  beforeEach(() => {
    db = new Database(':memory:');
    events = new SqliteEventStore(db);
    store = new SqliteReadStore(db);
  });
  afterEach(() => db.close());

  async function run(projection: Projection): Promise<number> {
    const runner = new ProjectionRunner({ projection, events, pii: plain, store, checkpoint: projection.name }, { error: () => undefined });
    await runner.start();
    const reads = jest.spyOn(store, 'get');
    for (let batch = 0; batch < 3; batch++) {
      const { position } = await events.append('counter-a', [noted(`0${batch}`)], { expectedRevision: 'any' });
      await runner.whenCaughtUp(position);
    }
    await runner.stop();
    return reads.mock.calls.length;
  }

  it('reads what it wrote in an earlier batch from the store', async () => {
    expect(await run(counter())).toBe(3);
    expect(await store.get('counts', 'counter-a')).toEqual({ id: 'counter-a', seen: 3 });
  });

  it('answers those reads from memory when the projection keeps what it wrote', async () => {
    expect(await run(counter(10))).toBe(1);
    expect(await store.get('counts', 'counter-a')).toEqual({ id: 'counter-a', seen: 3 });
  });
});
