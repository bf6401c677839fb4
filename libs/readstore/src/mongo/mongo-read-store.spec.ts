import { type BulkWriteResult, type Db, MongoBulkWriteError, type MongoClient } from 'mongodb';
import { encodePosition } from '../position-key';
import type { Write } from '../read-store.port';
import { MongoReadStore } from './mongo-read-store';

type Operation = { replaceOne: { filter: unknown; replacement: Record<string, unknown>; upsert: boolean } };

/** Records the calls the store makes; `failures` decides how a bulk write fails, by call number. */
function fakeDb(failures: ((operations: Operation[]) => Error | undefined)[] = []) {
  const log: string[] = [];
  const bulkWrites: { collection: string; operations: Operation[] }[] = [];
  const db = {
    collection: (collection: string) => ({
      bulkWrite: async (operations: Operation[]) => {
        bulkWrites.push({ collection, operations });
        log.push(`bulkWrite ${collection} ${operations.map((op) => op.replaceOne.replacement._id).join(',')}`);
        const failure = failures[bulkWrites.length - 1]?.(operations);
        if (failure) throw failure;
      },
      updateOne: async (filter: { _id: string }, update: { $max: { position: string } }) => {
        log.push(`updateOne ${collection} ${filter._id} ${update.$max.position}`);
      },
      replaceOne: async (filter: { _id: string }) => {
        log.push(`replaceOne ${collection} ${filter._id}`);
      },
      deleteOne: async (filter: { _id: string }) => {
        log.push(`deleteOne ${collection} ${filter._id}`);
      },
      deleteMany: async () => {
        log.push(`deleteMany ${collection}`);
      },
      findOne: async () => ({ _id: 'a', id: 'a', v: 1, _position: encodePosition(1n) }),
    }),
  } as unknown as Db;
  return { db, log, bulkWrites };
}

function duplicateKeyAt(index: number): MongoBulkWriteError {
  const writeErrors = [{ index, code: 11000, errmsg: 'E11000 duplicate key error' }];
  return new MongoBulkWriteError({ message: 'E11000 duplicate key error', code: 11000, writeErrors } as never, {} as BulkWriteResult);
}

const upsert = (collection: string, id: string, position: bigint): Write => ({ op: 'upsert', collection, doc: { id, v: 1 }, position });

/** A commit's calls: its journal entry (one part), the writes, the checkpoint, and the entry dropped. */
const journaled = (checkpoint: string, position: bigint, ...applied: string[]): string[] => [
  `replaceOne _commit_journal_parts ${checkpoint}@${encodePosition(position)}#0`,
  `replaceOne _commit_journal ${checkpoint}`,
  ...applied,
  `updateOne checkpoints ${checkpoint} ${encodePosition(position)}`,
  `deleteOne _commit_journal ${checkpoint}`,
  'deleteMany _commit_journal_parts',
];

describe('MongoReadStore writes', () => {
  it('journals a commit, applies runs of writes per collection in order, then moves the checkpoint and drops the entry', async () => {
    const { db, log } = fakeDb();
    const store = new MongoReadStore(db);

    await store.commit(
      [upsert('docs', 'a', 1n), upsert('docs', 'b', 2n), upsert('other', 'c', 3n), upsert('docs', 'd', 4n)],
      { name: 'docs', position: 4n },
    );

    expect(log).toEqual(journaled('docs', 4n, 'bulkWrite docs a,b', 'bulkWrite other c', 'bulkWrite docs d'));
  });

  it('replaces the whole document or leaves a tombstone, guarded by position', async () => {
    const { db, bulkWrites } = fakeDb();
    const position = encodePosition(7n);

    await new MongoReadStore(db).commit([upsert('docs', 'a', 7n), { op: 'delete', collection: 'docs', id: 'b', position: 7n }]);

    const guard = (id: string) => ({ _id: id, $or: [{ _position: { $lt: position } }, { _position: { $exists: false } }] });
    expect(bulkWrites[0].operations).toEqual([
      { replaceOne: { filter: guard('a'), replacement: { _id: 'a', id: 'a', v: 1, _position: position }, upsert: true } },
      { replaceOne: { filter: guard('b'), replacement: { _id: 'b', _position: position, _deleted: true }, upsert: true } },
    ]);
  });

  it('takes a duplicate-key error as a write already applied and goes on after it', async () => {
    const { db, log } = fakeDb([() => duplicateKeyAt(1), () => duplicateKeyAt(0)]);

    await new MongoReadStore(db).commit([upsert('docs', 'a', 1n), upsert('docs', 'b', 2n), upsert('docs', 'c', 3n), upsert('docs', 'd', 4n)], {
      name: 'docs',
      position: 4n,
    });

    expect(log).toEqual(journaled('docs', 4n, 'bulkWrite docs a,b,c,d', 'bulkWrite docs c,d', 'bulkWrite docs d'));
  });

  it('passes any other error on and leaves the checkpoint and the journal entry alone', async () => {
    const { db, log } = fakeDb([() => new Error('network down')]);

    await expect(new MongoReadStore(db).commit([upsert('docs', 'a', 1n)], { name: 'docs', position: 1n })).rejects.toThrow('network down');
    expect(log).toEqual(journaled('docs', 1n, 'bulkWrite docs a').slice(0, 3));
  });

  it('journals nothing for a commit without a checkpoint, or without writes', async () => {
    const { db, log } = fakeDb();

    await new MongoReadStore(db).commit([upsert('docs', 'a', 1n)]);
    await new MongoReadStore(db).commit([], { name: 'docs', position: 2n });

    expect(log).toEqual(['bulkWrite docs a', `updateOne checkpoints docs ${encodePosition(2n)}`]);
  });

  it('validates every write before the first one', async () => {
    const { db, log } = fakeDb();

    await expect(new MongoReadStore(db).commit([upsert('docs', 'a', 1n), upsert('Bad-Name', 'b', 2n)])).rejects.toThrow('Invalid collection name');
    expect(log).toEqual([]);
  });
});

describe('MongoReadStore reads and lifecycle', () => {
  it('returns documents without the stored _id and _position', async () => {
    expect(await new MongoReadStore(fakeDb().db).get('docs', 'a')).toEqual({ id: 'a', v: 1 });
  });

  it('closes only a client it was given to own', async () => {
    const client = { close: jest.fn(async () => undefined) } as unknown as MongoClient;

    await new MongoReadStore(fakeDb().db).close();
    await new MongoReadStore(fakeDb().db, client).close();

    expect(client.close).toHaveBeenCalledTimes(1);
  });
});
