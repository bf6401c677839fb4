import type { TaxCode } from '@tally/tax/published';
import type { PriceVersion, StoredPriceVersion } from './plan.events';
import type { Pricing } from './pricing/pricing';
import { withPricingDefaults } from './pricing/stored-pricing';

/** A component as it prices the periods that start at a given moment. */
export interface ComponentInForce {
  code: string;
  pricing: Pricing;
  tax_code: TaxCode | null;
  /** The price-book entry in force: what an invoice line names so an auditor can find it. */
  price_version: number;
  effective_at: string;
}

/** The entry as it prices now: its pricing with every field it was stored without at its default. */
export const withPriceVersionDefaults = (entry: StoredPriceVersion): PriceVersion => ({ ...entry, pricing: entry.pricing && withPricingDefaults(entry.pricing) });

/**
 * Timestamps are ISO 8601 in UTC with milliseconds (`toISOString()`), so text order is time
 * order. Of two entries taking effect at the same moment, the later version wins.
 */
const laterThan = (a: PriceVersion, b: PriceVersion): boolean =>
  a.effective_at > b.effective_at || (a.effective_at === b.effective_at && a.version > b.version);

/**
 * The components in force for a period starting at `at`: per component, its newest entry that
 * took effect at or before `at`, unless that entry removed it. In the order components were added.
 * The components a plan was created with are in force from the beginning of time, as a Stripe
 * price is: a sandbox test clock may start before the plan was made.
 */
export function componentsInForce(versions: readonly PriceVersion[], at: string): ComponentInForce[] {
  const current = new Map<string, PriceVersion>();
  const created = versions.reduce((first, entry) => (entry.created_at < first ? entry.created_at : first), versions[0]?.created_at ?? '');
  for (const entry of versions) {
    const initial = entry.change === 'added' && entry.created_at === created && entry.effective_at === created;
    if (entry.effective_at > at && !initial) continue;
    const known = current.get(entry.component_code);
    if (!known || laterThan(entry, known)) current.set(entry.component_code, entry);
  }
  return [...current.values()]
    .filter((entry): entry is PriceVersion & { pricing: Pricing } => entry.change !== 'removed' && entry.pricing !== null)
    .sort((a, b) => firstVersionOf(versions, a.component_code) - firstVersionOf(versions, b.component_code))
    .map((entry) => ({ code: entry.component_code, pricing: entry.pricing, tax_code: entry.tax_code, price_version: entry.version, effective_at: entry.effective_at }));
}

/** Entries that take effect after `at`, in the order they will. */
export function scheduledChanges(versions: readonly PriceVersion[], at: string): PriceVersion[] {
  return versions.filter((entry) => entry.effective_at > at).sort((a, b) => (laterThan(a, b) ? 1 : -1));
}

/** The component's last entry in its own timeline, scheduled ones included (undefined: never added). */
export function lastEntryOf(versions: readonly PriceVersion[], code: string): PriceVersion | undefined {
  let last: PriceVersion | undefined;
  for (const entry of versions) {
    if (entry.component_code === code && (!last || laterThan(entry, last))) last = entry;
  }
  return last;
}

function firstVersionOf(versions: readonly PriceVersion[], code: string): number {
  return versions.find((entry) => entry.component_code === code)?.version ?? Number.MAX_SAFE_INTEGER;
}
