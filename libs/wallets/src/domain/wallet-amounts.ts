import Big from 'big.js';
import { DomainError, formatAmount, isWholeMinorUnits, parseAmount } from '@tally/kernel';

/**
 * An amount a wallet takes: a plain decimal, positive (or, for a floor or a trigger, `atLeastZero`)
 * and exact at the currency's minor unit (1.50 USD, not 1.505 USD nor 1.5 JPY); anything else is
 * 400 `wallet.invalid_amount` naming `field`. Formatted at the minor unit, as balances are.
 */
export function walletAmount(value: string, currency: string, field: string, { atLeastZero = false } = {}): string {
  const amount = parsed(value);
  if (amount === undefined || (atLeastZero ? amount.lt(0) : amount.lte(0)) || !isWholeMinorUnits(amount, currency)) {
    const what = atLeastZero ? 'zero or more' : 'more than zero';
    throw DomainError.invalid('wallet.invalid_amount', `${field} must be a decimal amount ${what}, exact at the ${currency} minor unit`, [
      { field, code: 'wallet.invalid_amount', message: `${what}, exact at the ${currency} minor unit` },
    ]);
  }
  return formatAmount(amount, currency);
}

function parsed(value: string): Big | undefined {
  try {
    return parseAmount(value);
  } catch {
    return undefined;
  }
}
