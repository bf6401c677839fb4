import { validateEuVat, type EuVatValidation } from './eu-vat';

export type TaxIdType = 'eu_vat';

export const TAX_ID_TYPES: readonly TaxIdType[] = ['eu_vat'];

export function isSupportedTaxIdType(t: string): t is TaxIdType {
  return (TAX_ID_TYPES as readonly string[]).includes(t);
}

export type TaxIdValidation = EuVatValidation;

/** The offline (format and check-digit) validation of a tax ID of the given type. */
export function validateTaxId(type: TaxIdType, value: string): TaxIdValidation {
  switch (type) {
    case 'eu_vat':
      return validateEuVat(value);
  }
}
