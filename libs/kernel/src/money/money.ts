import Big from 'big.js';
import { DomainError } from '../domain-error';
import { minorUnits } from './currencies';

export type RoundingMode = 'half_even' | 'half_up';

/** Digits of an amount on the wire, before and after the point together. */
export const AMOUNT_MAX_DIGITS = 20;
/** Digits after the point of an amount on the wire. */
export const AMOUNT_FRACTION_DIGITS = 8;
/** A price per unit may be finer than any amount billed, as Stripe's `unit_amount_decimal` is. */
export const UNIT_AMOUNT_FRACTION_DIGITS = 12;
const PLAIN_DECIMAL = /^-?(\d+)(?:\.(\d+))?$/;

/**
 * Parses a wire amount. Only plain decimals are money: no exponent (`1e3`), no `+`, no
 * whitespace, at most 20 digits of which at most 8 after the point.
 */
export function parseAmount(s: string): Big {
  return parseDecimal(s, AMOUNT_FRACTION_DIGITS);
}

/** Parses a price per unit: a wire amount with up to 12 digits after the point (20 in all). */
export function parseUnitAmount(s: string): Big {
  return parseDecimal(s, UNIT_AMOUNT_FRACTION_DIGITS);
}

function parseDecimal(s: string, maxFractionDigits: number): Big {
  const match = PLAIN_DECIMAL.exec(s);
  const integerDigits = match?.[1].length ?? 0;
  const fractionDigits = match?.[2]?.length ?? 0;
  if (!match || integerDigits + fractionDigits > AMOUNT_MAX_DIGITS || fractionDigits > maxFractionDigits) {
    throw DomainError.invalid('money.invalid_amount', `"${s}" is not a decimal amount (at most ${AMOUNT_MAX_DIGITS} digits, ${maxFractionDigits} after the point)`);
  }
  return new Big(s);
}

/** True when the amount can be paid as it is: a whole number of the currency's minor units (0.50 USD, not 0.5 JPY). */
export function isWholeMinorUnits(amount: Big, currency: string): boolean {
  return amount.round(minorUnits(currency), Big.roundDown).eq(amount);
}

/** Rounds to the currency's minor unit; ties go to the even neighbour, or away from zero with half_up. */
export function roundToCurrency(amount: Big, currency: string, mode: RoundingMode = 'half_even'): Big {
  return amount.round(minorUnits(currency), mode === 'half_up' ? Big.roundHalfUp : Big.roundHalfEven);
}

/**
 * A plain decimal string, never exponent notation. With a currency: rounded (half-even) to and
 * showing exactly its minor units (`5.00`, `7`, `1.250`); without: as few digits as needed.
 */
export function formatAmount(amount: Big, currency?: string): string {
  if (currency === undefined) return amount.toFixed();
  return roundToCurrency(amount, currency).toFixed(minorUnits(currency));
}

/**
 * The exact amount, never rounded, as a plain decimal string with at least the currency's minor
 * units: `35.00`, `0.00455` in USD. For the parts of a line that only the line's total rounds.
 */
export function formatExactAmount(amount: Big, currency: string): string {
  const fractionDigits = amount.toFixed().split('.')[1]?.length ?? 0;
  return amount.toFixed(Math.max(fractionDigits, minorUnits(currency)));
}

/**
 * Splits `total` (first rounded half-even to the currency) into parts proportional to `weights`
 * by the largest-remainder method: every part gets the floor of its exact share in minor units,
 * then the minor units left over go one each to the parts with the largest remainders; on equal
 * remainders the earlier index wins. The parts always sum exactly to the rounded total. When every
 * weight is zero the total is split equally. A negative total is split as its absolute value and
 * negated, so results are symmetric.
 */
export function allocate(total: Big, weights: readonly Big[], currency: string): Big[] {
  if (weights.length === 0) {
    throw DomainError.invalid('money.invalid_allocation', 'an allocation needs at least one weight');
  }
  if (weights.some((w) => w.lt(0))) {
    throw DomainError.invalid('money.invalid_allocation', 'allocation weights cannot be negative');
  }
  const digits = minorUnits(currency);
  const units = BigInt(roundToCurrency(total, currency).times(new Big(10).pow(digits)).toFixed(0));
  const magnitude = units < 0n ? -units : units;
  const scaled = toIntegers(weights);
  const shares = scaled.every((w) => w === 0n) ? scaled.map(() => 1n) : scaled;
  const parts = largestRemainder(magnitude, shares);
  return parts.map((p) => new Big(`${units < 0n ? -p : p}e-${digits}`));
}

/** Exact integer weights with the same ratios: each decimal weight times 10^(most fraction digits). */
function toIntegers(weights: readonly Big[]): bigint[] {
  const fractionDigits = Math.max(...weights.map((w) => w.toFixed().split('.')[1]?.length ?? 0));
  const factor = new Big(10).pow(fractionDigits);
  return weights.map((w) => BigInt(w.times(factor).toFixed(0)));
}

function largestRemainder(units: bigint, weights: readonly bigint[]): bigint[] {
  const totalWeight = weights.reduce((a, b) => a + b, 0n);
  const parts = weights.map((w) => (units * w) / totalWeight);
  const remainders = weights.map((w) => (units * w) % totalWeight);
  let leftover = units - parts.reduce((a, b) => a + b, 0n);
  const byRemainder = weights
    .map((_, i) => i)
    .sort((a, b) => (remainders[b] > remainders[a] ? 1 : remainders[b] < remainders[a] ? -1 : a - b));
  for (const i of byRemainder) {
    if (leftover === 0n) break;
    parts[i] += 1n;
    leftover -= 1n;
  }
  return parts;
}
