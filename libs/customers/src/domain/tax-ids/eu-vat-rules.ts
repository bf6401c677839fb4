import { digitsOf, iso7064Mod11_10Valid, iso7064Mod97_10Valid, luhnValid, weightedSum } from './check-digits';

export type VatInvalidReason = 'invalid_format' | 'invalid_check_digit';

export type NationalNumberResult = { ok: true; national: string } | { ok: false; reason: VatInvalidReason };

/** Checks the national part of a VAT number (after the country prefix, already normalised). */
export type NationalNumberRule = (national: string) => NationalNumberResult;

/**
 * A national scheme: the format, then the check-digit test. `canonical` turns an accepted legacy
 * form into today's form before the check (Belgian 9-digit numbers gain their leading 0).
 */
function scheme(
  format: RegExp,
  checkDigitValid: (national: string) => boolean,
  canonical: (national: string) => string = (n) => n,
): NationalNumberRule {
  return (national) => {
    if (!format.test(national)) return { ok: false, reason: 'invalid_format' };
    const normalized = canonical(national);
    return checkDigitValid(normalized) ? { ok: true, national: normalized } : { ok: false, reason: 'invalid_check_digit' };
  };
}

const last = (n: string): number => Number(n[n.length - 1]);

/** AT: U + 8 digits. Digits 2, 4, 6 are doubled (digit sum); check = (96 − Σ) mod 10. */
function austria(n: string): boolean {
  const sum = digitsOf(n.slice(1, 8)).reduce((acc, d, i) => {
    const product = i % 2 === 1 ? d * 2 : d;
    return acc + Math.floor(product / 10) + (product % 10);
  }, 0);
  return (96 - sum) % 10 === last(n);
}

/** BE: 10 digits; the last two are 97 − (first eight mod 97). */
function belgium(n: string): boolean {
  return 97 - (Number(n.slice(0, 8)) % 97) === Number(n.slice(8));
}

/** BG: 9 digits for legal entities; 10 digits for persons (EGN), foreigners (PNF) and others. */
function bulgaria(n: string): boolean {
  const body = n.slice(0, -1);
  if (n.length === 9) {
    let check = weightedSum(body, [1, 2, 3, 4, 5, 6, 7, 8]) % 11;
    if (check === 10) check = weightedSum(body, [3, 4, 5, 6, 7, 8, 9, 10]) % 11;
    return check % 10 === last(n);
  }
  const egn = (weightedSum(body, [2, 4, 8, 5, 10, 9, 7, 3, 6]) % 11) % 10;
  const foreigner = weightedSum(body, [21, 19, 17, 13, 11, 9, 7, 3, 1]) % 10;
  const other = (11 - (weightedSum(body, [4, 3, 2, 7, 6, 5, 4, 3, 2]) % 11)) % 11;
  return [egn, foreigner, other].includes(last(n));
}

/** CY: 8 digits + check letter; digits at odd positions are recoded, the sum mod 26 is the letter. */
function cyprus(n: string): boolean {
  const recode = [1, 0, 5, 7, 9, 13, 15, 17, 19, 21];
  const sum = digitsOf(n.slice(0, 8)).reduce((acc, d, i) => acc + (i % 2 === 0 ? recode[d] : d), 0);
  return String.fromCharCode(65 + (sum % 26)) === n[8];
}

/**
 * CZ: 8 digits for legal entities (weights 8…2, check = (11 − Σ mod 11) mod 10). 9 and 10 digits
 * are individuals' birth numbers, whose checks depend on the birth date: format only.
 */
function czechia(n: string): boolean {
  if (n.length !== 8) return true;
  return ((11 - (weightedSum(n, [8, 7, 6, 5, 4, 3, 2]) % 11)) % 10) === last(n);
}

/** EL: 9 digits; check = (Σ dᵢ·2^(8−i)) mod 11 mod 10. */
function greece(n: string): boolean {
  return (weightedSum(n, [256, 128, 64, 32, 16, 8, 4, 2]) % 11) % 10 === last(n);
}

const SPANISH_LETTERS = 'TRWAGMYFPDXBNJZSQVHLCKE';

/**
 * ES: DNI (8 digits + letter) and NIE (X/Y/Z = 0/1/2 + 7 digits + letter): letter = table[number
 * mod 23]. CIF (entity letter + 7 digits + check): Luhn-style digit, or the letter JABCDEFGHI[digit].
 * K/L/M numbers (minors, non-residents without NIE) are checked for format only.
 */
function spain(n: string): boolean {
  if (/^\d/.test(n)) return SPANISH_LETTERS[Number(n.slice(0, 8)) % 23] === n[8];
  if (/^[XYZ]/.test(n)) return SPANISH_LETTERS[Number('XYZ'.indexOf(n[0]) + n.slice(1, 8)) % 23] === n[8];
  if (/^[KLM]/.test(n)) return true;
  const sum = digitsOf(n.slice(1, 8)).reduce((acc, d, i) => {
    if (i % 2 === 1) return acc + d;
    const doubled = d * 2;
    return acc + Math.floor(doubled / 10) + (doubled % 10);
  }, 0);
  const check = (10 - (sum % 10)) % 10;
  return n[8] === String(check) || n[8] === 'JABCDEFGHI'[check];
}

/**
 * FR: 2-character key + SIREN (9 digits, Luhn; Monaco numbers start 000 and are not SIRENs).
 * A numeric key is (12 + 3 × (SIREN mod 97)) mod 97; alphanumeric keys are checked for format.
 */
function france(n: string): boolean {
  const siren = n.slice(2);
  if (!siren.startsWith('000') && !luhnValid(siren)) return false;
  const key = n.slice(0, 2);
  return !/^\d\d$/.test(key) || Number(key) === (12 + 3 * (Number(siren) % 97)) % 97;
}

const IRISH_LETTERS = 'WABCDEFGHIJKLMNOPQRSTUV';

/**
 * IE: new form 7 digits + check letter (+ optional A–I or W, counted with weight 9, W = 0); old form
 * digit, letter/+/*, 5 digits, check letter, checked as 0 + the 5 digits + the first digit.
 * Check letter = table[Σ dᵢ·(8…2) (+ 9·second letter) mod 23].
 */
function ireland(n: string): boolean {
  const digits = /^\d{7}/.test(n) ? n.slice(0, 7) : `0${n.slice(2, 7)}${n[0]}`;
  const extra = n.length === 9 ? IRISH_LETTERS.indexOf(n[8]) * 9 : 0;
  return IRISH_LETTERS[(weightedSum(digits, [8, 7, 6, 5, 4, 3, 2]) + extra) % 23] === n[7];
}

/**
 * LT: 9 digits (legal entities, 8th digit 1) or 12 (temporary taxpayers, 11th digit 1). Weights
 * 1…9,1,2; a remainder of 10 is retried with weights 3…9,1,2,3,4, and a second 10 gives 0.
 */
function lithuania(n: string): boolean {
  const body = n.slice(0, -1);
  let check = weightedSum(body, [1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 2]) % 11;
  if (check === 10) check = (weightedSum(body, [3, 4, 5, 6, 7, 8, 9, 1, 2, 3, 4]) % 11) % 10;
  return check === last(n);
}

/** LU: 8 digits; the last two are the first six mod 89. */
function luxembourg(n: string): boolean {
  return Number(n.slice(0, 6)) % 89 === Number(n.slice(6));
}

/**
 * LV: 11 digits. Legal persons (first digit above 3): Σ with weights 9,1,4,8,3,10,2,5,7,6,1 ≡ 3
 * (mod 11). Natural persons' numbers are personal codes: format only.
 */
function latvia(n: string): boolean {
  if (Number(n[0]) <= 3) return true;
  return weightedSum(n, [9, 1, 4, 8, 3, 10, 2, 5, 7, 6, 1]) % 11 === 3;
}

/**
 * NL: RSIN/BSN + B + 2-digit branch (not 00). Valid by the 11-test on the first 9 digits, or, for
 * the btw-id issued to sole traders since 2020, by ISO 7064 mod 97-10 over NL + the number.
 */
function netherlands(n: string): boolean {
  const elevenTest = (weightedSum(n, [9, 8, 7, 6, 5, 4, 3, 2]) - Number(n[8])) % 11 === 0;
  return elevenTest || iso7064Mod97_10Valid(`NL${n}`);
}

/** PL: 10 digits; check = Σ dᵢ·(6,5,7,2,3,4,5,6,7) mod 11, never 10. */
function poland(n: string): boolean {
  return weightedSum(n, [6, 5, 7, 2, 3, 4, 5, 6, 7]) % 11 === last(n);
}

/** PT: 9 digits; check = 11 − Σ dᵢ·(9…2) mod 11, with 10 and 11 becoming 0. */
function portugal(n: string): boolean {
  return ((11 - (weightedSum(n, [9, 8, 7, 6, 5, 4, 3, 2]) % 11)) % 11) % 10 === last(n);
}

/** RO: 2–10 digits; the body, right-aligned under weights 7,5,3,2,1,7,5,3,2: check = 10·Σ mod 11 mod 10. */
function romania(n: string): boolean {
  const body = n.slice(0, -1).padStart(9, '0');
  return ((10 * weightedSum(body, [7, 5, 3, 2, 1, 7, 5, 3, 2])) % 11) % 10 === last(n);
}

/** SI: 8 digits; check = 11 − Σ dᵢ·(8…2) mod 11, 10 becomes 0 and 11 is never issued. */
function slovenia(n: string): boolean {
  const check = 11 - (weightedSum(n, [8, 7, 6, 5, 4, 3, 2]) % 11);
  return check !== 11 && check % 10 === last(n);
}

/** SK: 10 digits, the third one of 2,3,4,7,8,9, and the whole number divisible by 11. */
function slovakia(n: string): boolean {
  return Number(n) % 11 === 0;
}

/**
 * XI (UK VAT, Northern Ireland): 9 digits (a 12-digit form adds a branch), where Σ dᵢ·(8…2) + the
 * last two digits ≡ 0 or 42 (mod 97) (the original and the 2010 "9755" series); GD/HA numbers of
 * government departments and health authorities have no check digits.
 */
function northernIreland(n: string): boolean {
  if (/^(GD|HA)/.test(n)) return true;
  const total = weightedSum(n, [8, 7, 6, 5, 4, 3, 2]) + Number(n.slice(7, 9));
  return [0, 42].includes(total % 97);
}

/** The national rule of each VAT prefix: the member states (EL for Greece) and XI. */
export const EU_VAT_RULES: Readonly<Record<string, NationalNumberRule>> = Object.freeze({
  AT: scheme(/^U\d{8}$/, austria),
  BE: scheme(/^(?:[01]\d{9}|\d{9})$/, belgium, (n) => n.padStart(10, '0')),
  BG: scheme(/^\d{9,10}$/, bulgaria),
  CY: scheme(/^[0-59]\d{7}[A-Z]$/, cyprus),
  CZ: scheme(/^(?:[0-8]\d{7}|\d{9,10})$/, czechia),
  DE: scheme(/^[1-9]\d{8}$/, iso7064Mod11_10Valid),
  DK: scheme(/^[1-9]\d{7}$/, (n) => weightedSum(n, [2, 7, 6, 5, 4, 3, 2, 1]) % 11 === 0),
  EE: scheme(/^10\d{7}$/, (n) => weightedSum(n, [3, 7, 1, 3, 7, 1, 3, 7, 1]) % 10 === 0),
  EL: scheme(/^\d{9}$/, greece),
  ES: scheme(/^(?:\d{8}[A-Z]|[XYZKLM]\d{7}[A-Z]|[ABCDEFGHJNPQRSUVW]\d{7}[0-9A-J])$/, spain),
  FI: scheme(/^\d{8}$/, (n) => weightedSum(n, [7, 9, 10, 5, 8, 4, 2, 1]) % 11 === 0),
  FR: scheme(/^[0-9A-HJ-NP-Z]{2}\d{9}$/, france),
  HR: scheme(/^\d{11}$/, iso7064Mod11_10Valid),
  HU: scheme(/^\d{8}$/, (n) => weightedSum(n, [9, 7, 3, 1, 9, 7, 3, 1]) % 10 === 0),
  IE: scheme(/^(?:\d{7}[A-W][A-IW]?|\d[A-Z+*]\d{5}[A-W])$/, ireland),
  // IT: a non-zero 7-digit company number, the issuing office (001–100, 120, 121, 888, 999), Luhn.
  IT: scheme(/^(?!0{7})\d{7}(?:00[1-9]|0[1-9]\d|100|12[01]|888|999)\d$/, luhnValid),
  LT: scheme(/^(?:\d{7}1\d|\d{10}1\d)$/, lithuania),
  LU: scheme(/^\d{8}$/, luxembourg),
  LV: scheme(/^\d{11}$/, latvia),
  MT: scheme(/^[1-9]\d{7}$/, (n) => weightedSum(n, [3, 4, 6, 7, 8, 9, 10, 1]) % 37 === 0),
  NL: scheme(/^(?!0{9})\d{9}B(?:0[1-9]|[1-9]\d)$/, netherlands),
  PL: scheme(/^\d{10}$/, poland),
  PT: scheme(/^[1-9]\d{8}$/, portugal),
  RO: scheme(/^[1-9]\d{1,9}$/, romania),
  SE: scheme(/^\d{10}01$/, (n) => luhnValid(n.slice(0, 10))),
  SI: scheme(/^[1-9]\d{7}$/, slovenia),
  SK: scheme(/^[1-9]\d[234789]\d{7}$/, slovakia),
  XI: scheme(/^(?:\d{9}|\d{12}|GD[0-4]\d{2}|HA[5-9]\d{2})$/, northernIreland),
});
