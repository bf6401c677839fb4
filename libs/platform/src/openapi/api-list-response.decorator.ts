import { applyDecorators, type Type } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiQuery, ApiSchema } from '@nestjs/swagger';
import type { FilterOp } from '@tally/readstore';
import { DEFAULT_LIMIT, MAX_LIMIT, type ListSpec } from '../http/list-query';

const pages = new Map<Type, Type>();

/** The page schema of a list of `item`s, named after it (`CustomerResponse` → `CustomerResponseList`). */
function listPageOf(item: Type): Type {
  const known = pages.get(item);
  if (known) return known;
  class ListPage {}
  ApiSchema({ name: `${item.name}List` })(ListPage);
  ApiProperty({ enum: ['list'] })(ListPage.prototype, 'object');
  ApiProperty({ type: [item] })(ListPage.prototype, 'data');
  ApiProperty({ type: Boolean })(ListPage.prototype, 'has_more');
  ApiProperty({ type: String, nullable: true, description: 'Pass it as `cursor` for the next page; null on the last page' })(ListPage.prototype, 'next_cursor');
  pages.set(item, ListPage);
  return ListPage;
}

/**
 * Documents a list endpoint: a page of `item`s, `limit` and `cursor`, and, from the endpoint's
 * ListSpec, `sort` and the filters (`field=v`, `field=v1,v2`, `field[op]=v`).
 */
export function ApiListResponse(item: Type, spec?: ListSpec): MethodDecorator {
  return applyDecorators(
    ApiOkResponse({ type: listPageOf(item), description: 'One page; pass its `next_cursor` as `cursor` for the next' }),
    ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: MAX_LIMIT, default: DEFAULT_LIMIT } }),
    ApiQuery({ name: 'cursor', required: false, schema: { type: 'string' }, description: 'The `next_cursor` of the previous page' }),
    ...(spec ? [...sortParameter(spec), ...filterParameters(spec)] : []),
  );
}

function sortParameter({ sortable }: ListSpec) {
  if (sortable.length === 0) return [];
  const values = sortable.flatMap((field) => [`${field}:asc`, `${field}:desc`]);
  return [ApiQuery({ name: 'sort', required: false, schema: { type: 'string', enum: values } })];
}

function filterParameters({ filters }: ListSpec) {
  return Object.entries(filters).flatMap(([field, { ops, type }]) => {
    const value = type === 'timestamp' ? 'an ISO 8601 timestamp' : 'a value';
    const equality = ops.includes('eq') || ops.includes('in') ? [ApiQuery({ name: field, required: false, schema: { type: 'string' }, description: equalityDescription(field, ops.includes('in'), value) })] : [];
    const comparisons = ops
      .filter((op): op is keyof typeof COMPARISONS => op in COMPARISONS)
      .map((op) => ApiQuery({ name: `${field}[${op}]`, required: false, schema: { type: 'string' }, description: `${field} ${COMPARISONS[op]} ${value}` }));
    return [...equality, ...comparisons];
  });
}

const equalityDescription = (field: string, anyOf: boolean, value: string): string => `${field} equals ${value}${anyOf ? '; comma-separated values match any of them' : ''}`;

const COMPARISONS: Record<Exclude<FilterOp, 'eq' | 'in'>, string> = { gte: '≥', gt: '>', lte: '≤', lt: '<', starts: 'starts with' };
