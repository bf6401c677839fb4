import type { Filter, Sort } from 'mongodb';
import type { After, Condition, FindQuery, SortSpec } from '../read-store.port';
import type { StoredDocument } from './stored-document';

const DEFAULT_SORT: SortSpec = { field: 'id', direction: 'asc' };
export const NOT_DELETED: Filter<StoredDocument> = { _deleted: { $ne: true } };

/** A document's `id` is its `_id`. */
export function mongoPath(field: string): string {
  return field === 'id' ? '_id' : field;
}

/**
 * The filter for a validated find query: tombstones out, conditions ANDed, and the keyset on
 * (sort value, _id). Null and missing values sort first, as in MongoDB's own order.
 */
export function mongoFindFilter(query: FindQuery): Filter<StoredDocument> {
  const clauses = [NOT_DELETED, ...(query.where ?? []).map(conditionFilter)];
  if (query.after) clauses.push(keysetFilter(query.sort ?? DEFAULT_SORT, query.after));
  return { $and: clauses };
}

export function mongoSort(sort: SortSpec = DEFAULT_SORT): Sort {
  const direction = sort.direction === 'asc' ? 1 : -1;
  return sort.field === 'id' ? { _id: direction } : { [sort.field]: direction, _id: direction };
}

function conditionFilter({ field, op, value }: Condition): Filter<StoredDocument> {
  const path = mongoPath(field);
  if (op === 'starts') return { [path]: { $regex: `^${escapeRegExp(value as string)}` } };
  return { [path]: { [`$${op}`]: value } };
}

function keysetFilter(sort: SortSpec, { value, id }: After): Filter<StoredDocument> {
  const ascending = sort.direction === 'asc';
  const beyond = ascending ? '$gt' : '$lt';
  if (sort.field === 'id') return { _id: { [beyond]: id } };
  const path = mongoPath(sort.field);
  if (value === null) {
    return ascending
      ? { $or: [{ [path]: null, _id: { $gt: id } }, { [path]: { $ne: null } }] }
      : { [path]: null, _id: { $lt: id } };
  }
  const later = [{ [path]: { [beyond]: value } }, { [path]: { $eq: value }, _id: { [beyond]: id } }];
  return { $or: ascending ? later : [...later, { [path]: null }] };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
