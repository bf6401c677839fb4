import { ledgerBalances, periodStarts, type DailyMovement } from './ledger-report';

const move = (day: string, account: DailyMovement['account'], debit: string, credit: string): DailyMovement => ({ currency: 'EUR', account, day, debit, credit });

describe('ledger balances by account and period', () => {
  it('periods: days, or months from their first day', () => {
    expect(periodStarts({ period: 'day', from: '2026-02-27', to: '2026-03-02' })).toEqual(['2026-02-27', '2026-02-28', '2026-03-01']);
    expect(periodStarts({ period: 'month', from: '2025-12-01', to: '2026-02-01' })).toEqual(['2025-12-01', '2026-01-01']);
  });

  it('each period opens where the last closed, balances on the account’s normal side, quiet periods included', () => {
    const before = [move('2026-01-10', 'accounts_receivable', '100.00', '0'), move('2026-01-10', 'revenue', '0', '100.00')];
    const within = [
      move('2026-02-03', 'accounts_receivable', '50.00', '30.00'),
      move('2026-02-03', 'revenue', '0', '50.00'),
      move('2026-02-03', 'cash', '30.00', '0'),
      move('2026-04-01', 'revenue', '5.00', '0'),
      move('2026-04-01', 'cash', '0', '5.00'),
    ];
    const { data, totals } = ledgerBalances({ period: 'month', from: '2026-02-01', to: '2026-05-01' }, before, within);
    const receivable = data.filter((row) => row.account === 'accounts_receivable');
    expect(receivable.map((row) => [row.period_start, row.opening_balance, row.debits, row.credits, row.closing_balance])).toEqual([
      ['2026-02-01', '100.00', '50.00', '30.00', '120.00'],
      ['2026-03-01', '120.00', '0.00', '0.00', '120.00'],
      ['2026-04-01', '120.00', '0.00', '0.00', '120.00'],
    ]);
    const revenue = data.filter((row) => row.account === 'revenue');
    expect(revenue.map((row) => row.closing_balance)).toEqual(['150.00', '150.00', '145.00']);
    expect(revenue[0]).toMatchObject({ account_type: 'revenue', normal_side: 'credit' });
    expect(data.map((row) => row.account)).toEqual([...Array(3).fill('accounts_receivable'), ...Array(3).fill('cash'), ...Array(3).fill('revenue')]);
    expect(totals).toEqual([{ currency: 'EUR', debits: '85.00', credits: '85.00' }]);
  });
});
