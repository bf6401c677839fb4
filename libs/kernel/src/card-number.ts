/**
 * True for what looks like a raw card number (13 to 19 digits once spaces and dashes are removed, passing the Luhn
 * check): such a value sent as a token is refused, and never stored or logged.
 */
export function looksLikeCardNumber(value: string): boolean {
  const digits = value.replace(/[\s-]/g, '');
  return /^\d{13,19}$/.test(digits) && passesLuhn(digits);
}

function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let fromRight = 0; fromRight < digits.length; fromRight++) {
    const digit = Number(digits[digits.length - 1 - fromRight]);
    const doubled = fromRight % 2 === 1 ? digit * 2 : digit;
    sum += doubled > 9 ? doubled - 9 : doubled;
  }
  return sum % 10 === 0;
}
