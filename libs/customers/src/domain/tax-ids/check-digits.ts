/** Check-digit arithmetic shared by several national number schemes. Inputs are digit strings. */

export function digitsOf(value: string): number[] {
  return [...value].map(Number);
}

/** Σ weight[i] × digit[i]; characters beyond the weights, and weights beyond the value, are ignored. */
export function weightedSum(value: string, weights: readonly number[]): number {
  return digitsOf(value.slice(0, weights.length)).reduce((sum, digit, i) => sum + weights[i] * digit, 0);
}

/** Luhn (ISO/IEC 7812-1): true when the whole string, check digit included, is valid. */
export function luhnValid(value: string): boolean {
  const sum = digitsOf(value)
    .reverse()
    .reduce((acc, digit, i) => {
      if (i % 2 === 0) return acc + digit;
      const doubled = digit * 2;
      return acc + (doubled > 9 ? doubled - 9 : doubled);
    }, 0);
  return sum % 10 === 0;
}

/** ISO 7064 MOD 11,10 (hybrid system): true when the last digit is the check digit of the rest. */
export function iso7064Mod11_10Valid(value: string): boolean {
  const digits = digitsOf(value);
  let product = 10;
  for (const digit of digits.slice(0, -1)) {
    const sum = (digit + product) % 10 || 10;
    product = (sum * 2) % 11;
  }
  return (11 - product) % 10 === digits[digits.length - 1];
}

/** ISO 7064 MOD 97-10 over digits and letters (A = 10 … Z = 35): valid when the remainder is 1. */
export function iso7064Mod97_10Valid(value: string): boolean {
  let remainder = 0;
  for (const char of value) {
    const code = Number.parseInt(char, 36);
    for (const digit of String(code)) remainder = (remainder * 10 + Number(digit)) % 97;
  }
  return remainder === 1;
}
