import { existsInVersion } from '@tally/kernel';

/**
 * The spec's public event types of capabilities Tally has not built yet (wallets, refunds, credit
 * notes' refunds, commissions, attach, FX locks): nothing publishes them, but
 * an endpoint may already subscribe to them. A type leaves this list when the view of the resource
 * that publishes it declares it.
 */
export const ANNOUNCED_EVENT_TYPES: readonly string[] = [
  'invoice.fx_rate_locked',
  'commission.reversed',
  'attach.completed',
];

/**
 * The spec's family of platform notices (`service.*`). Tally publishes no notice yet, so an
 * endpoint may subscribe to the family, which matches nothing until a notice type exists.
 */
const SERVICE_NOTICES = 'service';

/** The public event types an endpoint may subscribe to (every context's, composed by the apps), and their categories. */
export interface EventCatalogue {
  types: ReadonlySet<string>;
  /** The categories of `category.*` patterns: the part of each type before its first dot, and the notices' family. */
  categories: ReadonlySet<string>;
}

export function eventCatalogue(types: Iterable<string>): EventCatalogue {
  const known = new Set(types);
  return { types: known, categories: new Set([...[...known].map((type) => type.slice(0, type.indexOf('.'))), SERVICE_NOTICES]) };
}

/** The catalogue as API version `apiVersion` knows it: without the types that exist only from a later version, nor the categories left with none. */
export const catalogueInVersion = (catalogue: EventCatalogue, apiVersion: string): EventCatalogue =>
  eventCatalogue([...catalogue.types].filter((type) => existsInVersion(type, apiVersion)));

/** Whether an endpoint's filter entry is `*`, a `category.*` pattern of a known category, or a known type. */
export function isEventFilter(entry: string, catalogue: EventCatalogue): boolean {
  if (entry === '*') return true;
  if (entry.endsWith('.*')) return catalogue.categories.has(entry.slice(0, -2));
  return catalogue.types.has(entry);
}

/** Whether an event of `type` matches one of the endpoint's filter entries. */
export function matchesEventFilter(filter: readonly string[], type: string): boolean {
  return filter.some((entry) => entry === '*' || entry === type || (entry.endsWith('.*') && type.startsWith(entry.slice(0, -1))));
}
