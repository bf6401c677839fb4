import Big from 'big.js';
import { formatAmount } from '@tally/kernel';
import { LEDGER_ACCOUNT_NAMES, LEDGER_ACCOUNTS, normalSideOf, type AccountType, type LedgerAccount } from './ledger-accounts';
import type { Side } from './journal-entry';

export type LedgerPeriod = 'day' | 'month';

/** What an account moved on one UTC day in one currency: the sums of its debit and credit lines. */
export interface DailyMovement {
  currency: string;
  account: LedgerAccount;
  /** `YYYY-MM-DD`. */
  day: string;
  debit: string;
  credit: string;
}

/** An account's balance over one period, on its normal side (a negative balance is on the other). */
export interface AccountPeriod {
  period_start: string;
  period_end: string;
  currency: string;
  account: LedgerAccount;
  account_type: AccountType;
  normal_side: Side;
  opening_balance: string;
  debits: string;
  credits: string;
  closing_balance: string;
}

/** The whole range's sums of one currency: debits equal credits when the ledger balances. */
export interface CurrencyTotals {
  currency: string;
  debits: string;
  credits: string;
}

export interface LedgerRange {
  period: LedgerPeriod;
  /** First day of the range, `YYYY-MM-DD` (a month's first day for `month`). */
  from: string;
  /** The day after the range, exclusive, aligned as `from`. */
  to: string;
}

/** The starts of the range's periods, and the range's end. */
export function periodStarts({ period, from, to }: LedgerRange): string[] {
  const starts: string[] = [];
  for (let start = from; start < to; start = nextPeriod(start, period)) starts.push(start);
  return starts;
}

export function nextPeriod(start: string, period: LedgerPeriod): string {
  const date = new Date(`${start}T00:00:00.000Z`);
  if (period === 'day') date.setUTCDate(date.getUTCDate() + 1);
  else date.setUTCMonth(date.getUTCMonth() + 1);
  return date.toISOString().slice(0, 10);
}

/**
 * Balances by account and period: every account and currency that moved before the range's end
 * (or holds a balance at its start) gets a row per period, zero movements included, so that each
 * period's closing balance is the next one's opening. `before` holds the movements before `from`;
 * `within` those in the range.
 */
export function ledgerBalances(range: LedgerRange, before: readonly DailyMovement[], within: readonly DailyMovement[]): { data: AccountPeriod[]; totals: CurrencyTotals[] } {
  const key = (currency: string, account: LedgerAccount) => `${currency}\u0000${account}`;
  const opening = new Map<string, Big>();
  const accounts = new Map<string, { currency: string; account: LedgerAccount }>();
  for (const m of before) {
    const k = key(m.currency, m.account);
    accounts.set(k, { currency: m.currency, account: m.account });
    opening.set(k, (opening.get(k) ?? new Big(0)).plus(signed(m)));
  }
  const byPeriod = new Map<string, { debit: Big; credit: Big }>();
  const starts = periodStarts(range);
  const startOf = (day: string) => (range.period === 'day' ? day : `${day.slice(0, 7)}-01`);
  const totals = new Map<string, { debit: Big; credit: Big }>();
  for (const m of within) {
    const k = key(m.currency, m.account);
    accounts.set(k, { currency: m.currency, account: m.account });
    const pk = `${k}\u0000${startOf(m.day)}`;
    const sums = byPeriod.get(pk) ?? { debit: new Big(0), credit: new Big(0) };
    byPeriod.set(pk, { debit: sums.debit.plus(m.debit), credit: sums.credit.plus(m.credit) });
    const total = totals.get(m.currency) ?? { debit: new Big(0), credit: new Big(0) };
    totals.set(m.currency, { debit: total.debit.plus(m.debit), credit: total.credit.plus(m.credit) });
  }
  const ordered = [...accounts.values()].sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : LEDGER_ACCOUNT_NAMES.indexOf(a.account) - LEDGER_ACCOUNT_NAMES.indexOf(b.account)));
  const data: AccountPeriod[] = [];
  for (const { currency, account } of ordered) {
    const { type } = LEDGER_ACCOUNTS[account];
    const normal = normalSideOf(type);
    const onNormalSide = (debitMinusCredit: Big) => formatAmount(normal === 'debit' ? debitMinusCredit : debitMinusCredit.neg(), currency);
    let balance = opening.get(key(currency, account)) ?? new Big(0);
    for (const start of starts) {
      const sums = byPeriod.get(`${key(currency, account)}\u0000${start}`) ?? { debit: new Big(0), credit: new Big(0) };
      const closing = balance.plus(sums.debit).minus(sums.credit);
      data.push({
        period_start: start,
        period_end: nextPeriod(start, range.period),
        currency,
        account,
        account_type: type,
        normal_side: normal,
        opening_balance: onNormalSide(balance),
        debits: formatAmount(sums.debit, currency),
        credits: formatAmount(sums.credit, currency),
        closing_balance: onNormalSide(closing),
      });
      balance = closing;
    }
  }
  const currencyTotals = [...totals.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([currency, { debit, credit }]) => ({ currency, debits: formatAmount(debit, currency), credits: formatAmount(credit, currency) }));
  return { data, totals: currencyTotals };
}

const signed = (m: DailyMovement): Big => new Big(m.debit).minus(m.credit);
