/** A postal address as the API shows it (a customer's, a payment method's billing address). */
export interface Address {
  line1: string | null;
  city: string | null;
  region: string | null;
  country: string | null;
  postal_code: string | null;
}

/** A change of an address, as Stripe takes one: a field left out keeps its value, null clears it. */
export type AddressPatch = Partial<Address>;

/** The address after `patch`, every field present in one order so that equal addresses compare equal. */
export function mergeAddress(current: Address | null, patch: AddressPatch): Address {
  const field = (name: keyof Address): string | null => {
    const value = patch[name];
    return value !== undefined ? value : (current?.[name] ?? null);
  };
  return { line1: field('line1'), city: field('city'), region: field('region'), country: field('country'), postal_code: field('postal_code') };
}
