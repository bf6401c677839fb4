import type { Scalar } from '../find-query';
import type { Condition, FindQuery, SortSpec } from '../read-store.port';
import { prefixUpperBound } from './prefix-range';
import { keyExpression, NULL_KEY, tableName, typeExpression } from './sqlite-schema';

export type SqlValue = string | number;

export interface SqlQuery {
  sql: string;
  params: SqlValue[];
}

type Kind = 'string' | 'number' | 'boolean';

const OPERATORS = { eq: '=', gte: '>=', gt: '>', lte: '<=', lt: '<' } as const;
const DEFAULT_SORT: SortSpec = { field: 'id', direction: 'asc' };

/**
 * The SELECT for a validated find query: conditions ANDed, ordered by the sort key then id, keyset
 * on the pair, one row more than the limit so the caller knows whether more follow.
 */
export function findSql(collection: string, query: FindQuery): SqlQuery {
  const clauses = ['doc IS NOT NULL'];
  const params: SqlValue[] = [];
  const add = (part: SqlQuery) => {
    clauses.push(part.sql);
    params.push(...part.params);
  };
  for (const condition of query.where ?? []) add(conditionSql(condition));
  const sort = query.sort ?? DEFAULT_SORT;
  const direction = sort.direction === 'asc' ? 'ASC' : 'DESC';
  const key = keyExpression(sort.field);
  if (query.after) {
    const [beyond, reached] = sort.direction === 'asc' ? ['>', '>='] : ['<', '<='];
    const value = query.after.value === null ? -Infinity : bindable(query.after.value);
    // Spelled out rather than as a row value `(key, id) > (?, ?)`, which SQLite does not seek with
    // on an expression index: the first term is the index range, the second skips the tied rows.
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

function conditionSql({ field, op, value }: Condition): SqlQuery {
  const key = keyExpression(field);
  if (op === 'in') return inSql(field, value as readonly Scalar[]);
  if (op === 'starts') {
    const bound = prefixUpperBound(value as string);
    return bound === undefined
      ? guarded(field, 'string', { sql: `${key} >= ?`, params: [value as string] })
      : guarded(field, 'string', { sql: `${key} >= ? AND ${key} < ?`, params: [value as string, bound] });
  }
  if (value === null) return field === 'id' ? { sql: '0', params: [] } : { sql: `${key} = ${NULL_KEY}`, params: [] };
  const scalar = value as Scalar;
  return guarded(field, kindOf(scalar), { sql: `${key} ${OPERATORS[op]} ?`, params: [bindable(scalar)] });
}

/** Values keep their JSON type: each kind is matched only against fields of the same kind. */
function inSql(field: string, values: readonly Scalar[]): SqlQuery {
  const parts = (['string', 'number', 'boolean'] as const)
    .map((kind) => values.filter((value) => kindOf(value) === kind))
    .filter((group) => group.length > 0)
    .map((group) =>
      guarded(field, kindOf(group[0]), {
        sql: `${keyExpression(field)} IN (${group.map(() => '?').join(', ')})`,
        params: group.map(bindable),
      }),
    );
  if (parts.length === 0) return { sql: '0', params: [] };
  return { sql: `(${parts.map((part) => `(${part.sql})`).join(' OR ')})`, params: parts.flatMap((part) => part.params) };
}

/**
 * Adds the type check that SQLite's loose comparisons need: a string compares above every number,
 * booleans extract as 1 and 0, and objects extract as JSON text. `id` is always a string.
 */
function guarded(field: string, kind: Kind, comparison: SqlQuery): SqlQuery {
  const type = typeExpression(field);
  const guard =
    field === 'id'
      ? kind === 'string'
        ? undefined
        : '0'
      : { string: `${type} = 'text'`, number: `${type} IN ('integer', 'real')`, boolean: `${type} IN ('true', 'false')` }[kind];
  return guard === undefined ? comparison : { sql: `${comparison.sql} AND ${guard}`, params: comparison.params };
}

function kindOf(value: Scalar): Kind {
  return typeof value as Kind;
}

function bindable(value: Scalar): SqlValue {
  return typeof value === 'boolean' ? Number(value) : value;
}
