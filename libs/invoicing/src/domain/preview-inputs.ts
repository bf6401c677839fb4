import Big from 'big.js';
import { DomainError, parseAmount, type FieldError } from '@tally/kernel';
import { type CustomerState, validateEuVat } from '@tally/customers/published';
import type { TaxCustomer } from '@tally/tax/published';
import type { Quantities } from './invoice-lines';

const invalidQuantity = (field: string, message: string): FieldError => ({ field, code: 'invoice_preview.invalid_quantity', message });

/** Subscription quantities are whole numbers ≥ 0; usage aggregates are decimal strings ≥ 0 (no exponent). */
export function parseQuantities(quantities: Readonly<Record<string, unknown>>, usage: Readonly<Record<string, unknown>>): Quantities {
  const errors: FieldError[] = [];
  const parsedQuantities = new Map<string, number>();
  for (const [meter, value] of Object.entries(quantities)) {
    if (!Number.isSafeInteger(value) || (value as number) < 0) errors.push(invalidQuantity(`quantities.${meter}`, 'a whole number ≥ 0'));
    else parsedQuantities.set(meter, value as number);
  }
  const parsedUsage = new Map<string, Big>();
  for (const [meter, value] of Object.entries(usage)) {
    const parsed = typeof value === 'string' && !value.startsWith('-') ? tryAmount(value) : undefined;
    if (!parsed) errors.push(invalidQuantity(`usage.${meter}`, 'a decimal string ≥ 0, such as "1250.5"'));
    else parsedUsage.set(meter, parsed);
  }
  if (errors.length > 0) throw DomainError.invalid('invoice_preview.invalid_quantity', 'Some quantities are not valid', errors);
  return { quantities: parsedQuantities, usage: parsedUsage };
}

function tryAmount(value: string): Big | undefined {
  try {
    return parseAmount(value);
  } catch {
    return undefined;
  }
}

/** A customer as the tax rules see it: where they are billed, and their tax IDs. */
export function taxCustomerOf(customer: Extract<CustomerState, { status: 'active' }>): TaxCustomer {
  const address = customer.billingAddress;
  return {
    location: address?.country ? { country: address.country, region: address.region?.toUpperCase() ?? null } : null,
    tax_ids: customer.taxIds.map(({ type, value, status }) => ({ type, value, status })),
    tax_id_invalid: customer.taxIds.some((taxId) => taxId.status === 'invalid'),
  };
}

/** A customer described in the request: its tax IDs are checked offline (format and check digits) on the spot. */
export function describedTaxCustomer(country: string, region: string | null, taxIds: readonly { type: string; value: string }[]): TaxCustomer {
  const checked = taxIds.map(({ type, value }) => ({ type, value, status: type === 'eu_vat' && validateEuVat(value).valid ? ('verified' as const) : ('invalid' as const) }));
  return { location: { country, region: region?.toUpperCase() ?? null }, tax_ids: checked, tax_id_invalid: checked.some((taxId) => taxId.status === 'invalid') };
}
