import { validateTaxId } from './domain/tax-ids/tax-id';
import type { TaxIdType } from './domain/tax-ids/tax-id';

export type TaxIdValidation = { valid: true; country: string } | { valid: false; reason: string };

/** Decides whether a tax ID is valid; a registry lookup (such as VIES) can stand behind it later. */
export interface TaxIdValidator {
  validate(type: TaxIdType, value: string): Promise<TaxIdValidation>;
}

export const TAX_ID_VALIDATOR = Symbol('TaxIdValidator');

/** Format and check-digit rules only; no network. */
export class RuleBasedTaxIdValidator implements TaxIdValidator {
  async validate(type: TaxIdType, value: string): Promise<TaxIdValidation> {
    const result = validateTaxId(type, value);
    return result.valid ? { valid: true, country: result.country } : { valid: false, reason: result.reason };
  }
}
