import type { RoundingMode } from '@tally/kernel';

/**
 * The rates a jurisdiction charged from `from` (YYYY-MM-DD, a UTC day) until the next period
 * begins, in percent as decimal strings (`'25.5'`, `'9.975'`).
 */
export interface RatePeriod {
  from: string;
  standard: string;
  /** null where the jurisdiction has no reduced rate: reduced lines pay the standard rate there. */
  reduced: string | null;
}

/**
 * How a region's tax meets its country's: `replaced` (a Canadian HST province charges the HST
 * instead of the federal GST) or `kept` (a PST or QST province charges its tax on top of the GST).
 */
export type CountryTax = 'replaced' | 'kept';

export interface TaxJurisdiction {
  /** `DE`, `CA`, `CA-BC`: the country, or the country and region joined by a hyphen. */
  id: string;
  country: string;
  /** null for a country-level entry. */
  region: string | null;
  /** `vat`, `gst`, `hst`, `pst`, `rst`, `qst`, `consumption`, … */
  tax_type: string;
  /** Member of the EU VAT area, for the reverse charge. */
  eu: boolean;
  rounding: RoundingMode;
  /** Region entries only; null on a country. */
  country_tax: CountryTax | null;
  /** Oldest first. A rate change is a new period; an old period is never edited. */
  periods: readonly RatePeriod[];
}

export interface TaxTable {
  /** The day the table's rates were last known to be right (YYYY-MM-DD). */
  version: string;
  jurisdictions: readonly TaxJurisdiction[];
}
