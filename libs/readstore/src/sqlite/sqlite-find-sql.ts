import type { Scalar } from '../find-query';
import type { Condition, FindQuery, SortSpec } from '../read-store.port';
import type { Kind } from './field-key';
import { prefixUpperBound } from './prefix-range';
import { keyColumn, keyExpression, kindColumn, NULL_KEY, tableName, typeExpression } from './sqlite-schema';

export type SqlValue = string | number;

export interface SqlQuery {
  sql: string;
  params: SqlValue[];
}

/** How a field is read: its key, and the check that its value has a kind (undefined: always true). */
interface FieldSql {
  key: string;
  is(kind: Kind): string | undefined;
}

const OPERATORS = { eq: '=', gte: '>=', gt: '>', lte: '<=', lt: '<' } as const;
const DEFAULT_SORT: SortSpec = { field: 'id', direction: 'asc' };
const JSON_TYPES = { string: `= 'text'`, number: `IN ('integer', 'real')`, boolean: `IN ('true', 'false')` } as const;

/**
 * The SELECT for a validated find query: conditions ANDed, ordered by the sort key then id, keyset
 * on the pair, one row more than the limit so the caller knows whether more follow.
 */
export function findSql(collection: string, query: FindQuery, indexedFields: readonly string[]): SqlQuery {
  const read = (field: string) => readField(field, indexedFields);
  const clauses = ['doc IS NOT NULL'];
  const params: SqlValue[] = [];
  const add = (part: SqlQuery) => {
    clauses.push(part.sql);
    params.push(...part.params);
  };
  for (const condition of query.where ?? []) add(conditionSql(condition, read(condition.field)));
  const sort = query.sort ?? DEFAULT_SORT;
  const direction = sort.direction === 'asc' ? 'ASC' : 'DESC';
  const { key } = read(sort.field);
  // Only tombstones have a NULL key column; this lets the index seek past them.
  if (indexedFields.includes(sort.field)) clauses.push(`${key} IS NOT NULL`);
  if (query.after) {
    const [beyond, reached] = sort.direction === 'asc' ? ['>', '>='] : ['<', '<='];
    const value = query.after.value === null ? -Infinity : bindable(query.after.value);
    // Spelled out rather than as a row value `(key, id) > (?, ?)`: the first term is the index
    // range, the second skips the tied rows.
    add(
      sort.field === 'id'
        ? { sql: `id ${beyond} ?`, params: [query.after.id] }
        : { sql: `${key} ${reached} ? AND (${key} ${beyond} ? OR id ${beyond} ?)`, params: [value, value, query.after.id] },
    );
  }
  const order = sort.field === 'id' ? `id ${direction}` : `${key} ${direction}, id ${direction}`;
  return {
    sql: `SELECT doc FROM ${tableName(collection)} WHERE ${clauses.join(' AND ')} ORDER BY ${order} LIMIT ?`,
    params: [...params, query.limit + 1],
  };
}

function conditionSql({ field, op, value }: Condition, read: FieldSql): SqlQuery {
  const { key } = read;
  if (op === 'in') return inSql(read, value as readonly Scalar[]);
  if (op === 'nin') {
    const matched = inSql(read, value as readonly Scalar[]);
    return { sql: `NOT coalesce(${matched.sql}, 0)`, params: matched.params };
  }
  if (op === 'starts') {
    const bound = prefixUpperBound(value as string);
    return bound === undefined
      ? guarded(read, 'string', { sql: `${key} >= ?`, params: [value as string] })
      : guarded(read, 'string', { sql: `${key} >= ? AND ${key} < ?`, params: [value as string, bound] });
  }
  if (value === null) return field === 'id' ? { sql: '0', params: [] } : { sql: `${key} = ${NULL_KEY}`, params: [] };
  const scalar = value as Scalar;
  return guarded(read, kindOf(scalar), { sql: `${key} ${OPERATORS[op]} ?`, params: [bindable(scalar)] });
}

/** Values keep their JSON type: each kind is matched only against fields of the same kind. */
function inSql(read: FieldSql, values: readonly Scalar[]): SqlQuery {
  const parts = (['string', 'number', 'boolean'] as const)
    .map((kind) => values.filter((value) => kindOf(value) === kind))
    .filter((group) => group.length > 0)
    .map((group) =>
      guarded(read, kindOf(group[0]), {
        sql: `${read.key} IN (${group.map(() => '?').join(', ')})`,
        params: group.map(bindable),
      }),
    );
  if (parts.length === 0) return { sql: '0', params: [] };
  return { sql: `(${parts.map((part) => `(${part.sql})`).join(' OR ')})`, params: parts.flatMap((part) => part.params) };
}

/**
 * Indexed fields are read from their key and kind columns, others from the JSON text. The kind
 * check is what SQLite's loose comparisons need: a string compares above every number, booleans
 * key as 1 and 0, and objects as JSON text. `id` is always a string.
 */
function readField(field: string, indexedFields: readonly string[]): FieldSql {
  if (field === 'id') return { key: 'id', is: (kind) => (kind === 'string' ? undefined : '0') };
  if (indexedFields.includes(field)) return { key: keyColumn(field), is: (kind) => `${kindColumn(field)} = '${kind}'` };
  return { key: keyExpression(field), is: (kind) => `${typeExpression(field)} ${JSON_TYPES[kind]}` };
}

function guarded(read: FieldSql, kind: Kind, comparison: SqlQuery): SqlQuery {
  const guard = read.is(kind);
  return guard === undefined ? comparison : { sql: `${comparison.sql} AND ${guard}`, params: comparison.params };
}

function kindOf(value: Scalar): Kind {
  return typeof value as Kind;
}

function bindable(value: Scalar): SqlValue {
  return typeof value === 'boolean' ? Number(value) : value;
}
