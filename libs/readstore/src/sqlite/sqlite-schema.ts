/**
 * Names and expressions shared by the SQLite read store's statements and indexes. Collection names
 * and field paths are validated before they reach these functions, so nothing can escape the quoting.
 */

export const CHECKPOINTS_TABLE = 'rm_checkpoints';

/**
 * Stands for a null or missing value. JSON cannot hold it, and it sorts before every other value,
 * as null does in MongoDB, which keeps keyset comparisons free of NULL.
 */
export const NULL_KEY = '-9e999';

export function tableName(collection: string): string {
  return `"rm_${collection}"`;
}

/**
 * What conditions compare, sorts order by and indexes hold. Every statement uses this exact text,
 * because SQLite uses an expression index only for the same expression.
 */
export function keyExpression(field: string): string {
  return field === 'id' ? 'id' : `coalesce(json_extract(doc, '$.${field}'), ${NULL_KEY})`;
}

/** The JSON type of a field ('text', 'integer', 'real', 'true', 'false', 'null', …); booleans extract as 1 and 0. */
export function typeExpression(field: string): string {
  return `json_type(doc, '$.${field}')`;
}

/** `doc` is NULL for a tombstone, which keeps the position of the delete. */
export function createTableSql(collection: string): string {
  return `CREATE TABLE IF NOT EXISTS ${tableName(collection)} (id TEXT NOT NULL PRIMARY KEY, position TEXT NOT NULL, doc TEXT) STRICT`;
}

export const CREATE_CHECKPOINTS_SQL = `CREATE TABLE IF NOT EXISTS ${CHECKPOINTS_TABLE} (name TEXT NOT NULL PRIMARY KEY, position TEXT NOT NULL) STRICT`;

/** `id` closes every index, for keyset pagination; tombstones stay out of it. */
export function createIndexSql(collection: string, fields: readonly string[]): string {
  const name = `"rm_${collection}(${fields.join(',')})"`;
  const columns = [...fields.map(keyExpression), 'id'].join(', ');
  return `CREATE INDEX IF NOT EXISTS ${name} ON ${tableName(collection)} (${columns}) WHERE doc IS NOT NULL`;
}
