import { post, type LedgerSource } from './ledger-postings';
import type { PostedEvent } from './ledger-events';
import { sidesOf, type JournalEntry } from './journal-entry';

/** The entries a stream's events post, in order (null: the event posts nothing). */
function postAll(events: readonly PostedEvent[]): (JournalEntry | null)[] {
  let source: LedgerSource | undefined;
  return events.map((event) => {
    const posting = post(source, event);
    source = posting.source;
    return posting.entry;
  });
}

const lines = (entry: JournalEntry | null) => entry?.lines.map(({ account, side, amount }) => `${side} ${account} ${amount}`);

const created: PostedEvent = { type: 'InvoiceCreated', data: { invoice_id: 'in_1', customer_id: 'cus_1', currency: 'EUR' } };
/** Two lines: 100.00 at 20% tax (after a 10.00 discount: 90.00 + 18.00) and 50.00 untaxed. */
const finalized: PostedEvent = {
  type: 'InvoiceFinalized',
  data: {
    invoice_id: 'in_1',
    number: 'INV-1',
    totals: {
      lines: [
        { line_id: 'li_a', tax_amount: '18.00', total: '108.00' },
        { line_id: 'li_b', tax_amount: '0.00', total: '50.00' },
      ],
      subtotal: '150.00',
      discount: '10.00',
      tax: '18.00',
      total: '158.00',
    },
  },
};
const note = (amount: string, pre_payment: boolean, byLine: { line_id: string; amount: string }[] = []): PostedEvent => ({
  type: 'CreditNoteIssued',
  data: { invoice_id: 'in_1', credit_note_id: 'cn_1', amount, lines: byLine, pre_payment },
});
const applied = (amount: string): PostedEvent => ({ type: 'InvoicePaymentApplied', data: { invoice_id: 'in_1', payment_id: 'pay_1', amount } });

describe('ledger posting rules', () => {
  it('a finalised invoice: receivable against revenue (net of discount) and tax payable', () => {
    const [none, entry] = postAll([created, finalized]);
    expect(none).toBeNull();
    expect(lines(entry)).toEqual(['debit accounts_receivable 158.00', 'credit revenue 140.00', 'credit tax_payable 18.00']);
  });

  it('a negative invoice (a cancel’s credit) is owed to the customer, not receivable', () => {
    const negative: PostedEvent = { type: 'InvoiceFinalized', data: { invoice_id: 'in_1', number: 'INV-1', totals: { lines: [], subtotal: '-12.00', discount: '0.00', tax: '-2.00', total: '-14.00' } } };
    expect(lines(postAll([created, negative])[1])).toEqual(['credit credits_owed 14.00', 'debit revenue 12.00', 'debit tax_payable 2.00']);
  });

  it('a payment: received into cash (or out of the wallet) then applied against receivable', () => {
    const paymentCreated = (provider: string): PostedEvent => ({ type: 'PaymentCreated', data: { payment_id: 'pay_1', invoice_id: 'in_1', provider, amount: '158.00', currency: 'EUR' } });
    const succeeded: PostedEvent = { type: 'PaymentSucceeded', data: { payment_id: 'pay_1' } };
    expect(lines(postAll([paymentCreated('sandbox'), succeeded])[1])).toEqual(['debit cash 158.00', 'credit unapplied_payments 158.00']);
    expect(lines(postAll([paymentCreated('wallet'), succeeded])[1])).toEqual(['debit wallet_liability 158.00', 'credit unapplied_payments 158.00']);
    expect(lines(postAll([created, finalized, applied('58.00')])[2])).toEqual(['debit unapplied_payments 58.00', 'credit accounts_receivable 58.00']);
  });

  it('a payment its invoice could not take, returned: out of unapplied payments; other refunds post from their refund', () => {
    const events: PostedEvent[] = [
      { type: 'PaymentCreated', data: { payment_id: 'pay_1', invoice_id: 'in_1', provider: 'sandbox', amount: '10.00', currency: 'EUR' } },
      { type: 'PaymentRefunded', data: { payment_id: 'pay_1', refund_id: 're_1', amount: '10.00', reason: 'invoice_not_payable' } },
      { type: 'PaymentRefunded', data: { payment_id: 'pay_1', refund_id: 're_2', amount: '10.00', reason: 'requested_by_customer' } },
    ];
    const [, returned, other] = postAll(events);
    expect(lines(returned)).toEqual(['debit unapplied_payments 10.00', 'credit cash 10.00']);
    expect(other).toBeNull();
  });

  describe('credit notes', () => {
    it('before payment: contra-revenue and tax back against receivable, tax at the line’s own rate', () => {
      const [, , entry] = postAll([created, finalized, note('54.00', true, [{ line_id: 'li_a', amount: '54.00' }])]);
      expect(lines(entry)).toEqual(['debit refunds 45.00', 'debit tax_payable 9.00', 'credit accounts_receivable 54.00']);
      const [, , untaxed] = postAll([created, finalized, note('20.00', true, [{ line_id: 'li_b', amount: '20.00' }])]);
      expect(lines(untaxed)).toEqual(['debit refunds 20.00', 'credit accounts_receivable 20.00']);
    });

    it('after payment: owed to the customer (a refund or the wallet takes it from there)', () => {
      const [, , , entry] = postAll([created, finalized, applied('158.00'), note('15.80', false)]);
      expect(lines(entry)).toEqual(['debit refunds 14.00', 'debit tax_payable 1.80', 'credit credits_owed 15.80']);
    });

    it('crediting a line in pieces gives back exactly its tax, rounding on the running sum', () => {
      const thirds = [note('36.00', true, [{ line_id: 'li_a', amount: '36.00' }]), note('36.01', true, [{ line_id: 'li_a', amount: '36.01' }]), note('35.99', true, [{ line_id: 'li_a', amount: '35.99' }])];
      const entries = postAll([created, finalized, ...thirds]).slice(2);
      const taxBack = entries.flatMap((entry) => entry!.lines.filter((line) => line.account === 'tax_payable').map((line) => Number(line.amount) * 100));
      expect(taxBack.reduce((a, b) => a + b, 0)).toBe(1800);
    });
  });

  it('a void reverses what is left of revenue and tax, against receivable', () => {
    const [, , , entry] = postAll([created, finalized, note('50.00', true, [{ line_id: 'li_b', amount: '50.00' }]), { type: 'InvoiceVoided', data: { invoice_id: 'in_1' } }]);
    expect(lines(entry)).toEqual(['debit revenue 90.00', 'debit tax_payable 18.00', 'credit accounts_receivable 108.00']);
  });

  it('a write-off moves what is due to bad debt', () => {
    const [, , , entry] = postAll([created, finalized, applied('100.00'), { type: 'InvoiceMarkedUncollectible', data: { invoice_id: 'in_1' } }]);
    expect(lines(entry)).toEqual(['debit bad_debt 58.00', 'credit accounts_receivable 58.00']);
  });

  it('a charge-back leaves cash until the dispute is won', () => {
    const [, , back, won] = postAll([
      { type: 'PaymentCreated', data: { payment_id: 'pay_1', invoice_id: 'in_1', provider: 'sandbox', amount: '10.00', currency: 'EUR' } },
      { type: 'PaymentSucceeded', data: { payment_id: 'pay_1' } },
      { type: 'PaymentChargedBack', data: { payment_id: 'pay_1', amount: '10.00' } },
      { type: 'PaymentDisputeWon', data: { payment_id: 'pay_1' } },
    ]);
    expect(lines(back)).toEqual(['debit chargebacks 10.00', 'credit cash 10.00']);
    expect(lines(won)).toEqual(['debit cash 10.00', 'credit chargebacks 10.00']);
  });

  describe('wallets (the wallets context’s events)', () => {
    const transaction = { transaction_id: 'wtx_1', amount: '25.00', source: { type: 'manual', id: null } };
    const credited = (reason: 'manual_topup' | 'promotional' | 'credit_note' | 'refund' | 'migration'): PostedEvent => ({
      type: 'WalletCredited',
      data: { wallet_id: 'wal_1', customer_id: 'cus_1', currency: 'EUR', transaction: { ...transaction, type: 'credit', reason } },
    });
    const debited = (reason: 'manual' | 'invoice_settlement' | 'correction'): PostedEvent => ({
      type: 'WalletDebited',
      data: { wallet_id: 'wal_1', customer_id: 'cus_1', currency: 'EUR', transaction: { ...transaction, type: 'debit', reason } },
    });

    it('a credit is a liability to the customer, funded by where it came from', () => {
      expect(lines(post(undefined, credited('manual_topup')).entry)).toEqual(['debit cash 25.00', 'credit wallet_liability 25.00']);
      expect(lines(post(undefined, credited('promotional')).entry)).toEqual(['debit promotional_credits 25.00', 'credit wallet_liability 25.00']);
      expect(lines(post(undefined, credited('credit_note')).entry)).toEqual(['debit credits_owed 25.00', 'credit wallet_liability 25.00']);
      expect(lines(post(undefined, credited('refund')).entry)).toEqual(['debit credits_owed 25.00', 'credit wallet_liability 25.00']);
      expect(lines(post(undefined, credited('migration')).entry)).toEqual(['debit adjustments 25.00', 'credit wallet_liability 25.00']);
    });

    it('a debit lowers it; a settlement is posted by its payment, not twice', () => {
      expect(lines(post(undefined, debited('manual')).entry)).toEqual(['debit wallet_liability 25.00', 'credit cash 25.00']);
      expect(lines(post(undefined, debited('correction')).entry)).toEqual(['debit wallet_liability 25.00', 'credit adjustments 25.00']);
      expect(post(undefined, debited('invoice_settlement')).entry).toBeNull();
    });
  });

  describe('refunds (the refunds context’s events)', () => {
    const refund = (destination: 'original_method' | 'wallet'): PostedEvent => ({ type: 'RefundCreated', data: { refund_id: 'rfd_1', payment_id: 'pay_1', amount: '30.00', currency: 'EUR', destination } });
    const succeeded: PostedEvent = { type: 'RefundSucceeded', data: { refund_id: 'rfd_1' } };
    const reversed: PostedEvent = { type: 'RefundReversed', data: { refund_id: 'rfd_1' } };

    it('paid out to the original method: what was owed leaves cash; a reversal puts it back, and the next success pays it again', () => {
      const [, paid, undone, paidAgain] = postAll([refund('original_method'), succeeded, reversed, succeeded]);
      expect(lines(paid)).toEqual(['debit credits_owed 30.00', 'credit cash 30.00']);
      expect(lines(undone)).toEqual(['debit cash 30.00', 'credit credits_owed 30.00']);
      expect(lines(paidAgain)).toEqual(['debit credits_owed 30.00', 'credit cash 30.00']);
    });

    it('a reversal before any success, a second success, and a refund into a wallet post nothing here', () => {
      expect(postAll([refund('original_method'), reversed]).slice(1)).toEqual([null]);
      expect(postAll([refund('original_method'), succeeded, succeeded])[2]).toBeNull();
      expect(postAll([refund('wallet'), succeeded])[1]).toBeNull();
      expect(postAll([refund('original_method'), { type: 'RefundSucceeded', data: { refund_id: 'rfd_1', wallet_transaction_id: 'wtx_9' } }])[1]).toBeNull();
    });
  });

  it('every entry balances: Σ debits = Σ credits', () => {
    const entries = postAll([created, finalized, note('54.00', true, [{ line_id: 'li_a', amount: '54.00' }]), applied('50.00'), { type: 'InvoiceVoided', data: { invoice_id: 'in_1' } }]);
    for (const entry of entries.filter((e): e is JournalEntry => e !== null)) {
      const { debit, credit } = sidesOf(entry);
      expect(debit.eq(credit)).toBe(true);
    }
  });
});
