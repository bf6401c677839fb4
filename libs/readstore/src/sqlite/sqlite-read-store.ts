import type { Database } from 'better-sqlite3';
import { assertFindQuery } from '../find-query';
import { assertCollectionName, assertFieldPath } from '../names';
import { decodePosition, encodePosition } from '../position-key';
import type { Checkpoint, Doc, FindQuery, FindResult, IndexSpec, ReadStore, Write } from '../read-store.port';
import { assertWrite } from '../writes';
import { findSql } from './sqlite-find-sql';
import { CHECKPOINTS_TABLE, CREATE_CHECKPOINTS_SQL, createIndexSql, createTableSql, tableName } from './sqlite-schema';
import { StatementCache } from './statement-cache';

/**
 * The read store in the region's SQLite file, beside the event store's `es_*` tables: one `rm_*`
 * table per collection, documents as JSON text. The database belongs to the caller, who closes it.
 */
export class SqliteReadStore implements ReadStore {
  private readonly statements: StatementCache;
  private readonly tables = new Set<string>();
  private readonly commitInTransaction: (writes: readonly Write[], checkpoint?: Checkpoint) => void;
  private readonly resetInTransaction: (collections: readonly string[], checkpoints: readonly string[]) => void;

  constructor(private readonly db: Database) {
    db.exec(CREATE_CHECKPOINTS_SQL);
    this.statements = new StatementCache(db);
    this.commitInTransaction = db.transaction((writes: readonly Write[], checkpoint?: Checkpoint) => {
      for (const write of writes) this.apply(write);
      if (checkpoint) this.setCheckpoint(checkpoint);
    });
    this.resetInTransaction = db.transaction((collections: readonly string[], checkpoints: readonly string[]) => {
      for (const collection of collections) this.run(`DELETE FROM ${this.table(collection)}`);
      for (const name of checkpoints) this.run(`DELETE FROM ${CHECKPOINTS_TABLE} WHERE name = ?`, name);
    });
  }

  async ensureCollection(collection: string, indexes: readonly IndexSpec[]): Promise<void> {
    this.table(collection);
    for (const { fields } of indexes) {
      fields.forEach(assertFieldPath);
      const leading = fields[fields.length - 1] === 'id' ? fields.slice(0, -1) : fields;
      if (leading.length > 0) this.db.exec(createIndexSql(collection, leading));
    }
  }

  async get<T extends Doc>(collection: string, id: string): Promise<T | undefined> {
    const doc = this.statements
      .get(`SELECT doc FROM ${this.table(collection)} WHERE id = ? AND doc IS NOT NULL`)
      .pluck()
      .get(id) as string | undefined;
    return doc === undefined ? undefined : (JSON.parse(doc) as T);
  }

  async find<T extends Doc>(collection: string, query: FindQuery): Promise<FindResult<T>> {
    assertFindQuery(query);
    this.table(collection);
    const { sql, params } = findSql(collection, query);
    const docs = this.statements.get(sql).pluck().all(...params) as string[];
    return {
      items: docs.slice(0, query.limit).map((doc) => JSON.parse(doc) as T),
      hasMore: docs.length > query.limit,
    };
  }

  async commit(writes: readonly Write[], checkpoint?: Checkpoint): Promise<void> {
    for (const write of writes) this.table(write.collection);
    this.commitInTransaction(writes, checkpoint);
  }

  async getCheckpoint(name: string): Promise<bigint | undefined> {
    const position = this.statements
      .get(`SELECT position FROM ${CHECKPOINTS_TABLE} WHERE name = ?`)
      .pluck()
      .get(name) as string | undefined;
    return position === undefined ? undefined : decodePosition(position);
  }

  async reset(collections: readonly string[], checkpoints: readonly string[]): Promise<void> {
    collections.forEach((collection) => this.table(collection));
    this.resetInTransaction(collections, checkpoints);
  }

  async all<T extends Doc>(collection: string): Promise<T[]> {
    const docs = this.statements
      .get(`SELECT doc FROM ${this.table(collection)} WHERE doc IS NOT NULL ORDER BY id`)
      .pluck()
      .all() as string[];
    return docs.map((doc) => JSON.parse(doc) as T);
  }

  async close(): Promise<void> {
    // The database is shared with the event store; whoever opened it closes it.
  }

  /** A write lands only over an older position (or no row), so replays change nothing. */
  private apply(write: Write): void {
    assertWrite(write);
    const position = encodePosition(write.position);
    const table = this.table(write.collection);
    const [id, doc] = write.op === 'upsert' ? [write.doc.id, JSON.stringify(write.doc)] : [write.id, null];
    this.run(
      `INSERT INTO ${table} (id, position, doc) VALUES (?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET position = excluded.position, doc = excluded.doc
       WHERE excluded.position > ${table}.position`,
      id,
      position,
      doc,
    );
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

  private run(sql: string, ...params: (string | null)[]): void {
    this.statements.get(sql).run(...params);
  }
}
