import type { Db } from 'mongodb';
import type { Write } from '../read-store.port';
import { describeOnMongo, dyingAt, openTestDatabase } from '../testing/mongo-test-databases';
import { MongoReadStore } from './mongo-read-store';

const upsert = (id: string, fields: Record<string, unknown>, position: bigint): Write => ({ op: 'upsert', collection: 'buckets', doc: { id, ...fields }, position });
const addKeys = (...keys: string[]): Write => ({ op: 'add_keys', collection: 'seen', keys });

describeOnMongo('MongoReadStore commits across a crash (the commit journal)', () => {
  let db: Db;
  let cleanup: () => Promise<void>;
  let store: MongoReadStore;

  beforeEach(async () => {
    ({ db, cleanup } = await openTestDatabase('tally_journal'));
    store = new MongoReadStore(db);
    await store.ensureKeySet('seen');
    await store.commit([upsert('b1', { count: 1 }, 1n), addKeys('k1')], { name: 'usage', position: 1n });
  });
  afterEach(() => cleanup());

  const journalLeft = async () => [...(await db.collection('_commit_journal').find().toArray()), ...(await db.collection('_commit_journal_parts').find().toArray())];

  it('finishes, whole, a commit that died after its documents, when its runner resumes', async () => {
    const dying = new MongoReadStore(dyingAt(db, (collection) => collection === 'seen'));
    const commit = [upsert('b1', { count: 3 }, 5n), upsert('b2', { count: 1 }, 5n), addKeys('k2', 'k3')];
    await expect(dying.commit(commit, { name: 'usage', position: 5n })).rejects.toThrow('the process died');
    expect(await store.get('buckets', 'b1')).toEqual({ id: 'b1', count: 3 });
    expect(await store.hasKeys('seen', ['k2'])).toEqual(new Set());

    const restarted = new MongoReadStore(db);
    expect(await restarted.recoverCheckpoint('usage')).toBe(5n);
    expect(await restarted.hasKeys('seen', ['k1', 'k2', 'k3'])).toEqual(new Set(['k1', 'k2', 'k3']));
    expect(await restarted.all('buckets')).toEqual([{ id: 'b1', count: 3 }, { id: 'b2', count: 1 }]);
    expect(await journalLeft()).toEqual([]);
  });

  it('leaves an interrupted commit to its runner when a reader asks for the checkpoint, so no reader races the runner on it', async () => {
    const dying = new MongoReadStore(dyingAt(db, (collection) => collection === 'seen'));
    await expect(dying.commit([upsert('b1', { count: 3 }, 5n), addKeys('k2')], { name: 'usage', position: 5n })).rejects.toThrow('the process died');

    expect(await store.getCheckpoint('usage')).toBe(1n);
    expect(await store.hasKeys('seen', ['k2'])).toEqual(new Set());
    expect(await journalLeft()).not.toEqual([]);

    expect(await store.recoverCheckpoint('usage')).toBe(5n);
    expect(await store.hasKeys('seen', ['k2'])).toEqual(new Set(['k2']));
  });

  it('applies nothing of a commit that died while it was being journaled, and clears its parts later', async () => {
    const dying = new MongoReadStore(dyingAt(db, (collection) => collection === '_commit_journal'));
    await expect(dying.commit([upsert('b1', { count: 9 }, 5n), addKeys('k9')], { name: 'usage', position: 5n })).rejects.toThrow('the process died');

    const restarted = new MongoReadStore(db);
    expect(await restarted.recoverCheckpoint('usage')).toBe(1n);
    expect(await restarted.get('buckets', 'b1')).toEqual({ id: 'b1', count: 1 });
    expect(await restarted.hasKeys('seen', ['k9'])).toEqual(new Set());

    await restarted.commit([upsert('b1', { count: 2 }, 6n)], { name: 'usage', position: 6n });
    expect(await journalLeft()).toEqual([]);
  });

  it('never moves a checkpoint back, so a commit finished late undoes no later one', async () => {
    await store.commit([upsert('b1', { count: 2 }, 9n)], { name: 'usage', position: 9n });
    await store.commit([upsert('b1', { count: 5 }, 4n)], { name: 'usage', position: 4n });

    expect(await store.getCheckpoint('usage')).toBe(9n);
    expect(await store.get('buckets', 'b1')).toEqual({ id: 'b1', count: 2 });
  });

  it('forgets an interrupted commit on a reset, so a rebuild starts from nothing', async () => {
    const dying = new MongoReadStore(dyingAt(db, (collection) => collection === 'seen'));
    await expect(dying.commit([upsert('b1', { count: 3 }, 5n), addKeys('k2')], { name: 'usage', position: 5n })).rejects.toThrow('the process died');

    await store.reset(['buckets', 'seen'], ['usage']);

    expect(await store.getCheckpoint('usage')).toBeUndefined();
    expect(await store.all('buckets')).toEqual([]);
    expect(await journalLeft()).toEqual([]);
  });

  it('journals a commit too large for one document in several parts', async () => {
    const keys = Array.from({ length: 150_000 }, (_, i) => `key-${i}-${'x'.repeat(24)}`);
    const dying = new MongoReadStore(dyingAt(db, (collection) => collection === 'seen'));
    await expect(dying.commit([upsert('b1', { count: 4 }, 7n), { op: 'add_keys', collection: 'seen', keys }], { name: 'usage', position: 7n })).rejects.toThrow('the process died');
    expect(await db.collection('_commit_journal_parts').countDocuments()).toBeGreaterThan(1);

    const restarted = new MongoReadStore(db);
    expect(await restarted.recoverCheckpoint('usage')).toBe(7n);
    expect((await restarted.hasKeys('seen', [keys[0], keys[keys.length - 1]])).size).toBe(2);
  });
});
