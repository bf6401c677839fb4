import { isSupportedTaxIdType, validateTaxId } from './tax-id';

describe('tax IDs', () => {
  it('knows eu_vat only', () => {
    expect(isSupportedTaxIdType('eu_vat')).toBe(true);
    expect(isSupportedTaxIdType('EU_VAT')).toBe(false);
    expect(isSupportedTaxIdType('us_ein')).toBe(false);
  });

  it('validates an eu_vat value as an EU VAT number', () => {
    expect(validateTaxId('eu_vat', 'DE 136 695 976')).toEqual({ valid: true, country: 'DE', normalized: 'DE136695976' });
    expect(validateTaxId('eu_vat', 'DE136695978')).toEqual({ valid: false, reason: 'invalid_check_digit' });
  });
});
