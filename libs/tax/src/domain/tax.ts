import type Big from 'big.js';
import type { RoundingMode } from '@tally/kernel';

/** A component's tax treatment; `standard` unless the component overrides it. */
export type TaxCode = 'standard' | 'reduced' | 'exempt';
export const TAX_CODES: readonly TaxCode[] = ['standard', 'reduced', 'exempt'];

/** Whether prices exclude tax (tax is added on top) or include it (tax is taken out of them). */
export type TaxBehavior = 'exclusive' | 'inclusive';
export const TAX_BEHAVIORS: readonly TaxBehavior[] = ['exclusive', 'inclusive'];

/** Where a party is, for tax: an ISO 3166-1 alpha-2 country and, where the country taxes by region, its region code. */
export interface TaxLocation {
  country: string;
  region: string | null;
}

export interface TaxCustomer {
  /** null when the customer's country is unknown. */
  location: TaxLocation | null;
  tax_ids: readonly { type: string; value: string; status: 'pending' | 'verified' | 'invalid' }[];
  /** True while any of the customer's tax IDs failed validation: no reverse charge then. */
  tax_id_invalid: boolean;
}

/** One invoice line to tax: its amount after discounts, rounded to the currency. */
export interface TaxableLine {
  key: string;
  amount: Big;
  tax_code: TaxCode;
}

export interface TaxRequest {
  currency: string;
  /** ISO 8601; the rates in force at this moment apply. */
  date: string;
  behavior: TaxBehavior;
  seller: TaxLocation;
  customer: TaxCustomer;
  lines: readonly TaxableLine[];
}

export type TaxabilityReason =
  | 'standard_rated'
  | 'reduced_rated'
  | 'exempt'
  | 'reverse_charge'
  /** No rule for the customer's country (or region) in the table: no tax collected there. */
  | 'not_collecting';

/** One tax of one jurisdiction on one line (a Canadian line in British Columbia has GST and PST). */
export interface JurisdictionTax {
  /** `DE`, `CA`, `CA-BC`, … */
  jurisdiction: string;
  country: string;
  region: string | null;
  /** `vat`, `gst`, `hst`, `pst`, `qst`, … */
  tax_type: string;
  /** Percent, e.g. 19 for 19 %. */
  rate: Big;
  taxable_amount: Big;
  tax_amount: Big;
  rounding: RoundingMode;
}

export interface LineTax {
  key: string;
  /** The line's amount without tax: the amount itself when exclusive, the amount minus its tax when inclusive. */
  taxable_amount: Big;
  tax_amount: Big;
  /** Sum of the jurisdictions' percentages. */
  rate: Big;
  taxability_reason: TaxabilityReason;
  jurisdictions: JurisdictionTax[];
}

/** The invoice's tax summed by jurisdiction, tax type, rate and reason. */
export interface TaxBreakdownEntry {
  jurisdiction: string;
  country: string;
  region: string | null;
  tax_type: string;
  rate: Big;
  taxability_reason: TaxabilityReason;
  taxable_amount: Big;
  tax_amount: Big;
}

export interface TaxCalculation {
  /** Version of the rate table used, for auditors. */
  table_version: string;
  reverse_charge: boolean;
  lines: LineTax[];
  breakdown: TaxBreakdownEntry[];
}
