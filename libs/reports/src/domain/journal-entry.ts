import Big from 'big.js';
import { formatAmount } from '@tally/kernel';
import type { LedgerAccount } from './ledger-accounts';

export type Side = 'debit' | 'credit';

/** One line of an entry: an amount (positive, a decimal string at the currency's minor unit) on one side of one account. */
export interface JournalLine {
  account: LedgerAccount;
  side: Side;
  amount: string;
}

/** What one money event posts: lines in one currency whose debits equal their credits. */
export interface JournalEntry {
  currency: string;
  description: string;
  lines: JournalLine[];
}

/** A signed movement while an entry is built: positive debits, negative credits. */
export type Movement = readonly [LedgerAccount, Big];

/**
 * The entry of signed movements: zero movements dropped, each line on the side its sign gives.
 * Throws when they do not sum to zero: an unbalanced entry is a bug of its rule, never posted.
 */
export function entryOf(currency: string, description: string, movements: readonly Movement[]): JournalEntry | null {
  const lines = movements.filter(([, amount]) => !amount.eq(0));
  if (lines.length === 0) return null;
  const net = lines.reduce((sum, [, amount]) => sum.plus(amount), new Big(0));
  if (!net.eq(0)) throw new Error(`Unbalanced ledger entry (${description}): debits and credits differ by ${net.toFixed()} ${currency}`);
  return {
    currency,
    description,
    lines: lines.map(([account, amount]) => ({ account, side: amount.gt(0) ? 'debit' : 'credit', amount: formatAmount(amount.abs(), currency) })),
  };
}

/** Σ debits and Σ credits of an entry's lines. */
export function sidesOf(entry: Pick<JournalEntry, 'lines'>): { debit: Big; credit: Big } {
  let debit = new Big(0);
  let credit = new Big(0);
  for (const line of entry.lines) {
    if (line.side === 'debit') debit = debit.plus(line.amount);
    else credit = credit.plus(line.amount);
  }
  return { debit, credit };
}
