import type { Doc } from '../read-store.port';
import { fieldKey } from './field-key';
import { keyColumn, kindColumn, tableName } from './sqlite-schema';

export type ColumnValue = string | number | null;

/**
 * The indexed fields of one collection's table and the statements that write their key and kind
 * columns. Column values come in field order, key then kind: `[key1, kind1, key2, kind2, …]`.
 */
export class CollectionLayout {
  /** The stored position, then the column values. */
  readonly selectSql: string;
  /** id, position, doc, then the column values. */
  readonly insertSql: string;
  /** All NULL, which no condition matches. */
  readonly tombstone: readonly ColumnValue[];
  private readonly paths: readonly string[][];
  private readonly updates = new Map<string, string>();

  constructor(
    private readonly collection: string,
    readonly fields: readonly string[],
  ) {
    const columns = fields.flatMap((field) => [keyColumn(field), kindColumn(field)]);
    const table = tableName(collection);
    this.selectSql = `SELECT ${['position', ...columns].join(', ')} FROM ${table} WHERE id = ?`;
    this.insertSql = `INSERT INTO ${table} (${['id', 'position', 'doc', ...columns].join(', ')}) VALUES (${['?', '?', '?', ...columns.map(() => '?')].join(', ')})`;
    this.tombstone = columns.map(() => null);
    this.paths = fields.map((field) => field.split('.'));
  }

  values(doc: Doc): ColumnValue[] {
    const values: ColumnValue[] = [];
    for (const path of this.paths) values.push(...fieldKey(doc, path));
    return values;
  }

  /**
   * The UPDATE of a stored row to new column values: it sets position, doc (taking them in that
   * order) and the columns of the fields whose key or kind changed, and takes the id last. Only
   * those columns: SQLite rewrites every index on a column an update sets, even to the value it
   * had, and most updates leave most keys as they were.
   */
  update(stored: readonly ColumnValue[], values: readonly ColumnValue[]): { sql: string; changedValues: ColumnValue[] } {
    const changed: number[] = [];
    for (let field = 0; field < this.fields.length; field++) {
      const [key, kind] = [2 * field, 2 * field + 1];
      if (stored[key] !== values[key] || stored[kind] !== values[kind]) changed.push(field);
    }
    return { sql: this.updateSql(changed), changedValues: changed.flatMap((field) => values.slice(2 * field, 2 * field + 2)) };
  }

  private updateSql(changed: readonly number[]): string {
    const shape = changed.join(',');
    let sql = this.updates.get(shape);
    if (sql === undefined) {
      const sets = ['position', 'doc', ...changed.flatMap((field) => [keyColumn(this.fields[field]), kindColumn(this.fields[field])])];
      sql = `UPDATE ${tableName(this.collection)} SET ${sets.map((column) => `${column} = ?`).join(', ')} WHERE id = ?`;
      this.updates.set(shape, sql);
    }
    return sql;
  }
}
