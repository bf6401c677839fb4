import { DomainError } from '@tally/kernel';
import { TAX_TABLE } from './rates/tax-rates';
import type { TaxLocation } from './tax';
import type { RatePeriod, TaxJurisdiction, TaxTable } from './tax-table';

/** True when the table lists the country as a member of the EU VAT area. */
export function isEuMember(country: string, table: TaxTable = TAX_TABLE): boolean {
  return table.jurisdictions.some((j) => j.country === country && j.region === null && j.eu);
}

/**
 * The jurisdictions whose taxes apply at a location, country first. A region with an entry of its
 * own replaces the country's tax or adds to it; any other region (or none) gets the country's tax
 * alone. Empty when the table has no rule there: no tax is collected.
 */
export function jurisdictionsFor(location: TaxLocation, table: TaxTable = TAX_TABLE): TaxJurisdiction[] {
  const national = table.jurisdictions.find((j) => j.country === location.country && j.region === null);
  const regional =
    location.region === null
      ? undefined
      : table.jurisdictions.find((j) => j.country === location.country && j.region === location.region);
  if (!regional) return national ? [national] : [];
  if (!national || regional.country_tax === 'replaced') return [regional];
  return [national, regional];
}

/** The period in force on `day` (YYYY-MM-DD, UTC): the one with the latest `from` on or before it. */
export function periodInForce(jurisdiction: TaxJurisdiction, day: string): RatePeriod {
  const period = jurisdiction.periods.reduce<RatePeriod | undefined>(
    (latest, p) => (p.from <= day && (!latest || p.from > latest.from) ? p : latest),
    undefined,
  );
  if (!period) {
    throw DomainError.invalid('tax.no_rate_in_force', `The tax table has no rate for ${jurisdiction.id} on ${day}`);
  }
  return period;
}
