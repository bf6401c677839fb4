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

  it('reads many documents at once: its own writes and deletions first, the rest from the store in one read', async () => {
    await store.commit([
      { op: 'upsert', collection: 'docs', doc: { id: 'a', v: 1 }, position: 1n },
      { op: 'upsert', collection: 'docs', doc: { id: 'b', v: 1 }, position: 1n },
      { op: 'upsert', collection: 'docs', doc: { id: 'c', v: 1 }, position: 1n },
    ]);
    const unit = new UnitOfWork(store);
    const writer = unit.writerFor(at(2n));
    writer.upsert('docs', { id: 'a', v: 2 });
    writer.upsert('docs', { id: 'new', v: 1 });
    writer.delete('docs', 'b');

    const reads = jest.spyOn(store, 'getMany');
    const found = await writer.getMany('docs', ['a', 'b', 'c', 'new', 'missing']);

    expect(Object.fromEntries(found)).toEqual({ a: { id: 'a', v: 2 }, c: { id: 'c', v: 1 }, new: { id: 'new', v: 1 } });
    expect(reads).toHaveBeenCalledTimes(1);
    expect(reads).toHaveBeenCalledWith('docs', ['c', 'missing']);
  });

  it('answers which keys a key set holds from its own additions first, the rest from the store, and commits each key once', async () => {
    await store.ensureKeySet('seen');
    await store.commit([{ op: 'add_keys', collection: 'seen', keys: ['old'] }]);
    const unit = new UnitOfWork(store);
    const writer = unit.writerFor(at(1n));
    writer.addKey('seen', 'new');
    writer.addKey('seen', 'new');

    const reads = jest.spyOn(store, 'hasKeys');
    expect(await writer.hasKeys('seen', ['old', 'new', 'other'])).toEqual(new Set(['old', 'new']));
    expect(reads).toHaveBeenCalledWith('seen', ['old', 'other'], undefined);
    expect(unit.size).toBe(1);

    const commits = jest.spyOn(store, 'commit');
    await unit.commit('p');
    expect(commits).toHaveBeenCalledWith([{ op: 'add_keys', collection: 'seen', keys: ['new'] }], { name: 'p', position: 1n });
    expect(await store.hasKeys('seen', ['old', 'new'])).toEqual(new Set(['old', 'new']));
  });

  it('holds its own keys by the latest time they were added at, and commits them by time, then what may be forgotten', async () => {
    await store.ensureKeySet('seen');
    const unit = new UnitOfWork(store);
    const writer = unit.writerFor(at(1n));
    writer.addKey('seen', 'a', 100);
    writer.addKey('seen', 'b', 100);
    writer.addKey('seen', 'a', 300);
    writer.addKey('seen', 'c', 200);
    writer.forgetKeys('seen', 40);
    writer.forgetKeys('seen', 50);

    expect(await writer.hasKeys('seen', ['a', 'b', 'c'], 150)).toEqual(new Set(['a', 'c']));
    const commits = jest.spyOn(store, 'commit');
    await unit.commit('p');
    expect(commits).toHaveBeenCalledWith(
      [
        { op: 'add_keys', collection: 'seen', keys: ['a'], at: 300 },
        { op: 'add_keys', collection: 'seen', keys: ['b'], at: 100 },
        { op: 'add_keys', collection: 'seen', keys: ['c'], at: 200 },
        { op: 'forget_keys', collection: 'seen', before: 50 },
      ],
      { name: 'p', position: 1n },
    );
    expect(await store.hasKeys('seen', ['a', 'b', 'c'], 150)).toEqual(new Set(['a', 'c']));
  });

  it('commits the ref each key was added with at its latest time, with refs only where one was given', async () => {
    await store.ensureKeySet('seen');
    const unit = new UnitOfWork(store);
    const writer = unit.writerFor(at(1n));
    writer.addKey('seen', 'a', 100, '1/0');
    writer.addKey('seen', 'b', 100);
    writer.addKey('seen', 'a', 300, '2/0');
    writer.addKey('seen', 'a', 200, '3/0');
    writer.addKey('seen', 'c', 100, '4/0');

    const commits = jest.spyOn(store, 'commit');
    await unit.commit('p');
    expect(commits).toHaveBeenCalledWith(
      [
        { op: 'add_keys', collection: 'seen', keys: ['a'], at: 300, refs: ['2/0'] },
        { op: 'add_keys', collection: 'seen', keys: ['b', 'c'], at: 100, refs: [null, '4/0'] },
      ],
      { name: 'p', position: 1n },
    );
    expect(await store.keyRefs('seen', ['a', 'b', 'c'])).toEqual(new Map([['a', '2/0'], ['b', null], ['c', '4/0']]));
  });
});
