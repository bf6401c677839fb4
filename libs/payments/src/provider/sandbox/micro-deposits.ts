import Big from 'big.js';

/** The two amounts every sandbox bank account receives, as Stripe's test bank accounts do. */
export const SANDBOX_MICRO_DEPOSITS = ['0.32', '0.45'] as const;

/** True when the two amounts are the micro-deposits, as decimals and in either order. */
export function matchesMicroDeposits(amounts: readonly [string, string]): boolean {
  const [first, second] = amounts.map(decimalOrNull);
  if (!first || !second) return false;
  const [a, b] = SANDBOX_MICRO_DEPOSITS;
  return (first.eq(a) && second.eq(b)) || (first.eq(b) && second.eq(a));
}

function decimalOrNull(value: string): Big | null {
  try {
    return new Big(value);
  } catch {
    return null;
  }
}
