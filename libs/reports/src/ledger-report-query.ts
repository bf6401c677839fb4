import { DomainError, isCurrency } from '@tally/kernel';
import { invalidParameter } from '@tally/runtime';
import { isLedgerAccount, LEDGER_ACCOUNT_NAMES, type LedgerAccount } from './domain/ledger-accounts';
import type { LedgerPeriod, LedgerRange } from './domain/ledger-report';

/** What `GET /v1/reports/ledger` asks for. */
export interface LedgerReportQuery {
  range: LedgerRange;
  currency: string | null;
  account: LedgerAccount | null;
}

export const LEDGER_PERIODS: readonly LedgerPeriod[] = ['day', 'month'];
/** Periods one report holds at most: a year of days, or some thirty years of months. */
export const MAX_PERIODS = 366;
const PARAMETERS = ['period', 'from', 'to', 'currency', 'account'];
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** The report's parameters, checked: any other parameter, and any value it does not take, is refused. */
export function ledgerReportQueryOf(params: Record<string, unknown>): LedgerReportQuery {
  const other = Object.keys(params).find((key) => !PARAMETERS.includes(key));
  if (other !== undefined) throw invalidParameter(other, `Unknown parameter ${other}; the ledger report takes ${PARAMETERS.join(', ')}`);
  const period = params.period ?? 'month';
  if (typeof period !== 'string' || !LEDGER_PERIODS.includes(period as LedgerPeriod)) throw invalidParameter('period', `period takes ${LEDGER_PERIODS.join(' or ')}`);
  const range: LedgerRange = { period: period as LedgerPeriod, from: dateOf('from', params.from, period as LedgerPeriod), to: dateOf('to', params.to, period as LedgerPeriod) };
  if (range.from >= range.to) throw invalidRange('to', 'to lies after from (the range is [from, to))');
  if (periodsIn(range) > MAX_PERIODS) throw invalidRange('to', `a report holds at most ${MAX_PERIODS} periods`);
  return { range, currency: currencyOf(params.currency), account: accountOf(params.account) };
}

/** Each parameter is well-formed, but together they make no report (a rule of the range, not of one parameter's schema). */
const invalidRange = (field: string, message: string): DomainError =>
  DomainError.unprocessable('report.invalid_range', `The report's range does not hold: ${message}`, [{ field, code: 'report.invalid_range', message }]);

/** A day (`YYYY-MM-DD`, UTC), the first of its month for monthly periods. */
function dateOf(field: string, raw: unknown, period: LedgerPeriod): string {
  if (raw === undefined) throw invalidParameter(field, `${field} is required: a date such as 2026-06-01`);
  if (typeof raw !== 'string' || !isDay(raw)) throw invalidParameter(field, `${field} takes a date such as 2026-06-01`);
  if (period === 'month' && !raw.endsWith('-01')) throw invalidRange(field, `with monthly periods ${field} is the first day of a month`);
  return raw;
}

/** A real UTC day: a day that does not exist (2026-02-30) parses as another one. */
function isDay(raw: string): boolean {
  const time = DATE.test(raw) ? Date.parse(`${raw}T00:00:00.000Z`) : NaN;
  return !Number.isNaN(time) && new Date(time).toISOString().startsWith(raw);
}

/** How many periods the range holds (its days, or its months). */
function periodsIn({ period, from, to }: LedgerRange): number {
  if (period === 'day') return (Date.parse(to) - Date.parse(from)) / 86_400_000;
  const months = (date: string) => Number(date.slice(0, 4)) * 12 + Number(date.slice(5, 7));
  return months(to) - months(from);
}

function currencyOf(raw: unknown): string | null {
  if (raw === undefined) return null;
  if (typeof raw !== 'string' || !isCurrency(raw)) throw invalidParameter('currency', 'currency takes an ISO 4217 code such as EUR');
  return raw;
}

function accountOf(raw: unknown): LedgerAccount | null {
  if (raw === undefined) return null;
  if (typeof raw !== 'string' || !isLedgerAccount(raw)) throw invalidParameter('account', `account takes one of ${LEDGER_ACCOUNT_NAMES.join(', ')}`);
  return raw;
}
