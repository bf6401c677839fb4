import type { Database } from 'better-sqlite3';
import type { Doc } from '../read-store.port';
import { CollectionLayout } from './collection-layout';
import { addColumnsSql, keyColumn, kindColumn, tableName } from './sqlite-schema';

const PAGE = 1_000;

/**
 * Adds the key and kind columns of fields that are indexed for the first time and fills them for
 * every stored document, a page at a time; tombstones keep NULL. Call it inside a transaction.
 */
export function addIndexedFields(db: Database, collection: string, fields: readonly string[]): void {
  for (const field of fields) for (const sql of addColumnsSql(collection, field)) db.exec(sql);
  const added = new CollectionLayout(collection, fields);
  const table = tableName(collection);
  const sets = fields.flatMap((field) => [`${keyColumn(field)} = ?`, `${kindColumn(field)} = ?`]);
  const update = db.prepare(`UPDATE ${table} SET ${sets.join(', ')} WHERE rowid = ?`);
  const page = db.prepare(`SELECT rowid, doc FROM ${table} WHERE doc IS NOT NULL AND rowid > ? ORDER BY rowid LIMIT ${PAGE}`);
  // SQLite numbers rows from 1 when none is given, and the store never gives one.
  let after = 0;
  for (;;) {
    const rows = page.all(after) as { rowid: number; doc: string }[];
    for (const { rowid, doc } of rows) update.run(...added.values(JSON.parse(doc) as Doc), rowid);
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1].rowid;
  }
}
