import type { FindQuery, FindResult } from '@tally/readstore';
import type { TaxIdResource } from './customer.view';

/**
 * One page of a customer's tax IDs, which live inside the customer's document: ordered by
 * `created_at`, ties broken by id in the same direction, resumed after the cursor's tax ID as a
 * read-store keyset would be, so `toPage` builds the usual cursor.
 */
export function taxIdPage(taxIds: readonly TaxIdResource[], { sort, after, limit }: FindQuery): FindResult<TaxIdResource> {
  const direction = sort?.direction === 'asc' ? 1 : -1;
  const ordered = [...taxIds].sort((a, b) => direction * compareKeys([a.created_at, a.id], [b.created_at, b.id]));
  const rest = after ? ordered.filter((t) => direction * compareKeys([t.created_at, t.id], [String(after.value), after.id]) > 0) : ordered;
  return { items: rest.slice(0, limit), hasMore: rest.length > limit };
}

type Key = readonly [createdAt: string, id: string];

const compareKeys = ([atA, idA]: Key, [atB, idB]: Key): number => compare(atA, atB) || compare(idA, idB);

const compare = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
