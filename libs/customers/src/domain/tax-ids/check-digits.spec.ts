import { iso7064Mod11_10Valid, iso7064Mod97_10Valid, luhnValid, weightedSum } from './check-digits';

describe('check digits', () => {
  it('weights leading digits only', () => {
    expect(weightedSum('1234', [1, 10])).toBe(21);
    expect(weightedSum('12', [1, 10, 100])).toBe(21);
  });

  it('Luhn: the textbook 79927398713', () => {
    expect(luhnValid('79927398713')).toBe(true);
    expect(luhnValid('79927398710')).toBe(false);
  });

  it('ISO 7064 MOD 11,10', () => {
    expect(iso7064Mod11_10Valid('136695976')).toBe(true);
    expect(iso7064Mod11_10Valid('136695977')).toBe(false);
  });

  it('ISO 7064 MOD 97-10 with letters: the IBAN GB82 WEST 1234 5698 7654 32 rearranged', () => {
    expect(iso7064Mod97_10Valid('WEST12345698765432GB82')).toBe(true);
    expect(iso7064Mod97_10Valid('WEST12345698765432GB83')).toBe(false);
  });
});
