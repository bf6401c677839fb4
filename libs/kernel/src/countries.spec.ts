import { countryCodes, isCountryCode } from './countries';

describe('countries', () => {
  it.each(['DE', 'FR', 'GB', 'GR', 'US', 'CA', 'AX', 'BQ', 'SS', 'CW'])('knows %s', (code) => {
    expect(isCountryCode(code)).toBe(true);
  });

  it.each([
    ['a user-assigned code', 'XX'],
    ['Kosovo’s user-assigned code', 'XK'],
    ['the EU VAT prefix of Greece', 'EL'],
    ['the EU VAT prefix of Northern Ireland', 'XI'],
    ['a withdrawn code (Netherlands Antilles)', 'AN'],
    ['an exceptionally reserved code', 'UK'],
    ['lower case', 'de'],
    ['mixed case', 'De'],
    ['alpha-3', 'DEU'],
    ['an empty string', ''],
    ['a property of every object', 'constructor'],
  ])('refuses %s (%j)', (_why, code) => {
    expect(isCountryCode(code)).toBe(false);
  });

  it('lists the 249 assigned codes, sorted, each two upper-case letters', () => {
    const codes = countryCodes();
    expect(codes).toHaveLength(249);
    expect(new Set(codes).size).toBe(249);
    expect([...codes].sort()).toEqual(codes);
    for (const code of codes) expect(code).toMatch(/^[A-Z]{2}$/);
  });
});
