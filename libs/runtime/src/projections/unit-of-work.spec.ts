import Database from 'better-sqlite3';
import type { RecordedEvent } from '@tally/eventstore';
import { SqliteReadStore } from '@tally/readstore';
import { UnitOfWork } from './unit-of-work';

const at = (position: bigint) => ({ position }) as RecordedEvent;

describe('UnitOfWork', () => {
  let db: Database.Database;
  let store: SqliteReadStore;

  beforeEach(() => {
    db = new Database(':memory:');
    store = new SqliteReadStore(db);
  });

  afterEach(() => db.close());

  it('reads committed documents from the store when it keeps none', async () => {
    const unit = new UnitOfWork(store);
    unit.writerFor(at(1n)).upsert('docs', { id: 'a', v: 1 });
    expect(await unit.writerFor(at(2n)).get('docs', 'a')).toEqual({ id: 'a', v: 1 });
    await unit.commit('p');

    const reads = jest.spyOn(store, 'get');
    expect(await unit.writerFor(at(3n)).get('docs', 'a')).toEqual({ id: 'a', v: 1 });
    expect(reads).toHaveBeenCalledTimes(1);
  });

  it('answers reads of the documents it committed from memory, deletions too, the least recently written leaving first', async () => {
    const unit = new UnitOfWork(store, 2);
    const first = unit.writerFor(at(1n));
    await first.get('docs', 'a');
    first.upsert('docs', { id: 'a', v: 1 });
    first.upsert('docs', { id: 'b', v: 1 });
    first.upsert('docs', { id: 'c', v: 1 });
    first.upsert('log', { id: 'x' });
    await unit.commit('p');
    const second = unit.writerFor(at(2n));
    second.upsert('docs', { id: 'a', v: 2 });
    second.delete('docs', 'c');
    await unit.commit('p');

    const reads = jest.spyOn(store, 'get');
    const writer = unit.writerFor(at(3n));
    expect(await writer.get('docs', 'a')).toEqual({ id: 'a', v: 2 });
    expect(await writer.get('docs', 'c')).toBeUndefined();
    expect(reads).not.toHaveBeenCalled();
    expect(await writer.get('docs', 'b')).toEqual({ id: 'b', v: 1 });
    expect(await writer.get('log', 'x')).toEqual({ id: 'x' });
    expect(reads).toHaveBeenCalledTimes(2);
    expect(await store.all('docs')).toEqual([
      { id: 'a', v: 2 },
      { id: 'b', v: 1 },
    ]);
  });
});
