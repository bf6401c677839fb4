import { type AnyBulkWriteOperation, type Db, MongoBulkWriteError, MongoClient, MongoServerError } from 'mongodb';
import { assertFindQuery } from '../find-query';
import { assertCollectionName, assertFieldPath, CHECKPOINTS } from '../names';
import { decodePosition, encodePosition } from '../position-key';
import { FOREVER, type Checkpoint, type Doc, type FindQuery, type FindResult, type IndexSpec, type ReadStore, type Write } from '../read-store.port';
import { assertWrite, splitWrites, type DocumentWrite, type KeyAddition } from '../writes';
import { CommitJournal } from './commit-journal';
import { mongoFindFilter, mongoPath, mongoSort, NOT_DELETED } from './mongo-find-filter';
import { type StoredCheckpoint, type StoredDocument, toDoc } from './stored-document';

const DUPLICATE_KEY = 11000;

/**
 * The read store on MongoDB: one collection per read model, `_id` = the document's id, plus
 * `_position` (the last event applied) and `_deleted` on tombstones. Needs no multi-document
 * transaction: a commit with a checkpoint is journaled before it is applied (CommitJournal), its
 * writes are position-guarded, and the checkpoint follows them and never moves back; a commit a
 * crash interrupted is applied again, whole, when its checkpoint is next read.
 */
export class MongoReadStore implements ReadStore {
  private readonly journal: CommitJournal;

  /** `ownedClient` is closed by close(); leave it out when the caller manages the client. */
  constructor(
    private readonly db: Db,
    private readonly ownedClient?: MongoClient,
  ) {
    this.journal = new CommitJournal(db);
  }

  async ensureCollection(collection: string, indexes: readonly IndexSpec[]): Promise<void> {
    assertCollectionName(collection);
    for (const { fields } of indexes) {
      fields.forEach(assertFieldPath);
      const leading = fields.map(mongoPath).filter((path) => path !== '_id');
      if (leading.length > 0) {
        await this.collection(collection).createIndex([...leading.map((path): [string, 1] => [path, 1]), ['_id', 1]]);
      }
    }
  }

  /** Keys are documents `{ _id, at }`; `at` is missing on keys kept for good. */
  async ensureKeySet(name: string): Promise<void> {
    await this.collection(name).createIndex({ at: 1 });
  }

  async hasKeys(name: string, keys: readonly string[], notBefore?: number): Promise<Set<string>> {
    if (keys.length === 0) return new Set();
    const held = await this.collection(name).find({ _id: { $in: [...keys] }, ...recentKeys(notBefore) }, { projection: { _id: 1 } }).toArray();
    return new Set(held.map((key) => key._id));
  }

  async keyRefs(name: string, keys: readonly string[], notBefore?: number): Promise<Map<string, string | null>> {
    if (keys.length === 0) return new Map();
    const held = await this.collection(name).find({ _id: { $in: [...keys] }, ...recentKeys(notBefore) }, { projection: { _id: 1, ref: 1 } }).toArray();
    return new Map(held.map((key) => [key._id, typeof key.ref === 'string' ? key.ref : null]));
  }

  /** By `_id` alone, which every server of the wire protocol looks up by its key (FerretDB scans for any other filter), the tombstone checked here. */
  async get<T extends Doc>(collection: string, id: string): Promise<T | undefined> {
    const stored = await this.collection(collection).findOne({ _id: id });
    return stored && stored._deleted !== true ? toDoc<T>(stored) : undefined;
  }

  async getMany<T extends Doc>(collection: string, ids: readonly string[]): Promise<Map<string, T>> {
    const found = new Map<string, T>();
    if (ids.length === 0) return found;
    const stored = await this.collection(collection).find({ _id: { $in: [...ids] }, ...NOT_DELETED }).toArray();
    for (const doc of stored) found.set(doc._id, toDoc<T>(doc));
    return found;
  }

  async find<T extends Doc>(collection: string, query: FindQuery): Promise<FindResult<T>> {
    assertFindQuery(query);
    const stored = await this.collection(collection)
      .find(mongoFindFilter(query), { sort: mongoSort(query.sort), limit: query.limit + 1 })
      .toArray();
    return { items: stored.slice(0, query.limit).map(toDoc<T>), hasMore: stored.length > query.limit };
  }

  async commit(writes: readonly Write[], checkpoint?: Checkpoint): Promise<void> {
    // Everything is validated before the first write, as no transaction would undo it.
    writes.forEach(assertWrite);
    if (!checkpoint) return this.apply(writes);
    if (writes.length === 0) return this.moveCheckpoint(checkpoint);
    await this.journal.record(checkpoint, writes);
    await this.finish({ checkpoint, writes });
  }

  async getCheckpoint(name: string): Promise<bigint | undefined> {
    const stored = await this.checkpoints().findOne({ _id: name });
    return stored ? decodePosition(stored.position) : undefined;
  }

  async recoverCheckpoint(name: string): Promise<bigint | undefined> {
    const interrupted = await this.journal.pending(name);
    if (interrupted) await this.finish(interrupted);
    return this.getCheckpoint(name);
  }

  /** Journal entries, documents, then checkpoints: if it fails half-way, running it again completes it. */
  async reset(collections: readonly string[], checkpoints: readonly string[]): Promise<void> {
    if (checkpoints.length > 0) await this.journal.forget(checkpoints);
    for (const collection of collections) await this.collection(collection).deleteMany({});
    if (checkpoints.length > 0) await this.checkpoints().deleteMany({ _id: { $in: [...checkpoints] } });
  }

  async all<T extends Doc>(collection: string): Promise<T[]> {
    const stored = await this.collection(collection).find(NOT_DELETED, { sort: { _id: 1 } }).toArray();
    return stored.map(toDoc<T>);
  }

  async close(): Promise<void> {
    await this.ownedClient?.close();
  }

  /** Applies a journaled commit (again, after a crash: every step changes nothing the second time), then drops its entry. */
  private async finish({ checkpoint, writes }: { checkpoint: Checkpoint; writes: readonly Write[] }): Promise<void> {
    await this.apply(writes);
    await this.moveCheckpoint(checkpoint);
    await this.journal.clear(checkpoint);
  }

  private async apply(writes: readonly Write[]): Promise<void> {
    const { documents, additions, forgets } = splitWrites(writes);
    const runs = runsByCollection(documents).map((run) => ({ collection: run.collection, operations: run.writes.map(toReplacement) }));
    for (const run of runs) await this.applyInOrder(run.collection, run.operations);
    for (const addition of additions) await this.addKeys(addition);
    for (const [keySet, before] of forgets) await this.collection(keySet).deleteMany({ at: { $lt: before } });
  }

  /**
   * Never back: a runner that finished an interrupted commit late must not undo a later one.
   * Positions are fixed-width strings, so `$max` compares them as numbers. The first upsert of a
   * checkpoint can meet another's insert (a duplicate-key error, which MongoDB retries itself and
   * FerretDB does not): the document is there then, and the update applies to it.
   */
  private async moveCheckpoint({ name, position }: Checkpoint): Promise<void> {
    const move = () => this.checkpoints().updateOne({ _id: name }, { $max: { position: encodePosition(position) } }, { upsert: true });
    try {
      await move();
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      await move();
    }
  }

  /**
   * An ordered bulk write stops at its first error. A duplicate-key error there is a guard miss
   * (the stored position is not older, so the upsert tried to insert the same _id): the write was
   * already applied, and the rest of the batch goes on after it.
   */
  private async applyInOrder(collection: string, operations: AnyBulkWriteOperation<StoredDocument>[]): Promise<void> {
    let next = 0;
    while (next < operations.length) {
      try {
        await this.collection(collection).bulkWrite(operations.slice(next), { ordered: true });
        return;
      } catch (error) {
        const failed = duplicateKeyIndex(error);
        if (failed === undefined) throw error;
        next += failed + 1;
      }
    }
  }

  /**
   * Inserts the keys unordered (a key already there is a duplicate-key error), then gives those
   * already there the later time, with its ref: `at` if older, none (kept for good) for an addition
   * without one. Keys added again are few, so those with refs are updated one by one.
   */
  private async addKeys({ keySet, keys, refs, at }: KeyAddition): Promise<void> {
    const documents = keys.map((key, index) => ({ _id: key, ...(at !== FOREVER && { at }), ...(refs[index] !== null && { ref: refs[index] }) }) as StoredDocument);
    const there = await this.insertKeys(keySet, documents);
    if (there.length === 0) return;
    const older = at === FOREVER ? { at: { $exists: true } } : { at: { $lt: at } };
    if (refs.every((ref) => ref === null)) {
      await this.collection(keySet).updateMany({ _id: { $in: there }, ...older }, keyUpdate(at, null));
      return;
    }
    const refOf = new Map(keys.map((key, index) => [key, refs[index]]));
    await this.collection(keySet).bulkWrite(there.map((key) => ({ updateOne: { filter: { _id: key, ...older }, update: keyUpdate(at, refOf.get(key) ?? null) } })));
  }

  /** The ids of the documents that were there already. */
  private async insertKeys(name: string, documents: StoredDocument[]): Promise<string[]> {
    if (documents.length === 0) return [];
    try {
      await this.collection(name).insertMany(documents, { ordered: false });
      return [];
    } catch (error) {
      const failures = error instanceof MongoBulkWriteError ? [error.writeErrors].flat() : [];
      if (failures.length === 0 || failures.some((failure) => failure.code !== DUPLICATE_KEY)) throw error;
      return failures.map((failure) => documents[failure.index]._id);
    }
  }

  private collection(name: string) {
    assertCollectionName(name);
    return this.db.collection<StoredDocument>(name);
  }

  private checkpoints() {
    return this.db.collection<StoredCheckpoint>(CHECKPOINTS);
  }
}

/** Opens a client for `url` and a store on `dbName` (default: the database named in the URL); close() closes the client. */
export async function connectMongo(url: string, dbName?: string): Promise<MongoReadStore> {
  const client = await MongoClient.connect(url);
  return new MongoReadStore(client.db(dbName), client);
}

/** What a key added again at a later time becomes: that time (none: kept for good) and that ref (none: no ref). */
function keyUpdate(at: number, ref: string | null) {
  const set = { ...(at !== FOREVER && { at }), ...(ref !== null && { ref }) };
  const unset = { ...(at === FOREVER && { at: '' as const }), ...(ref === null && { ref: '' as const }) };
  return { ...(Object.keys(set).length > 0 && { $set: set }), ...(Object.keys(unset).length > 0 && { $unset: unset }) };
}

/** Keys added at or after `notBefore`, and those kept for good (no `at`). */
const recentKeys = (notBefore: number | undefined) => (notBefore === undefined ? {} : { $or: [{ at: { $gte: notBefore } }, { at: { $exists: false } }] });

/** Consecutive writes to the same collection, so each run is one bulk write and the order holds. */
function runsByCollection(writes: readonly DocumentWrite[]): { collection: string; writes: DocumentWrite[] }[] {
  const runs: { collection: string; writes: DocumentWrite[] }[] = [];
  for (const write of writes) {
    const last = runs[runs.length - 1];
    if (last?.collection === write.collection) last.writes.push(write);
    else runs.push({ collection: write.collection, writes: [write] });
  }
  return runs;
}

function toReplacement(write: DocumentWrite): AnyBulkWriteOperation<StoredDocument> {
  const position = encodePosition(write.position);
  let replacement: StoredDocument;
  if (write.op === 'upsert') {
    // Through JSON, so both adapters store the same thing (no undefined, Date or class instances).
    replacement = { _id: write.doc.id, ...(JSON.parse(JSON.stringify(write.doc)) as Doc), _position: position };
  } else {
    replacement = { _id: write.id, _position: position, _deleted: true };
  }
  return {
    replaceOne: {
      filter: { _id: replacement._id, $or: [{ _position: { $lt: position } }, { _position: { $exists: false } }] },
      replacement,
      upsert: true,
    },
  };
}

const isDuplicateKey = (error: unknown): boolean => error instanceof MongoServerError && error.code === DUPLICATE_KEY;

function duplicateKeyIndex(error: unknown): number | undefined {
  if (!(error instanceof MongoBulkWriteError)) return undefined;
  const [first, ...others] = [error.writeErrors].flat();
  if (!first || others.length > 0 || first.code !== DUPLICATE_KEY) return undefined;
  return first.index;
}
