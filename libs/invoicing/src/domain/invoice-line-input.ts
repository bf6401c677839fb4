import Big from 'big.js';
import { checkMetadata, DomainError, isCurrency, parseAmount, parseUnitAmount, roundToCurrency, type FieldError, type Metadata } from '@tally/kernel';
import type { TaxCode } from '@tally/tax/published';
import type { InvoiceLineData } from './invoice.events';

/** A line added by hand: a description, a quantity and a price per unit; its amount follows. */
export interface LineInput {
  line_id: string;
  description: string;
  /** A decimal string > 0. */
  quantity: string;
  /** A decimal string ≥ 0, up to 12 decimals. */
  unit_amount: string;
  period_start: string | null;
  period_end: string | null;
  tax_code: TaxCode;
  metadata: Metadata;
}

/** At most this many lines on one invoice (Stripe's limit). */
export const MAX_INVOICE_LINES = 250;

/**
 * A line's service period is at most a year of 366 days, the longest billing period: its revenue
 * recognition schedule is one row a day, so the largest invoice's schedule stays bounded.
 */
export const MAX_SERVICE_PERIOD_DAYS = 366;
const MAX_SERVICE_PERIOD_MS = MAX_SERVICE_PERIOD_DAYS * 86_400_000;

const lineError = (field: string, message: string): FieldError => ({ field, code: 'invoice.invalid_line', message });

/**
 * The line with its amount: quantity × unit_amount, rounded half-even to the currency's minor unit
 * (each line on its own, as the spec's rounding rule says). Bad values fail with field errors
 * under `field` (`lines[0].quantity`, or `quantity` for one line).
 */
export function manualLine(input: LineInput, currency: string, field = ''): InvoiceLineData {
  const at = (name: string) => (field ? `${field}.${name}` : name);
  const errors: FieldError[] = [];
  const quantity = tryParse(() => parseAmount(input.quantity));
  if (!quantity || quantity.lte(0)) errors.push(lineError(at('quantity'), 'a decimal string above 0, such as "1" or "2.5"'));
  const unit = tryParse(() => parseUnitAmount(input.unit_amount));
  if (!unit || unit.lt(0)) errors.push(lineError(at('unit_amount'), 'a decimal string ≥ 0 with at most 12 decimals, such as "19.99"'));
  if ((input.period_start === null) !== (input.period_end === null) || (input.period_start !== null && input.period_start >= input.period_end!)) {
    errors.push(lineError(at('period_end'), 'a line’s period has both a start and a later end, or neither'));
  } else if (input.period_start !== null && Date.parse(input.period_end!) - Date.parse(input.period_start) > MAX_SERVICE_PERIOD_MS) {
    errors.push(lineError(at('period_end'), `a line’s period lasts at most ${MAX_SERVICE_PERIOD_DAYS} days; bill a longer term as a line a year`));
  }
  if (errors.length > 0) throw DomainError.invalid('invoice.invalid_line', 'The line is not valid', errors);
  checkMetadata(input.metadata, at('metadata'));
  const amount = roundToCurrency(quantity!.times(unit!), currency);
  checkAmountSize(amount, at('unit_amount'));
  return {
    line_id: input.line_id,
    code: null,
    description: input.description,
    quantity: quantity!.toFixed(),
    unit_amount: unit!.toFixed(),
    amount: amount.toFixed(),
    period_start: input.period_start,
    period_end: input.period_end,
    proration: false,
    price_version: null,
    tax_code: input.tax_code,
    metadata: input.metadata,
  };
}

/** Lines priced elsewhere (the billing process): each amount must be a wire amount in whole minor units. */
export function checkPricedLines(lines: readonly InvoiceLineData[], currency: string): void {
  const errors: FieldError[] = [];
  lines.forEach((line, i) => {
    const amount = tryParse(() => parseAmount(line.amount));
    if (!amount || !roundToCurrency(amount, currency).eq(amount)) errors.push(lineError(`lines[${i}].amount`, `a decimal string in whole minor units of ${currency}`));
    if (!tryParse(() => parseAmount(line.quantity))) errors.push(lineError(`lines[${i}].quantity`, 'a decimal string'));
  });
  if (new Set(lines.map((line) => line.line_id)).size !== lines.length) errors.push(lineError('lines', 'line ids are unique'));
  if (errors.length > 0) throw DomainError.invalid('invoice.invalid_line', 'Some lines are not valid', errors);
}

export function checkCurrency(currency: string): void {
  if (!isCurrency(currency)) {
    throw DomainError.invalid('money.unknown_currency', `${currency} is not an uppercase ISO 4217 code`, [{ field: 'currency', code: 'money.unknown_currency', message: 'an uppercase ISO 4217 code, such as EUR' }]);
  }
}

/** Sums stay within the wire's 20 digits. */
function checkAmountSize(amount: Big, field: string): void {
  if (amount.abs().toFixed(0).length > 12) throw DomainError.invalid('invoice.invalid_line', 'The line’s amount is too large', [lineError(field, 'the line’s amount has at most 12 digits before the point')]);
}

function tryParse(parse: () => Big): Big | undefined {
  try {
    return parse();
  } catch {
    return undefined;
  }
}
