import { DomainError } from '../domain-error';
import { currencyCodes, isCurrency, minorUnits } from './currencies';

describe('currencies', () => {
  it.each([
    ['JPY', 0],
    ['ISK', 0],
    ['KRW', 0],
    ['USD', 2],
    ['EUR', 2],
    ['KWD', 3],
    ['BHD', 3],
    ['TND', 3],
    ['CLF', 4],
    ['UYW', 4],
  ])('%s has %i minor units', (code, digits) => {
    expect(minorUnits(code)).toBe(digits);
  });

  it('recognises only uppercase active codes', () => {
    expect(isCurrency('USD')).toBe(true);
    expect(isCurrency('usd')).toBe(false);
    expect(isCurrency('Usd')).toBe(false);
    expect(isCurrency('XXX')).toBe(false);
    expect(isCurrency('HRK')).toBe(false);
    expect(isCurrency('toString')).toBe(false);
    expect(isCurrency('')).toBe(false);
  });

  it('rejects an unknown code with a domain error', () => {
    expect(() => minorUnits('ABC')).toThrow(DomainError);
    expect(() => minorUnits('ABC')).toThrow(expect.objectContaining({ code: 'money.unknown_currency', kind: 'invalid' }));
  });

  it('lists three-letter uppercase codes with 0 to 4 minor units', () => {
    const codes = currencyCodes();
    expect(codes.length).toBeGreaterThan(150);
    for (const code of codes) {
      expect(code).toMatch(/^[A-Z]{3}$/);
      expect([0, 2, 3, 4]).toContain(minorUnits(code));
    }
  });
});
