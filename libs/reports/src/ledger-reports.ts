import { Injectable } from '@nestjs/common';
import type { RequestContext } from '@tally/cells';
import type { After, Condition } from '@tally/readstore';
import { ScopedReads, TIMESTAMP_FILTER, type ListPage, type ListSpec } from '@tally/runtime';
import { ledgerBalances, type AccountPeriod, type CurrencyTotals, type DailyMovement, type LedgerPeriod } from './domain/ledger-report';
import { LEDGER_DAILY_MOVEMENTS, LEDGER_ENTRIES, type LedgerEntryDoc } from './ledger.projection';
import type { LedgerReportQuery } from './ledger-report-query';

export interface LedgerReport {
  object: 'ledger_report';
  period: LedgerPeriod;
  from: string;
  to: string;
  currency: string | null;
  account: string | null;
  data: AccountPeriod[];
  totals: CurrencyTotals[];
}

export type LedgerEntryResource = Omit<LedgerEntryDoc, 'created_at'>;

/** The journal's list: oldest first by default; by currency, moment, and the object whose events posted it (an invoice's entries). */
export const LEDGER_ENTRY_LIST: ListSpec = {
  sortable: ['occurred_at'],
  defaultSort: { field: 'occurred_at', direction: 'asc' },
  filters: { currency: { ops: ['eq'] }, occurred_at: TIMESTAMP_FILTER, 'source.id': { ops: ['eq'] } },
};

/** Movements read per round trip while a report is summed. */
const MOVEMENTS_PER_READ = 1000;

/** The ledger as an auditor reads it: balances by account and period, and the journal entry by entry. */
@Injectable()
export class LedgerReports {
  constructor(private readonly reads: ScopedReads) {}

  async balances(context: RequestContext, { range, currency, account }: LedgerReportQuery): Promise<LedgerReport> {
    const where: Condition[] = [
      ...(currency ? [{ field: 'currency', op: 'eq' as const, value: currency }] : []),
      ...(account ? [{ field: 'account', op: 'eq' as const, value: account }] : []),
    ];
    const before = await this.movements(context, [...where, { field: 'day', op: 'lt', value: range.from }]);
    const within = await this.movements(context, [...where, { field: 'day', op: 'gte', value: range.from }, { field: 'day', op: 'lt', value: range.to }]);
    return { object: 'ledger_report', ...range, currency, account, ...ledgerBalances(range, before, within) };
  }

  entries(context: RequestContext, params: Record<string, unknown>): Promise<ListPage<LedgerEntryResource>> {
    return this.reads.page<LedgerEntryDoc, LedgerEntryResource>(context, LEDGER_ENTRIES, params, LEDGER_ENTRY_LIST, ({ created_at: _created, ...entry }) => entry);
  }

  private async movements(context: RequestContext, where: Condition[]): Promise<DailyMovement[]> {
    const all: DailyMovement[] = [];
    let after: After | undefined;
    for (;;) {
      const page = await this.reads.list<DailyMovement & { id: string; [field: string]: unknown }>(context, LEDGER_DAILY_MOVEMENTS, { where, sort: { field: 'day', direction: 'asc' }, limit: MOVEMENTS_PER_READ, after });
      all.push(...page.items);
      const last = page.items[page.items.length - 1];
      if (!page.hasMore || !last) return all;
      after = { value: last.day, id: last.id };
    }
  }
}
