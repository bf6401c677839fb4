import { EU_VAT_RULES } from './eu-vat-rules';

export type EuVatValidation =
  | { valid: true; country: string; normalized: string }
  | { valid: false; reason: string };

const SEPARATORS = /[\s.-]/g;

/**
 * Checks an EU VAT number offline: the country prefix (EL for Greece, XI for Northern Ireland),
 * the national format and, where the state defines one, the check digits. It cannot tell whether
 * the number is registered; that is the asynchronous validator's job.
 */
export function validateEuVat(value: string): EuVatValidation {
  const compact = value.replace(SEPARATORS, '').toUpperCase();
  const prefix = compact.slice(0, 2);
  if (!/^[A-Z]{2}$/.test(prefix)) return { valid: false, reason: 'missing_country_prefix' };
  const rule = Object.hasOwn(EU_VAT_RULES, prefix) ? EU_VAT_RULES[prefix] : undefined;
  if (!rule) return { valid: false, reason: 'unsupported_country' };
  const result = rule(compact.slice(2));
  if (!result.ok) return { valid: false, reason: result.reason };
  return { valid: true, country: prefix, normalized: prefix + result.national };
}
