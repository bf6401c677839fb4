import { DomainError, existsInVersion } from '@tally/kernel';
import type { Condition } from '@tally/readstore';
import { invalidParameter } from '@tally/runtime';
import type { ApiVersion } from '../versions/api-versions';

/**
 * Whether an entry of a `type` filter is a public event type of `version`, a `category.*` pattern
 * of a category it knows, or `*` (as the filters of webhook endpoints pinned to that version).
 */
export type EventTypeFilter = (entry: string, version: ApiVersion) => boolean;
export const EVENT_TYPE_FILTER = Symbol('EventTypeFilter');

const isPattern = (entry: string): boolean => entry === '*' || entry.endsWith('.*');

/**
 * The read-store conditions of the event log's `type` filter. Exact types (one, or a comma list)
 * stay as they are; a pattern matches as endpoint filters do: `subscription.*` by prefix (on the
 * type index), `*` everything. A pattern stands alone, since conditions combine with AND. An
 * entry that is no known type or category is refused rather than matching nothing.
 */
export function eventTypeConditions(condition: Condition, isKnown: (entry: string) => boolean): Condition[] {
  if (condition.op !== 'eq' && condition.op !== 'in') return [condition];
  const entries = (Array.isArray(condition.value) ? condition.value : [condition.value]).map(String);
  const unknown = entries.find((entry) => !isKnown(entry));
  if (unknown !== undefined) {
    const message = `${unknown} is not an event type, a category.* pattern of a known category, or *`;
    throw DomainError.invalid('event.unknown_type', message, [{ field: 'type', code: 'event.unknown_type', message }]);
  }
  const pattern = entries.find(isPattern);
  if (pattern === undefined) return [condition];
  if (entries.length > 1) throw invalidParameter('type', 'A pattern (category.* or *) stands alone in type; list exact types to match several of them');
  return pattern === '*' ? [] : [{ field: 'type', op: 'starts', value: pattern.slice(0, -1) }];
}

/**
 * The condition that leaves out of the log the events of `types` (the catalogue) that `version`
 * does not know, in the query itself, so that no page comes back short; none when it knows them all.
 */
export function laterTypesLeftOut(types: readonly string[], version: ApiVersion): Condition[] {
  const later = types.filter((type) => !existsInVersion(type, version));
  return later.length === 0 ? [] : [{ field: 'type', op: 'nin', value: later }];
}
