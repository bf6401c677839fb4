import { DomainError, isWithinTimeRange, parseInstant, timestampOutOfRange } from '@tally/kernel';
import type { After, Condition, Doc, FilterOp, FindQuery, FindResult, SortSpec } from '@tally/readstore';
import type { ListPageCursors } from '@tally/cells';

export const DEFAULT_LIMIT = 25;
export const MAX_LIMIT = 100;
/** The newest first, unless a ListSpec says otherwise. */
export const DEFAULT_SORT: SortSpec = { field: 'created_at', direction: 'desc' };

export interface FilterSpec {
  ops: readonly FilterOp[];
  /** Timestamps are normalised to ISO 8601 UTC so they compare as stored. */
  type?: 'string' | 'timestamp';
  /** An enum's values: `eq` and `in` take only these, so a misspelt value is refused rather than matching nothing. */
  values?: readonly string[];
}

/** A filter on a moment: `field[gte|gt|lte|lt]=…`. */
export const TIMESTAMP_FILTER: FilterSpec = { ops: ['gte', 'gt', 'lte', 'lt'], type: 'timestamp' };

/** What a list endpoint allows: the sortable fields and the filters per field. */
export interface ListSpec {
  sortable: readonly string[];
  filters: Readonly<Record<string, FilterSpec>>;
  defaultSort?: SortSpec;
}

export interface ListPage<T> {
  object: 'list';
  data: T[];
  has_more: boolean;
  next_cursor: string | null;
}

const RESERVED = new Set(['limit', 'cursor', 'sort']);
const FILTER_KEY = /^([a-z_][a-z0-9_.]*)(?:\[(gte|gt|lte|lt|starts)\])?$/;

/**
 * Turns `limit`, `cursor`, `sort=field:asc|desc` and filters (`field=v`, `field=v1,v2`,
 * `field[gte]=v`, …) into a read-store query. Unknown parameters and filters are refused, and so
 * is a cursor of another list, sort or filters.
 */
export function parseListQuery(query: Record<string, unknown>, spec: ListSpec, cursors: ListPageCursors): FindQuery {
  const sort = parseSort(query.sort, spec);
  const where: Condition[] = [];
  for (const [key, raw] of Object.entries(query)) {
    if (RESERVED.has(key)) continue;
    where.push(parseFilter(key, raw, spec));
  }
  const after = query.cursor === undefined ? undefined : cursors.decode(query.cursor, { sort, where });
  return { where, sort, limit: parseLimit(query.limit), after };
}

/** The API page for a read-store result: the next cursor points after the last item. */
export function toPage<T extends Doc, R>(result: FindResult<T>, query: FindQuery, present: (doc: T) => R, cursors: ListPageCursors): ListPage<R> {
  const last = result.items[result.items.length - 1];
  const sort = query.sort!;
  return {
    object: 'list',
    data: result.items.map(present),
    has_more: result.hasMore,
    next_cursor: result.hasMore && last ? cursors.encode({ sort, where: query.where }, { value: (valueAt(last, sort.field) ?? null) as After['value'], id: last.id }) : null,
  };
}

function parseSort(raw: unknown, spec: ListSpec): SortSpec {
  if (raw === undefined) return spec.defaultSort ?? DEFAULT_SORT;
  const match = typeof raw === 'string' ? /^([a-z_]+):(asc|desc)$/.exec(raw) : null;
  if (!match || !spec.sortable.includes(match[1])) {
    throw invalidParameter('sort', `sort takes field:asc or field:desc with a field of ${spec.sortable.join(', ')}`);
  }
  return { field: match[1], direction: match[2] as SortSpec['direction'] };
}

/** `limit`: a page size from 1 to `max`, `fallback` when absent (the list conventions' unless a route says otherwise). */
export function parseLimit(raw: unknown, { fallback, max } = { fallback: DEFAULT_LIMIT, max: MAX_LIMIT }): number {
  if (raw === undefined) return fallback;
  const limit = typeof raw === 'string' && /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!(limit >= 1 && limit <= max)) throw invalidParameter('limit', `limit is a whole number from 1 to ${max}`);
  return limit;
}

function parseFilter(key: string, raw: unknown, spec: ListSpec): Condition {
  const match = FILTER_KEY.exec(key);
  const field = match?.[1];
  const filter = field && Object.hasOwn(spec.filters, field) ? spec.filters[field] : undefined;
  if (!match || !field || !filter) {
    throw invalidParameter(key, `Unknown parameter ${key}; filters: ${Object.keys(spec.filters).join(', ') || 'none'}`);
  }
  if (typeof raw !== 'string') throw invalidParameter(key, `${key} takes one value`);
  const explicit = match[2] as FilterOp | undefined;
  const values = explicit ? [raw] : raw.split(',');
  const op: FilterOp = explicit ?? (values.length > 1 ? 'in' : 'eq');
  if (!filter.ops.includes(op)) throw invalidParameter(key, `${field} does not support ${op}; it supports ${filter.ops.join(', ')}`);
  const unknown = filter.values && !explicit ? values.find((value) => !filter.values!.includes(value)) : undefined;
  if (unknown !== undefined) throw invalidParameter(key, `${field} takes ${filter.values!.join(', ')}; ${JSON.stringify(unknown)} is none of them`);
  const normalised = values.map((value) => (filter.type === 'timestamp' ? instantParameter(key, value).toISOString() : value));
  return { field, op, value: op === 'in' ? normalised : normalised[0] };
}

/** A query parameter holding a moment (see parseInstant), in TIME_RANGE. */
export function instantParameter(key: string, raw: unknown): Date {
  const time = typeof raw === 'string' ? parseInstant(raw) : undefined;
  if (!time) throw invalidParameter(key, `${key} takes an ISO 8601 date or timestamp with a time zone, e.g. 2026-06-01 or 2026-06-01T00:00:00Z`);
  if (!isWithinTimeRange(raw as string)) throw timestampOutOfRange(key);
  return time;
}

const valueAt = (doc: Doc, path: string): unknown => path.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown> | undefined)?.[key], doc);

/** A query parameter the route does not take as given: 400 `request.invalid_parameter` naming it. */
export const invalidParameter = (field: string, message: string): DomainError =>
  DomainError.invalid('request.invalid_parameter', message, [{ field, code: 'request.invalid_parameter', message }]);
