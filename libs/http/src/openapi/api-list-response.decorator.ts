import { applyDecorators, type Type } from '@nestjs/common';
import { ApiOkResponse, ApiProperty, ApiQuery, ApiSchema } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type { FilterOp } from '@tally/readstore';
import { DEFAULT_LIMIT, DEFAULT_SORT, MAX_LIMIT, type ListSpec } from '@tally/runtime';
import { INSTANT_SCHEMA } from './field-schemas';

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
    ApiPageParameters(),
    ...(spec ? [...sortParameter(spec), ...filterParameters(spec)] : []),
  );
}

/** `limit` (from 1 to `max`, `fallback` when absent: the list conventions unless a route says otherwise) and `cursor`. */
export function ApiPageParameters({ fallback, max } = { fallback: DEFAULT_LIMIT, max: MAX_LIMIT }): MethodDecorator {
  return applyDecorators(
    ApiQuery({ name: 'limit', required: false, schema: { type: 'integer', minimum: 1, maximum: max, default: fallback }, description: 'Items per page' }),
    ApiQuery({ name: 'cursor', required: false, schema: CURSOR_SCHEMA, description: 'The `next_cursor` of the previous page, as it was sent; it holds the page’s sort' }),
  );
}

/** Opaque, but of the shape ListCursors issues: a payload and its signature, both base64url. */
const CURSOR_SCHEMA = { type: 'string', minLength: 1, pattern: '^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+$', example: 'eyJzIjoiY3JlYXRlZF9hdDpkZXNjIn0.bXVzdC1iZS1zaWduZWQ' };

function sortParameter({ sortable, defaultSort = DEFAULT_SORT }: ListSpec) {
  if (sortable.length === 0) return [];
  const values = sortable.flatMap((field) => [`${field}:asc`, `${field}:desc`]);
  const schema = { type: 'string', enum: values, default: `${defaultSort.field}:${defaultSort.direction}` };
  return [ApiQuery({ name: 'sort', required: false, schema, description: 'The field to sort by, and the direction' })];
}

function filterParameters({ filters }: ListSpec) {
  return Object.entries(filters).flatMap(([field, { ops, type, values }]) => {
    const timestamp = type === 'timestamp';
    const value = timestamp ? 'a date (midnight UTC) or a timestamp with its time zone' : 'a value';
    const anyOf = ops.includes('in');
    const equals = values ? `one of ${values.join(', ')}` : value;
    const equality = ops.includes('eq') || anyOf ? [ApiQuery({ name: field, required: false, schema: equalitySchema(values, anyOf), description: equalityDescription(field, anyOf, equals) })] : [];
    const comparisons = ops
      .filter((op): op is keyof typeof COMPARISONS => op in COMPARISONS)
      .map((op) => ApiQuery({ name: `${field}[${op}]`, required: false, schema: timestamp ? INSTANT_SCHEMA : { type: 'string' }, description: `${field} ${COMPARISONS[op]} ${value}` }));
    return [...equality, ...comparisons];
  });
}

/** An enum filter's values, or a comma list of them where it takes several. */
function equalitySchema(values: readonly string[] | undefined, anyOf: boolean): SchemaObject {
  if (!values) return { type: 'string' };
  if (!anyOf) return { type: 'string', enum: [...values] };
  const one = `(${values.map(escapeRegExp).join('|')})`;
  return { type: 'string', pattern: `^${one}(,${one})*$`, example: values[0] };
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const equalityDescription = (field: string, anyOf: boolean, value: string): string => `${field} equals ${value}${anyOf ? '; comma-separated values match any of them' : ''}`;

const COMPARISONS: Record<Exclude<FilterOp, 'eq' | 'in'>, string> = { gte: '≥', gt: '>', lte: '≤', lt: '<', starts: 'starts with' };
