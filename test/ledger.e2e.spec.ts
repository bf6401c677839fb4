import Big from 'big.js';
import { TallyUnderTest, type TestTenant } from './support/tally';

interface Line {
  account: string;
  side: 'debit' | 'credit';
  amount: string;
}
interface Entry {
  id: string;
  currency: string;
  occurred_at: string;
  source: { object: string; id: string; event_type: string };
  lines: Line[];
}
interface Row {
  period_start: string;
  currency: string;
  account: string;
  opening_balance: string;
  debits: string;
  credits: string;
  closing_balance: string;
}

/** The double-entry ledger through the HTTP API: the journal of the money events and its balances by account and period. */
describe('the ledger through the HTTP API', () => {
  let tally: TallyUnderTest;
  let acme: TestTenant;
  let api: ReturnType<TallyUnderTest['as']>;

  beforeAll(async () => {
    ({ tally, acme, api } = await TallyUnderTest.withTenant());
    await tally.liftRateLimits(acme.tenantId);
    await api.patch('/v1/tax/settings', { origin: { country: 'DE' } }).expect(200);
  });
  afterAll(() => tally.stop());

  const payingCustomer = async () => {
    const customer = (await api.post('/v1/customers', { name: 'Berlin GmbH', billing_address: { country: 'DE', city: 'Berlin' } }).expect(200)).body.id as string;
    await api.post(`/v1/customers/${customer}/payment-methods`, { type: 'card', token: 'tok_visa', set_as_default: true }).expect(200);
    return customer;
  };
  const openInvoice = async (customer: string, amounts: string[]) => {
    const lines = amounts.map((unit_amount, i) => ({ description: `Item ${i}`, quantity: '1', unit_amount }));
    const draft = (await api.post('/v1/invoices', { customer_id: customer, currency: 'EUR', auto_charge: false, lines }).expect(200)).body as { id: string };
    return (await api.post(`/v1/invoices/${draft.id}/finalize`).expect(200)).body as { id: string; total: string; lines: { id: string }[] };
  };
  const allEntries = async (query = ''): Promise<Entry[]> => {
    const entries: Entry[] = [];
    let cursor: string | null = null;
    do {
      const page: { data: Entry[]; next_cursor: string | null } = (await api.get(`/v1/reports/ledger/entries?limit=100${query}${cursor ? `&cursor=${cursor}` : ''}`).expect(200)).body;
      entries.push(...page.data);
      cursor = page.next_cursor;
    } while (cursor);
    return entries;
  };
  const openAmountDue = async (): Promise<Big> => {
    const invoices = (await api.get('/v1/invoices?status=open,partially_paid&limit=100').expect(200)).body.data as { amount_due: string }[];
    return invoices.reduce((sum, invoice) => sum.plus(invoice.amount_due), new Big(0));
  };
  const report = async (query: string) => (await api.get(`/v1/reports/ledger?${query}`).expect(200)).body as { data: Row[]; totals: { currency: string; debits: string; credits: string }[] };

  it('posts invoices, payments, credit notes, voids and write-offs as balanced entries; receivable ties out to what is due', async () => {
    // A seeded walk: the same sequence on every run, every kind of money event in it.
    let seed = 20261128;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const cents = (max: number) => (Math.floor(random() * max * 100) / 100 + 0.01).toFixed(2);
    for (let i = 0; i < 8; i++) {
      const customer = await payingCustomer();
      const invoice = await openInvoice(customer, [cents(300), cents(80)]);
      const total = new Big(invoice.total);
      switch (i % 4) {
        case 0: {
          const part = total.div(3).round(2, Big.roundDown);
          await api.post(`/v1/invoices/${invoice.id}/pay`, { amount: part.toFixed(2) }).expect(200);
          await api.post(`/v1/invoices/${invoice.id}/credit-notes`, { reason: 'order_change', lines: [{ line_id: invoice.lines[1].id, amount: '5.00' }] }).expect(200);
          break;
        }
        case 1:
          await api.post(`/v1/invoices/${invoice.id}/pay`, {}).expect(200);
          await tally.settle();
          await api.post(`/v1/invoices/${invoice.id}/credit-notes`, { reason: 'product_unsatisfactory', amount: total.div(4).round(2, Big.roundDown).toFixed(2) }).expect(200);
          break;
        case 2:
          await api.post(`/v1/invoices/${invoice.id}/credit-notes`, { reason: 'duplicate', amount: '10.00' }).expect(200);
          await api.post(`/v1/invoices/${invoice.id}/void`).expect(200);
          break;
        case 3:
          await api.post(`/v1/invoices/${invoice.id}/pay`, { amount: '50.00' }).expect(200);
          await tally.settle();
          await api.post(`/v1/invoices/${invoice.id}/mark-uncollectible`).expect(200);
          break;
      }
      tally.clock.advance(36 * 3_600_000);
    }
    await tally.settle();

    const entries = await allEntries();
    expect(new Set(entries.map((entry) => entry.source.event_type))).toEqual(
      // A credit note on a paid invoice goes to the customer's wallet by default (its outcome `credit_balance`).
      new Set(['InvoiceFinalized', 'InvoicePaymentApplied', 'PaymentSucceeded', 'CreditNoteIssued', 'WalletCredited', 'InvoiceVoided', 'InvoiceMarkedUncollectible']),
    );
    for (const entry of entries) {
      const sum = (side: Line['side']) => entry.lines.filter((line) => line.side === side).reduce((s, line) => s.plus(line.amount), new Big(0));
      expect({ id: entry.id, debits: sum('debit').toFixed(2) }).toEqual({ id: entry.id, debits: sum('credit').toFixed(2) });
    }

    const { data, totals } = await report('from=2026-05-01&to=2026-06-01&currency=EUR');
    const closing = (account: string) => data.find((row) => row.account === account)?.closing_balance;
    expect(closing('accounts_receivable')).toBe((await openAmountDue()).toFixed(2));
    expect(totals).toHaveLength(1);
    expect(totals[0].debits).toBe(totals[0].credits);
    // The balances are the journal's sums.
    const journalCash = entries.flatMap((entry) => entry.lines.filter((line) => line.account === 'cash')).reduce((s, line) => (line.side === 'debit' ? s.plus(line.amount) : s.minus(line.amount)), new Big(0));
    expect(closing('cash')).toBe(journalCash.toFixed(2));
    expect(Number(closing('refunds'))).toBeGreaterThan(0);
    expect(Number(closing('bad_debt'))).toBeGreaterThan(0);
  });

  it('gives the balances by day: each day opens where the last closed, and only the account asked for', async () => {
    const customer = await payingCustomer();
    tally.clock.set(new Date('2026-07-10T12:00:00.000Z'));
    const invoice = await openInvoice(customer, ['100.00']);
    tally.clock.set(new Date('2026-07-12T12:00:00.000Z'));
    await api.post(`/v1/invoices/${invoice.id}/pay`, {}).expect(200);
    await tally.settle();
    const { data } = await report('period=day&from=2026-07-10&to=2026-07-13&account=accounts_receivable&currency=EUR');
    const before = new Big(data[0].opening_balance);
    expect(data.map((row) => [row.period_start, row.debits, row.credits])).toEqual([
      ['2026-07-10', '119.00', '0.00'],
      ['2026-07-11', '0.00', '0.00'],
      ['2026-07-12', '0.00', '119.00'],
    ]);
    expect(data.map((row) => row.closing_balance)).toEqual([before.plus(119).toFixed(2), before.plus(119).toFixed(2), before.toFixed(2)]);
    expect(new Set(data.map((row) => row.account))).toEqual(new Set(['accounts_receivable']));
    const july = await allEntries('&occurred_at[gte]=2026-07-10&occurred_at[lt]=2026-07-13');
    expect(july.map((entry) => entry.source)).toEqual([
      { object: 'invoice', id: invoice.id, event_type: 'InvoiceFinalized' },
      expect.objectContaining({ object: 'payment', event_type: 'PaymentSucceeded' }),
      { object: 'invoice', id: invoice.id, event_type: 'InvoicePaymentApplied' },
    ]);
  });

  it('refuses unknown parameters and values it does not take, with the field named', async () => {
    const refused = async (query: string, field: string) => {
      const problem = (await api.get(`/v1/reports/ledger?${query}`).expect(400)).body;
      expect(problem).toMatchObject({ problem: 'request.invalid_parameter', errors: [expect.objectContaining({ field })] });
    };
    await refused('from=2026-05-01&to=2026-06-01&granularity=month', 'granularity');
    await refused('from=2026-05-01&to=2026-06-01&period=week', 'period');
    await refused('to=2026-06-01', 'from');
    await refused('period=day&from=2026-02-30&to=2026-03-01', 'from');
    await refused('period=day&from=2026-13-45&to=2027-01-01', 'from');
    await refused('from=2026-05-01&to=2026-06-01&from=2026-04-01', 'from');
    await refused('from=2026-05-01&to=2026-06-01&currency=eur', 'currency');
    await refused('from=2026-05-01&to=2026-06-01&account=sales', 'account');
    expect((await api.get('/v1/reports/ledger/entries?account=cash').expect(400)).body.problem).toBe('request.invalid_parameter');
  });

  it('refuses, as unprocessable, well-formed parameters that together make no range', async () => {
    const refused = async (query: string, field: string) => {
      const problem = (await api.get(`/v1/reports/ledger?${query}`).expect(422)).body;
      expect(problem).toMatchObject({ problem: 'report.invalid_range', errors: [expect.objectContaining({ field, code: 'report.invalid_range' })] });
    };
    await refused('from=2026-05-02&to=2026-06-01', 'from');
    await refused('from=2026-06-01&to=2026-05-01', 'to');
    await refused('from=2026-06-01&to=2026-06-01', 'to');
    await refused('period=day&from=2026-01-01&to=2027-01-03', 'to');
  });
});
