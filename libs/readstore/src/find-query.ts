import { assertFieldPath } from './names';
import type { After, Condition, FindQuery } from './read-store.port';

export type Scalar = string | number | boolean;

export function isScalar(value: unknown): value is Scalar {
  return typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

/** Rejects what an adapter could misread (NaN binds as NULL in SQLite; a MongoDB limit of 0 means "no limit"). */
export function assertFindQuery(query: FindQuery): void {
  if (!Number.isInteger(query.limit) || query.limit < 1) throw new RangeError(`Invalid limit: ${query.limit}`);
  for (const condition of query.where ?? []) assertCondition(condition);
  if (query.sort) {
    assertFieldPath(query.sort.field);
    if (query.sort.direction !== 'asc' && query.sort.direction !== 'desc') {
      throw new TypeError(`Invalid sort direction: ${String(query.sort.direction)}`);
    }
  }
  if (query.after) assertAfter(query.after);
}

function assertCondition({ field, op, value }: Condition): void {
  assertFieldPath(field);
  const valid =
    op === 'in' || op === 'nin'
      ? Array.isArray(value) && value.every(isScalar)
      : op === 'starts'
        ? typeof value === 'string'
        : op === 'eq'
          ? value === null || isScalar(value)
          : ['gte', 'gt', 'lte', 'lt'].includes(op) && isScalar(value);
  if (!valid) throw new TypeError(`Invalid condition: ${field} ${String(op)} ${JSON.stringify(value)}`);
}

function assertAfter(after: After): void {
  if (typeof after.id !== 'string' || !(after.value === null || isScalar(after.value))) {
    throw new TypeError(`Invalid cursor position: ${JSON.stringify(after)}`);
  }
}
