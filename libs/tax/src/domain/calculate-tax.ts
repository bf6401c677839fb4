import Big from 'big.js';
import { DomainError, roundToCurrency } from '@tally/kernel';
import { isEuMember, jurisdictionsFor, periodInForce } from './jurisdictions';
import { TAX_TABLE } from './rates/tax-rates';
import type {
  JurisdictionTax,
  LineTax,
  TaxabilityReason,
  TaxableLine,
  TaxBehavior,
  TaxCalculation,
  TaxCode,
  TaxLocation,
  TaxRequest,
} from './tax';
import { breakdownOf } from './tax-breakdown';
import type { TaxJurisdiction, TaxTable } from './tax-table';

/** One tax a line owes before it is worked out: who levies it, at what percentage, rounded how. */
type Levy = Pick<JurisdictionTax, 'jurisdiction' | 'country' | 'region' | 'tax_type' | 'rate' | 'rounding'>;

/** What the rules make of a line: the reason it is taxed as it is, and the taxes it owes. */
interface Treatment {
  reason: TaxabilityReason;
  levies: Levy[];
}

const ZERO = new Big(0);
const HUNDRED = new Big(100);

/** A date, or a date and time with its offset: a time without one would depend on the machine's zone. */
const ISO_8601 = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2}))?$/;

/**
 * The tax on an invoice's lines, by the rules in docs/tax.md: at the customer's location (the
 * seller's when it is unknown), reverse-charged between EU member states, each line and each
 * jurisdiction rounded on its own.
 */
export function calculateTax(request: TaxRequest, table: TaxTable = TAX_TABLE): TaxCalculation {
  const day = utcDay(request.date);
  const reverseChargedIn = reverseChargeCountry(request, table);
  const treatmentOf = reverseChargedIn
    ? reverseChargeTreatment(reverseChargedIn, table)
    : treatmentAt(request.customer.location ?? request.seller, day, table);
  const lines = request.lines.map((line) =>
    taxLine(line, treatmentOf(line.tax_code), request.behavior, request.currency),
  );
  return {
    table_version: table.version,
    reverse_charge: reverseChargedIn !== null,
    lines,
    breakdown: breakdownOf(lines),
  };
}

/**
 * The customer's country when the sale is reverse-charged there, else null. An EU business buying
 * from another member state accounts for the VAT itself: both countries in the EU and different,
 * an EU VAT number that is not invalid (pending counts), and none of the customer's tax IDs failed
 * validation.
 */
function reverseChargeCountry({ seller, customer }: TaxRequest, table: TaxTable): string | null {
  const buyer = customer.location?.country;
  const applies =
    buyer !== undefined &&
    buyer !== seller.country &&
    isEuMember(seller.country, table) &&
    isEuMember(buyer, table) &&
    !customer.tax_id_invalid &&
    customer.tax_ids.some((id) => id.type === 'eu_vat' && id.status !== 'invalid');
  return applies ? buyer : null;
}

/** Every line, whatever its code: no tax, in the customer's country's VAT jurisdiction. */
function reverseChargeTreatment(country: string, table: TaxTable): (taxCode: TaxCode) => Treatment {
  const [vat] = jurisdictionsFor({ country, region: null }, table);
  return () => ({ reason: 'reverse_charge', levies: [levy(vat, ZERO)] });
}

/**
 * How each tax code is taxed at a place on a day. A reduced line is `reduced_rated` when at least
 * one of its jurisdictions has a reduced rate; the others charge their standard rate.
 */
function treatmentAt(place: TaxLocation, day: string, table: TaxTable): (taxCode: TaxCode) => Treatment {
  const jurisdictions = jurisdictionsFor(place, table);
  if (jurisdictions.length === 0) {
    const untaxed: Levy = {
      jurisdiction: place.country,
      country: place.country,
      region: null,
      tax_type: 'none',
      rate: ZERO,
      rounding: 'half_even',
    };
    return () => ({ reason: 'not_collecting', levies: [untaxed] });
  }
  return (taxCode) => {
    if (taxCode === 'exempt') return { reason: 'exempt', levies: jurisdictions.map((j) => levy(j, ZERO)) };
    const periods = jurisdictions.map((j) => periodInForce(j, day));
    const rates = periods.map((p) => (taxCode === 'reduced' && p.reduced !== null ? p.reduced : p.standard));
    const reduced = taxCode === 'reduced' && periods.some((p) => p.reduced !== null);
    return {
      reason: reduced ? 'reduced_rated' : 'standard_rated',
      levies: jurisdictions.map((j, i) => levy(j, new Big(rates[i]))),
    };
  };
}

function levy(jurisdiction: TaxJurisdiction, rate: Big): Levy {
  const { id, country, region, tax_type, rounding } = jurisdiction;
  return { jurisdiction: id, country, region, tax_type, rate, rounding };
}

/**
 * Exclusive: each tax is round(amount × rate / 100) and the taxable amount is the line amount.
 * Inclusive: each tax is round(net × rate / 100), net = amount / (1 + Σrates / 100); the taxable
 * amount is then amount − Σtaxes, so that taxable + tax is the amount exactly, whatever the
 * rounding did.
 */
function taxLine(line: TaxableLine, { reason, levies }: Treatment, behavior: TaxBehavior, currency: string): LineTax {
  const rate = sum(levies.map((l) => l.rate));
  const taxes = levies.map((l) => roundToCurrency(unroundedTax(line.amount, l.rate, rate, behavior), currency, l.rounding));
  const taxAmount = sum(taxes);
  const taxableAmount = behavior === 'inclusive' ? line.amount.minus(taxAmount) : line.amount;
  return {
    key: line.key,
    taxable_amount: taxableAmount,
    tax_amount: taxAmount,
    rate,
    taxability_reason: reason,
    jurisdictions: levies.map((l, i) => ({
      jurisdiction: l.jurisdiction,
      country: l.country,
      region: l.region,
      tax_type: l.tax_type,
      rate: l.rate,
      taxable_amount: taxableAmount,
      tax_amount: taxes[i],
      rounding: l.rounding,
    })),
  };
}

/**
 * Inclusive, net × rate / 100 is worked out as amount × rate / (100 + Σrates): one division, so a
 * tax that falls exactly on half a minor unit stays exactly there and its rounding mode decides.
 */
function unroundedTax(amount: Big, rate: Big, totalRate: Big, behavior: TaxBehavior): Big {
  const divisor = behavior === 'inclusive' ? HUNDRED.plus(totalRate) : HUNDRED;
  return amount.times(rate).div(divisor);
}

function sum(amounts: readonly Big[]): Big {
  return amounts.reduce((total, a) => total.plus(a), ZERO);
}

/** The request's date as its UTC day (YYYY-MM-DD), to compare with the periods' `from`. */
function utcDay(date: string): string {
  if (!ISO_8601.test(date) || !isCalendarDay(date.slice(0, 10)) || Number.isNaN(new Date(date).getTime())) {
    throw DomainError.invalid('tax.invalid_date', `"${date}" is not an ISO 8601 date, or date and time with an offset`);
  }
  return new Date(date).toISOString().slice(0, 10);
}

/** Date parsing rolls 2024-02-30 over to March; a tax date must name a real day. */
function isCalendarDay(day: string): boolean {
  const parsed = new Date(day);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === day;
}
