import type { Database } from 'better-sqlite3';
import { assertFindQuery } from '../find-query';
import { assertCollectionName, assertFieldPath } from '../names';
import { decodePosition, encodePosition } from '../position-key';
import type { Checkpoint, Doc, FindQuery, FindResult, IndexSpec, ReadStore, Write } from '../read-store.port';
import { assertWrite, splitWrites, type DocumentWrite } from '../writes';
import { addIndexedFields } from './add-indexed-fields';
import type { ColumnValue } from './collection-layout';
import { CollectionLayouts } from './collection-layouts';
import { findSql } from './sqlite-find-sql';
import { CHECKPOINTS_TABLE, CREATE_CHECKPOINTS_SQL, createIndexSql, createTableSql, tableName } from './sqlite-schema';
import { SqliteKeyRefs } from './sqlite-key-refs';
import { SqliteKeySets } from './sqlite-key-sets';
import { StatementCache } from './statement-cache';
import { withUserKeyedFields } from '../user-keyed-fields';

/**
 * The read store in the region's SQLite file, beside the event store's `es_*` tables: one `rm_*`
 * table per collection, documents as JSON text. Each field an index names also has a key and a
 * kind column, computed on every write; indexes, conditions and sorts use those columns, and other
 * fields are read from the JSON. The database belongs to the caller, who closes it.
 */
export class SqliteReadStore implements ReadStore {
  private readonly statements: StatementCache;
  private readonly layouts: CollectionLayouts;
  private readonly tables = new Set<string>();
  private readonly keySets: SqliteKeySets;
  private readonly keyRefReader: SqliteKeyRefs;
  private readonly commitInTransaction: (writes: readonly Write[], checkpoint?: Checkpoint) => void;
  private readonly ensureInTransaction: (collection: string, indexes: readonly (readonly string[])[]) => void;
  private readonly resetInTransaction: (collections: readonly string[], checkpoints: readonly string[]) => void;

  constructor(private readonly db: Database) {
    db.exec(CREATE_CHECKPOINTS_SQL);
    this.statements = new StatementCache(db);
    this.layouts = new CollectionLayouts(db);
    this.keySets = new SqliteKeySets(db, this.statements);
    this.keyRefReader = new SqliteKeyRefs(this.statements, this.keySets);
    // Both immediate: they begin by reading, and a transaction that began by reading cannot wait
    // for another connection's write to finish, only fail.
    this.commitInTransaction = db.transaction((writes: readonly Write[], checkpoint?: Checkpoint) => {
      this.layouts.sync();
      writes.forEach(assertWrite);
      const { documents, additions, forgets } = splitWrites(writes);
      for (const write of documents) this.apply(write);
      for (const { keySet, keys, at, refs } of additions) this.keySets.add(keySet, keys, at, refs);
      for (const [keySet, before] of forgets) this.keySets.forget(keySet, before);
      if (checkpoint) this.setCheckpoint(checkpoint);
    }).immediate;
    this.ensureInTransaction = db.transaction((collection: string, indexes: readonly (readonly string[])[]) => {
      this.layouts.sync();
      const known = this.layouts.of(collection).fields;
      const added = [...new Set(indexes.flat())].filter((field) => field !== 'id' && !known.includes(field));
      if (added.length > 0) addIndexedFields(this.db, collection, added);
      for (const fields of indexes) this.db.exec(createIndexSql(collection, fields));
    }).immediate;
    this.resetInTransaction = db.transaction((collections: readonly string[], checkpoints: readonly string[]) => {
      for (const collection of collections) {
        if (this.keySets.isKeySet(collection)) this.keySets.reset(collection);
        else this.run(`DELETE FROM ${this.table(collection)}`);
      }
      for (const name of checkpoints) this.run(`DELETE FROM ${CHECKPOINTS_TABLE} WHERE name = ?`, name);
    });
  }

  /**
   * Fields indexed for the first time get their columns, filled for the stored documents, in the
   * same transaction as the new indexes. Columns and indexes that are no longer asked for stay.
   */
  async ensureCollection(collection: string, indexes: readonly IndexSpec[]): Promise<void> {
    indexes.forEach(({ fields }) => fields.forEach(assertFieldPath));
    this.table(collection);
    const leading = indexes
      .map(({ fields }) => (fields[fields.length - 1] === 'id' ? fields.slice(0, -1) : fields))
      .filter((fields) => fields.length > 0);
    this.ensureInTransaction(collection, leading);
  }

  async ensureKeySet(name: string): Promise<void> {
    this.keySets.ensure(name);
  }

  async hasKeys(name: string, keys: readonly string[], notBefore?: number): Promise<Set<string>> {
    return this.keySets.has(name, keys, notBefore);
  }

  async keyRefs(name: string, keys: readonly string[], notBefore?: number): Promise<Map<string, string | null>> {
    return this.keyRefReader.refs(name, keys, notBefore);
  }

  async get<T extends Doc>(collection: string, id: string): Promise<T | undefined> {
    const doc = this.statements
      .get(`SELECT doc FROM ${this.table(collection)} WHERE id = ? AND doc IS NOT NULL`)
      .pluck()
      .get(id) as string | undefined;
    return doc === undefined ? undefined : parseDoc<T>(doc);
  }

  async getMany<T extends Doc>(collection: string, ids: readonly string[]): Promise<Map<string, T>> {
    const found = new Map<string, T>();
    if (ids.length === 0) return found;
    const rows = this.statements
      .get(`SELECT id, doc FROM ${this.table(collection)} WHERE id IN (SELECT value FROM json_each(?)) AND doc IS NOT NULL`)
      .raw()
      .all(JSON.stringify(ids)) as [string, string][];
    for (const [id, doc] of rows) found.set(id, parseDoc<T>(doc));
    return found;
  }

  async find<T extends Doc>(collection: string, query: FindQuery): Promise<FindResult<T>> {
    assertFindQuery(query);
    this.table(collection);
    this.layouts.sync();
    const { sql, params } = findSql(collection, query, this.layouts.of(collection).fields);
    const docs = this.statements.get(sql).pluck().all(...params) as string[];
    return {
      items: docs.slice(0, query.limit).map((doc) => parseDoc<T>(doc)),
      hasMore: docs.length > query.limit,
    };
  }

  async commit(writes: readonly Write[], checkpoint?: Checkpoint): Promise<void> {
    for (const write of writes) {
      if (write.op === 'add_keys' || write.op === 'forget_keys') this.keySets.ensure(write.collection);
      else this.table(write.collection);
    }
    this.commitInTransaction(writes, checkpoint);
  }

  /** A commit is one transaction here: there is never one to finish. */
  recoverCheckpoint(name: string): Promise<bigint | undefined> {
    return this.getCheckpoint(name);
  }

  async getCheckpoint(name: string): Promise<bigint | undefined> {
    const position = this.statements
      .get(`SELECT position FROM ${CHECKPOINTS_TABLE} WHERE name = ?`)
      .pluck()
      .get(name) as string | undefined;
    return position === undefined ? undefined : decodePosition(position);
  }

  async reset(collections: readonly string[], checkpoints: readonly string[]): Promise<void> {
    collections.forEach(assertCollectionName);
    this.resetInTransaction(collections, checkpoints);
  }

  async all<T extends Doc>(collection: string): Promise<T[]> {
    const docs = this.statements
      .get(`SELECT doc FROM ${this.table(collection)} WHERE doc IS NOT NULL ORDER BY id`)
      .pluck()
      .all() as string[];
    return docs.map((doc) => parseDoc<T>(doc));
  }

  async close(): Promise<void> {
    // The database is shared with the event store; whoever opened it closes it.
  }

  /** A write lands only over an older position (or no row), so replays change nothing. */
  private apply(write: DocumentWrite): void {
    const layout = this.layouts.of(write.collection);
    const position = encodePosition(write.position);
    const [id, doc, values] =
      write.op === 'upsert' ? [write.doc.id, JSON.stringify(write.doc), layout.values(write.doc)] : [write.id, null, layout.tombstone];
    const stored = this.statements.get(layout.selectSql).raw().get(id) as [string, ...ColumnValue[]] | undefined;
    if (!stored) {
      this.run(layout.insertSql, id, position, doc, ...values);
      return;
    }
    if (stored[0] >= position) return;
    const { sql, changedValues } = layout.update(stored.slice(1), values);
    this.run(sql, position, doc, ...changedValues, id);
  }

  private setCheckpoint({ name, position }: Checkpoint): void {
    this.run(
      `INSERT INTO ${CHECKPOINTS_TABLE} (name, position) VALUES (?, ?)
       ON CONFLICT (name) DO UPDATE SET position = excluded.position`,
      name,
      encodePosition(position),
    );
  }

  /**
   * The collection's quoted table name, creating the table on first use. A table created inside a
   * transaction is not remembered, as a rollback would take it away again.
   */
  private table(collection: string): string {
    if (!this.tables.has(collection)) {
      assertCollectionName(collection);
      this.db.exec(createTableSql(collection));
      if (!this.db.inTransaction) this.tables.add(collection);
    }
    return tableName(collection);
  }

  private run(sql: string, ...params: ColumnValue[]): void {
    this.statements.get(sql).run(...params);
  }
}

const parseDoc = <T extends Doc>(json: string): T => withUserKeyedFields(JSON.parse(json) as T);
