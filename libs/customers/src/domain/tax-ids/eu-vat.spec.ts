import fc from 'fast-check';
import { validateEuVat } from './eu-vat';
import { EU_VAT_RULES } from './eu-vat-rules';

/**
 * Each valid number's check digit is worked out in its comment; each invalid twin changes one
 * digit of a valid number, so only the check-digit test can reject it.
 */
const VALID: [state: string, input: string, normalized: string][] = [
  // U + 1358562: doubled 2nd/4th/6th digits 3→6, 8→16→7, 6→12→3; Σ = 1+6+5+7+5+3+2 = 29; (96 − 29) mod 10 = 7.
  ['AT', 'ATU13585627', 'ATU13585627'],
  // 04030192 mod 97 = 36; 97 − 36 = 61.
  ['BE', 'BE 0403.019.261', 'BE0403019261'],
  // 04287594 mod 97 = 0, so the check is 97; the legacy 9-digit form gains its leading 0.
  ['BE', 'BE428759497', 'BE0428759497'],
  // Legal entity: Σ dᵢ·(1…8) over 17507475 = 178; 178 mod 11 = 2.
  ['BG', 'BG175074752', 'BG175074752'],
  // Person (EGN): Σ dᵢ·(2,4,8,5,10,9,7,3,6) over 752316926 = 234; 234 mod 11 = 3.
  ['BG', 'BG7523169263', 'BG7523169263'],
  // Foreigner (PNF): Σ dᵢ·(21,19,17,13,11,9,7,3,1) over 711104292 ≡ 5 (mod 10); the EGN and other checks give 0.
  ['BG', 'BG7111042925', 'BG7111042925'],
  // Odd positions 1,2,9,3 recoded 0+5+21+7 = 33, even positions 0+5+0+3 = 8; 41 mod 26 = 15 → P.
  ['CY', 'CY-10259033P', 'CY10259033P'],
  // Legal entity: Σ dᵢ·(8…2) over 2512389 = 121 ≡ 0 (mod 11); (11 − 0) mod 10 = 1.
  ['CZ', 'CZ25123891', 'CZ25123891'],
  // Individual (birth number): format only.
  ['CZ', 'CZ7103192745', 'CZ7103192745'],
  // ISO 7064 MOD 11,10 over 13669597: running products 2,10,1,3,4,7,1,5; (11 − 5) mod 10 = 6.
  ['DE', 'DE 136 695 976', 'DE136695976'],
  // Σ dᵢ·(2,7,6,5,4,3,2,1) = 143 = 13 × 11.
  ['DK', 'DK 13 58 56 28', 'DK13585628'],
  // Σ dᵢ·(3,7,1,…) = 90 ≡ 0 (mod 10).
  ['EE', 'EE100594102', 'EE100594102'],
  // Σ dᵢ·2^(8−i) over 09425921 = 1634; 1634 mod 11 = 6.
  ['EL', 'EL 094259216', 'EL094259216'],
  // DNI: 54362315 mod 23 = 21 → K.
  ['ES', 'ES54362315K', 'ES54362315K'],
  // NIE: X → 0; 05253868 mod 23 = 1 → R.
  ['ES', 'ES X-5253868-R', 'ESX5253868R'],
  // CIF: 5837843 → odd places 5,3,8,3 doubled as digit sums 1+6+7+6 = 20, even places 8+7+4 = 19;
  // Σ = 39; (10 − 9) mod 10 = 1.
  ['ES', 'ESB58378431', 'ESB58378431'],
  // CIF with a letter: 2826000 → odd places 4+4+0+0, even 8+6+0: Σ = 22; (10 − 2) mod 10 = 8 → JABCDEFGHI[8] = H.
  ['ES', 'ESQ2826000H', 'ESQ2826000H'],
  // Σ dᵢ·(7,9,10,5,8,4,2,1) = 187 = 17 × 11.
  ['FI', 'FI 2077474-0', 'FI20774740'],
  // 303265045 mod 97 = 74; (12 + 3 × 74) mod 97 = 40; the SIREN passes Luhn.
  ['FR', 'FR 40 303 265 045', 'FR40303265045'],
  // Alphanumeric key: SIREN 399859412 passes Luhn; the key is checked for format.
  ['FR', 'FRK7399859412', 'FRK7399859412'],
  // ISO 7064 MOD 11,10 over 3339200596: last running product 10; (11 − 10) mod 10 = 1.
  ['HR', 'HR33392005961', 'HR33392005961'],
  // Σ dᵢ·(9,7,3,1,…) = 100 ≡ 0 (mod 10).
  ['HU', 'HU-12892312', 'HU12892312'],
  // New form: Σ dᵢ·(8…2) over 6433435 = 144; 144 mod 23 = 6 → F.
  ['IE', 'IE 6433435F', 'IE6433435F'],
  // Old form 8D79739I: checked as 0797398 → Σ = 193; 193 mod 23 = 9 → I.
  ['IE', 'IE8D79739I', 'IE8D79739I'],
  // Nine characters: Σ over 1234567 = 112, + 9 × (A = 1) = 121; 121 mod 23 = 6 → F.
  ['IE', 'IE1234567FA', 'IE1234567FA'],
  // Luhn sum over all 11 digits = 30; office 015.
  ['IT', 'IT 00743110157', 'IT00743110157'],
  // Σ dᵢ·(1…8) over 11951151 = 104; 104 mod 11 = 5.
  ['LT', 'LT119511515', 'LT119511515'],
  // Σ dᵢ·(1…9,1,2) over 10000191901 = 161; 161 mod 11 = 7.
  ['LT', 'LT100001919017', 'LT100001919017'],
  // First pass 98 mod 11 = 10, second pass (3…9,1…4) 131 mod 11 = 10 → 0.
  ['LT', 'LT100004801610', 'LT100004801610'],
  // 150274 mod 89 = 42.
  ['LU', 'LU 150 274 42', 'LU15027442'],
  // Legal person: Σ dᵢ·(9,1,4,8,3,10,2,5,7,6,1) = 146 ≡ 3 (mod 11).
  ['LV', 'LV 4000 3521 600', 'LV40003521600'],
  // Natural person (personal code): format only.
  ['LV', 'LV16117519997', 'LV16117519997'],
  // Σ dᵢ·(3,4,6,7,8,9,10,1) = 185 = 5 × 37.
  ['MT', 'MT 1167-9112', 'MT11679112'],
  // 11-test: Σ dᵢ·(9…2) over 00449544 − 5 = 132 = 12 × 11.
  ['NL', 'NL004495445B01', 'NL004495445B01'],
  // 2020 btw-id: fails the 11-test (113 mod 11 = 3), but NL002455799B11 → 23210024557991111 ≡ 1 (mod 97).
  ['NL', 'NL002455799B11', 'NL002455799B11'],
  // Σ dᵢ·(6,5,7,2,3,4,5,6,7) over 856734621 = 203; 203 mod 11 = 5.
  ['PL', 'PL 856-734-62-15', 'PL8567346215'],
  // Σ dᵢ·(9…2) over 50196484 = 184; 184 mod 11 = 8; 11 − 8 = 3.
  ['PT', 'PT 501 964 843', 'PT501964843'],
  // 001854729 under (7,5,3,2,1,7,5,3,2): Σ = 111; 1110 mod 11 = 10 → 0.
  ['RO', 'RO 185 472 90', 'RO18547290'],
  // 1234567897 passes Luhn (Σ = 50), then 01.
  ['SE', 'SE 123456789701', 'SE123456789701'],
  // Σ dᵢ·(8…2) over 5022305 = 84; 84 mod 11 = 7; 11 − 7 = 4.
  ['SI', 'SI 5022 3054', 'SI50223054'],
  // 2022749619 = 11 × 183886329; third digit 2.
  ['SK', 'SK 202 274 96 19', 'SK2022749619'],
  // Σ dᵢ·(8…2) over 9807806 = 207; + 84 = 291 = 3 × 97.
  ['XI', 'XI 980 7806 84', 'XI980780684'],
  // 9755 series: Σ over 1234567 = 112; + 27 = 139 ≡ 42 (mod 97).
  ['XI', 'XI123456727', 'XI123456727'],
  // Government department: no check digits.
  ['XI', 'XIGD001', 'XIGD001'],
];

const ALTERED: [state: string, input: string][] = [
  ['AT', 'ATU13585626'],
  ['BE', 'BE0403019262'],
  ['BG', 'BG175074751'],
  ['BG', 'BG7111042921'],
  ['CY', 'CY10259033Z'],
  ['CZ', 'CZ25123890'],
  ['DE', 'DE136695978'],
  ['DK', 'DK13585627'],
  ['EE', 'EE100594103'],
  ['EL', 'EL094259217'],
  ['ES', 'ES54362315Z'],
  ['ES', 'ESX5253868A'],
  ['ES', 'ESB58378432'],
  ['ES', 'ESQ2826000J'],
  ['FI', 'FI20774741'],
  ['FR', 'FR41303265045'],
  ['FR', 'FR40303265046'],
  ['HR', 'HR33392005962'],
  ['HU', 'HU12892313'],
  ['IE', 'IE6433435E'],
  ['IE', 'IE8D79739J'],
  ['IE', 'IE1234567FB'],
  ['IT', 'IT00743110158'],
  ['LT', 'LT119511516'],
  ['LT', 'LT100001919018'],
  ['LU', 'LU15027443'],
  ['LV', 'LV40003521601'],
  ['MT', 'MT11679113'],
  ['NL', 'NL004495446B01'],
  ['NL', 'NL002455799B12'],
  ['PL', 'PL8567346216'],
  ['PT', 'PT501964842'],
  ['RO', 'RO18547291'],
  ['SE', 'SE123456789101'],
  ['SI', 'SI50223055'],
  ['SK', 'SK2022749618'],
  ['XI', 'XI980780685'],
];

describe('validateEuVat', () => {
  it.each(VALID)('%s: accepts %j as %s', (state, input, normalized) => {
    expect(validateEuVat(input)).toEqual({ valid: true, country: state, normalized });
  });

  it.each(ALTERED)('%s: rejects %j (one digit changed)', (_, input) => {
    expect(validateEuVat(input)).toEqual({ valid: false, reason: 'invalid_check_digit' });
  });

  it('covers every member state and Northern Ireland', () => {
    const states = new Set(VALID.map(([state]) => state));
    expect([...states].sort()).toEqual(
      ['AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'EL', 'ES', 'FI', 'FR', 'HR', 'HU', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT', 'RO', 'SE', 'SI', 'SK', 'XI'].sort(),
    );
  });

  it('normalises spaces, dots, dashes and case', () => {
    expect(validateEuVat(' de-136.695.976 ')).toEqual({ valid: true, country: 'DE', normalized: 'DE136695976' });
    expect(validateEuVat('atu13585627')).toEqual({ valid: true, country: 'AT', normalized: 'ATU13585627' });
  });

  it.each([
    ['no prefix', '136695976', 'missing_country_prefix'],
    ['empty', '', 'missing_country_prefix'],
    ['ISO code instead of EL', 'GR094259216', 'unsupported_country'],
    ['not an EU state', 'US123456789', 'unsupported_country'],
    ['Great Britain', 'GB980780684', 'unsupported_country'],
    ['other separators', 'DE136/695/976', 'invalid_format'],
    ['too short', 'DE13669597', 'invalid_format'],
    ['too long', 'DE1366959760', 'invalid_format'],
    ['letters in a numeric scheme', 'DE13669597A', 'invalid_format'],
    ['DE leading zero', 'DE036695976', 'invalid_format'],
    ['AT without U', 'AT13585627', 'invalid_format'],
    ['NL without B', 'NL004495445C01', 'invalid_format'],
    ['NL branch 00', 'NL004495445B00', 'invalid_format'],
    ['LT entity without the 1 marker', 'LT119511525', 'invalid_format'],
    ['SK third digit 0', 'SK2002749619', 'invalid_format'],
    ['SE not ending 01', 'SE123456789702', 'invalid_format'],
    ['FR key with O', 'FRO7399859412', 'invalid_format'],
    ['ES CIF with an unknown entity letter', 'ESI58378431', 'invalid_format'],
    ['EE not starting 10', 'EE200594102', 'invalid_format'],
    ['XI health authority below 500', 'XIHA499', 'invalid_format'],
    ['IT unknown office', 'IT00743112157', 'invalid_format'],
    ['IT zero company number', 'IT00000000157', 'invalid_format'],
  ])('rejects %s (%j)', (_, input, reason) => {
    expect(validateEuVat(input)).toEqual({ valid: false, reason });
  });

  it('answers every input with a verdict, never an exception', () => {
    const prefix = fc.constantFrom(...Object.keys(EU_VAT_RULES), 'GR', 'gb', '12', '');
    const body = fc.stringMatching(/^[0-9A-Z+*. -]{0,14}$/);
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.tuple(prefix, body).map(([p, b]) => p + b)), (input) => {
        const result = validateEuVat(input);
        if (result.valid) {
          expect(result.normalized.startsWith(result.country)).toBe(true);
          expect(validateEuVat(result.normalized)).toEqual(result);
        } else {
          expect(['missing_country_prefix', 'unsupported_country', 'invalid_format', 'invalid_check_digit']).toContain(result.reason);
        }
      }),
      { numRuns: 500 },
    );
  });
});
