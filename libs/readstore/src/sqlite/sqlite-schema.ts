/**
 * Names and SQL shared by the SQLite read store's statements and indexes. Collection names and
 * field paths are validated before they reach these functions, so nothing can escape the quoting.
 */

export const CHECKPOINTS_TABLE = 'rm_checkpoints';

/**
 * Stands for a null or missing value. JSON cannot hold it, and it sorts before every other value,
 * as null does in MongoDB, which keeps keyset comparisons free of NULL.
 */
export const NULL_KEY = '-9e999';

const KEY_PREFIX = 'key:';
const KIND_PREFIX = 'kind:';

export function tableName(collection: string): string {
  return `"${unquotedTableName(collection)}"`;
}

export function unquotedTableName(collection: string): string {
  return `rm_${collection}`;
}

/**
 * What conditions compare and sorts order by for a field without columns. Indexed fields have a
 * key and a kind column instead, filled from the same values on every write (field-key.ts).
 */
export function keyExpression(field: string): string {
  return field === 'id' ? 'id' : `coalesce(json_extract(doc, '$.${field}'), ${NULL_KEY})`;
}

/** The JSON type of a field ('text', 'integer', 'real', 'true', 'false', 'null', …); booleans extract as 1 and 0. */
export function typeExpression(field: string): string {
  return `json_type(doc, '$.${field}')`;
}

export function keyColumn(field: string): string {
  return `"${KEY_PREFIX}${columnSuffix(field)}"`;
}

/** 'string', 'number', 'boolean', or NULL for null, missing, objects and arrays. */
export function kindColumn(field: string): string {
  return `"${KIND_PREFIX}${columnSuffix(field)}"`;
}

/** The field whose key a column of the table holds, if it is a key column. */
export function keyColumnField(column: string): string | undefined {
  if (!column.startsWith(KEY_PREFIX)) return undefined;
  return column.slice(KEY_PREFIX.length).replace(/\^([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

/** SQLite ignores the case of column names, field paths do not: an upper-case letter becomes `^` and the letter. */
function columnSuffix(field: string): string {
  return field.replace(/[A-Z]/g, (letter) => `^${letter.toLowerCase()}`);
}

/**
 * `doc` is NULL for a tombstone, which keeps the position of the delete. The key and kind columns
 * of indexed fields are added by ensureCollection.
 */
export function createTableSql(collection: string): string {
  return `CREATE TABLE IF NOT EXISTS ${tableName(collection)} (id TEXT NOT NULL PRIMARY KEY, position TEXT NOT NULL, doc TEXT) STRICT`;
}

export const CREATE_CHECKPOINTS_SQL = `CREATE TABLE IF NOT EXISTS ${CHECKPOINTS_TABLE} (name TEXT NOT NULL PRIMARY KEY, position TEXT NOT NULL) STRICT`;

export function addColumnsSql(collection: string, field: string): string[] {
  return [`ALTER TABLE ${tableName(collection)} ADD COLUMN ${keyColumn(field)} ANY`, `ALTER TABLE ${tableName(collection)} ADD COLUMN ${kindColumn(field)} TEXT`];
}

/**
 * `id` closes every index, for keyset pagination. Not a partial index on `doc IS NOT NULL`: SQLite
 * rewrites every index whose condition reads a column an update sets, and every write sets `doc`.
 * Tombstones keep their key columns NULL instead, which no condition matches.
 */
export function createIndexSql(collection: string, fields: readonly string[]): string {
  const name = `"rm_${collection}(${fields.map(columnSuffix).join(',')})"`;
  const columns = [...fields.map((field) => (field === 'id' ? 'id' : keyColumn(field))), 'id'].join(', ');
  return `CREATE INDEX IF NOT EXISTS ${name} ON ${tableName(collection)} (${columns})`;
}
