import Big from 'big.js';
import fc from 'fast-check';
import { DomainError, formatAmount } from '@tally/kernel';
import { amountDue, invoiceDecider, type InvoiceCommand, type InvoiceEvent, type InvoiceFacts, type InvoiceState, type InvoiceTotalsData } from '@tally/invoicing';
import { post, type LedgerSource } from './domain/ledger-postings';
import type { PostedEvent } from './domain/ledger-events';
import { sidesOf, type JournalEntry } from './domain/journal-entry';
import type { LedgerAccount } from './domain/ledger-accounts';

/**
 * The ledger's invariants over random histories, through the domain: invoices decided by the
 * invoice decider itself (finalised, paid in parts by card or from a wallet, credited before and
 * after payment, voided with a payment under way, written off), payments, wallet credits and
 * debits, and refunds of what credit notes owe, as their contexts' events. Every entry balances;
 * receivable is the sum of the open invoices' `amount_due`; nothing is left unapplied; what is
 * owed to customers is what post-payment credits left unrefunded.
 */

const NOW = '2026-05-01T10:00:00.000Z';
const RATES = ['0', '7', '19'] as const;

interface InvoiceSpec {
  lines: { cents: number; rate: (typeof RATES)[number] }[];
}

type Step =
  | { kind: 'pay'; invoice: number; part: number; wallet: boolean }
  | { kind: 'credit'; invoice: number; part: number; byLine: boolean }
  | { kind: 'void'; invoice: number; withPaymentUnderWay: boolean }
  | { kind: 'write_off'; invoice: number }
  | { kind: 'wallet'; credit: boolean; cents: number; reason: number }
  | { kind: 'refund'; invoice: number; toWallet: boolean };

const invoices = fc.array(
  fc.record({ lines: fc.array(fc.record({ cents: fc.integer({ min: -5_000, max: 50_000 }), rate: fc.constantFrom(...RATES) }), { minLength: 1, maxLength: 3 }) }),
  { minLength: 1, maxLength: 5 },
);
/** A share in percent, whole more often than not (so that invoices get paid in full and credited after). */
const part = fc.oneof(fc.constant(100), fc.integer({ min: 1, max: 100 }));
const steps = (n: number): fc.Arbitrary<Step[]> => {
  const invoice = fc.integer({ min: 0, max: n - 1 });
  return fc.array(
    fc.oneof(
      fc.record({ kind: fc.constant('pay' as const), invoice, part, wallet: fc.boolean() }),
      fc.record({ kind: fc.constant('credit' as const), invoice, part, byLine: fc.boolean() }),
      fc.record({ kind: fc.constant('void' as const), invoice, withPaymentUnderWay: fc.boolean() }),
      fc.record({ kind: fc.constant('write_off' as const), invoice }),
      fc.record({ kind: fc.constant('wallet' as const), credit: fc.boolean(), cents: fc.integer({ min: 1, max: 10_000 }), reason: fc.nat(5) }),
      fc.record({ kind: fc.constant('refund' as const), invoice, toWallet: fc.boolean() }),
    ),
    { maxLength: 25 },
  );
};

const money = (value: Big.BigSource) => formatAmount(new Big(value), 'EUR');

function totalsOf(spec: InvoiceSpec): InvoiceTotalsData {
  const lines = spec.lines.map(({ cents, rate }, i) => {
    const amount = new Big(cents).div(100);
    const tax = amount.times(rate).div(100).round(2, Big.roundHalfEven);
    return { line_id: `li_${i}`, discount_amount: '0.00', tax_amount: money(tax), tax_rate: rate, total: money(amount.plus(tax)) };
  });
  const sum = (pick: (line: (typeof lines)[number]) => string) => lines.reduce((s, line) => s.plus(pick(line)), new Big(0));
  const subtotal = spec.lines.reduce((s, { cents }) => s.plus(new Big(cents).div(100)), new Big(0));
  return { lines, subtotal: money(subtotal), discount: '0.00', tax: money(sum((l) => l.tax_amount)), total: money(sum((l) => l.total)), tax_breakdown: [], discounts: [], tax_table_version: null, reverse_charge: false };
}

/** A history played out: the events of every stream in order, and the invoices' states at the end. */
function play(specs: InvoiceSpec[], plan: Step[]): { events: { stream: string; event: PostedEvent }[]; states: InvoiceFacts[]; owedUnrefunded: Big } {
  const events: { stream: string; event: PostedEvent }[] = [];
  const states: InvoiceState[] = specs.map(() => invoiceDecider.initialState());
  /** Post-payment credits of each invoice not yet refunded. */
  const owed = specs.map(() => new Big(0));
  let ids = 0;
  const decide = (i: number, command: InvoiceCommand): readonly InvoiceEvent[] => {
    try {
      const decided = invoiceDecider.decide(command, states[i]);
      for (const event of decided) {
        states[i] = invoiceDecider.evolve(states[i], event);
        events.push({ stream: `invoice-in_${i}`, event: event as PostedEvent });
      }
      return decided;
    } catch (error) {
      if (error instanceof DomainError) return [];
      throw error;
    }
  };
  const payment = (i: number, paymentId: string, amount: string, provider: string) => {
    events.push({ stream: `payment-${paymentId}`, event: { type: 'PaymentCreated', data: { payment_id: paymentId, invoice_id: `in_${i}`, provider, amount, currency: 'EUR' } } });
    events.push({ stream: `payment-${paymentId}`, event: { type: 'PaymentSucceeded', data: { payment_id: paymentId } } });
    const outcome = decide(i, { type: 'ApplyInvoicePayment', data: { invoice_id: `in_${i}`, payment_id: paymentId, amount } });
    // A payment the invoice could not take goes back where it came from.
    if (outcome.some((event) => event.type === 'InvoicePaymentNotApplied')) {
      events.push({ stream: `payment-${paymentId}`, event: { type: 'PaymentRefunded', data: { payment_id: paymentId, refund_id: `re_${paymentId}`, amount, reason: 'invoice_not_payable' } } });
    }
  };
  const start = (i: number, fraction: number): { paymentId: string; amount: string } | undefined => {
    const paymentId = `pay_${ids++}`;
    const state = states[i];
    const due = state.status === 'none' ? new Big(0) : amountDue(state);
    const amount = due.times(fraction).div(100).round(2, Big.roundUp);
    if (amount.lte(0)) return undefined;
    const started = decide(i, { type: 'StartInvoicePayment', data: { invoice_id: `in_${i}`, payment_id: paymentId, payment_method_id: 'pm_1', reason: 'manual', amount: money(amount) } });
    return started.length > 0 ? { paymentId, amount: money(amount) } : undefined;
  };

  specs.forEach((spec, i) => {
    const invoice_id = `in_${i}`;
    const lines = spec.lines.map(({ cents }, n) => ({
      line_id: `li_${n}`, code: null, description: 'Line', quantity: '1', unit_amount: money(new Big(cents).div(100)), amount: money(new Big(cents).div(100)),
      period_start: null, period_end: null, proration: false, price_version: null, tax_code: 'standard' as const, metadata: {},
    }));
    decide(i, {
      type: 'CreateInvoice',
      data: { invoice_id, customer_id: 'cus_1', subscription_id: null, billing_reason: 'manual', currency: 'EUR', tax_behavior: 'exclusive', auto_charge: false, description: null, due_at: null, days_until_due: 30, period_start: null, period_end: null, metadata: {}, lines, discounts: [], now: NOW },
    });
    decide(i, { type: 'FinalizeInvoice', data: { invoice_id, number: `INV-${i}`, now: NOW, line_ids: lines.map((l) => l.line_id), totals: totalsOf(spec) } });
  });

  plan.forEach((step, n) => {
    switch (step.kind) {
      case 'pay': {
        const started = start(step.invoice, step.part);
        if (started) payment(step.invoice, started.paymentId, started.amount, step.wallet ? 'wallet' : 'sandbox');
        break;
      }
      case 'credit': {
        const state = states[step.invoice];
        if (state.status === 'none') break;
        const paidBefore = state.status === 'paid';
        const line = state.lineTotals[n % state.lineTotals.length];
        const room = step.byLine ? new Big(line.total).minus(line.credited) : paidBefore ? new Big(state.total).minus(state.credited) : amountDue(state);
        const amount = room.times(step.part).div(100).round(2, Big.roundDown);
        if (amount.lte(0)) break;
        const byLine = step.byLine ? [{ line_id: line.line_id, amount: money(amount) }] : null;
        const decided = decide(step.invoice, {
          type: 'IssueCreditNote',
          data: { invoice_id: `in_${step.invoice}`, credit_note_id: `cn_${n}`, reason: 'order_change', memo: null, amount: byLine ? null : money(amount), lines: byLine, now: NOW },
        });
        // Decided first, then numbered from the tenant's credit-note sequence (the ledger posts the numbered note).
        const numbered = { type: 'NumberCreditNote' as const, data: { invoice_id: `in_${step.invoice}`, credit_note_id: `cn_${n}`, number: `CN-${String(n).padStart(6, '0')}` } };
        const issued = decided.length > 0 ? decide(step.invoice, numbered) : [];
        if (issued.some((event) => event.type === 'CreditNoteIssued' && !event.data.pre_payment)) owed[step.invoice] = owed[step.invoice].plus(amount);
        break;
      }
      case 'void': {
        const underWay = step.withPaymentUnderWay ? start(step.invoice, 100) : undefined;
        decide(step.invoice, { type: 'VoidInvoice', data: { invoice_id: `in_${step.invoice}`, cancel_open_payment: true } });
        // The payment under way succeeds after all: the void left nothing to apply it to.
        if (underWay) payment(step.invoice, underWay.paymentId, underWay.amount, 'sandbox');
        break;
      }
      case 'write_off':
        decide(step.invoice, { type: 'MarkInvoiceUncollectible', data: { invoice_id: `in_${step.invoice}`, cancel_open_payment: false } });
        break;
      case 'wallet': {
        const transaction = { transaction_id: `wtx_${n}`, amount: money(new Big(step.cents).div(100)), source: { type: 'manual', id: null } };
        const data = { wallet_id: 'wal_1', customer_id: 'cus_1', currency: 'EUR' };
        const event: PostedEvent = step.credit
          ? { type: 'WalletCredited', data: { ...data, transaction: { ...transaction, type: 'credit', reason: (['manual_topup', 'auto_topup', 'promotional', 'migration', 'manual_topup', 'promotional'] as const)[step.reason] } } }
          : { type: 'WalletDebited', data: { ...data, transaction: { ...transaction, type: 'debit', reason: (['manual', 'correction', 'manual', 'correction', 'manual', 'correction'] as const)[step.reason] } } };
        events.push({ stream: 'wallet-wal_1', event });
        break;
      }
      case 'refund': {
        const amount = owed[step.invoice];
        if (amount.lte(0)) break;
        owed[step.invoice] = new Big(0);
        const refund = `rfd_${n}`;
        events.push({ stream: `refund-${refund}`, event: { type: 'RefundCreated', data: { refund_id: refund, payment_id: 'pay_x', amount: money(amount), currency: 'EUR', destination: step.toWallet ? 'wallet' : 'original_method' } } });
        events.push({ stream: `refund-${refund}`, event: { type: 'RefundSucceeded', data: { refund_id: refund } } });
        if (step.toWallet) {
          const transaction = { transaction_id: `wtx_r${n}`, type: 'credit' as const, amount: money(amount), reason: 'refund' as const, source: { type: 'refund', id: refund } };
          events.push({ stream: 'wallet-wal_1', event: { type: 'WalletCredited', data: { wallet_id: 'wal_1', customer_id: 'cus_1', currency: 'EUR', transaction } } });
        }
        break;
      }
    }
  });
  const owedUnrefunded = owed.reduce((sum, amount) => sum.plus(amount), new Big(0));
  return { events, states: states.filter((s): s is InvoiceFacts => s.status !== 'none'), owedUnrefunded };
}

/** The ledger of a history: each stream's events posted in order. */
function ledgerOf(events: { stream: string; event: PostedEvent }[]): JournalEntry[] {
  const sources = new Map<string, LedgerSource | undefined>();
  const entries: JournalEntry[] = [];
  for (const { stream, event } of events) {
    const { source, entry } = post(sources.get(stream), event);
    sources.set(stream, source);
    if (entry) entries.push(entry);
  }
  return entries;
}

/** An account's balance, debits less credits. */
const balance = (entries: JournalEntry[], account: LedgerAccount): Big =>
  entries.flatMap((entry) => entry.lines).filter((line) => line.account === account).reduce((sum, line) => (line.side === 'debit' ? sum.plus(line.amount) : sum.minus(line.amount)), new Big(0));

describe('the ledger over random histories of invoices, payments, credit notes, voids, write-offs, wallets and refunds', () => {
  it('every entry balances, and the accounts tie out to the invoices, payments and credits', () => {
    fc.assert(
      fc.property(
        invoices.chain((specs) => fc.tuple(fc.constant(specs), steps(specs.length))),
        ([specs, plan]) => {
          const { events, states, owedUnrefunded } = play(specs, plan);
          const entries = ledgerOf(events);
          for (const entry of entries) {
            const { debit, credit } = sidesOf(entry);
            expect(debit.eq(credit)).toBe(true);
            expect(entry.lines.every((line) => new Big(line.amount).gt(0))).toBe(true);
          }
          const open = states.filter((state) => state.status === 'open' || state.status === 'partially_paid');
          const due = open.reduce((sum, state) => sum.plus(amountDue(state)), new Big(0));
          expect(balance(entries, 'accounts_receivable').toFixed(2)).toBe(due.toFixed(2));
          expect(balance(entries, 'unapplied_payments').toFixed(2)).toBe('0.00');
          // Owed to customers: post-payment credits not yet refunded, negative invoices' credit, and what voids owed back.
          const negative = states.reduce((sum, state) => (new Big(state.total).lt(0) ? sum.plus(new Big(state.total).neg()) : sum), new Big(0));
          expect(balance(entries, 'credits_owed').neg().toFixed(2)).toBe(owedUnrefunded.plus(negative).toFixed(2));
          // Revenue less refunds and tax: what invoices still charge, less what was voided and written off stays in bad debt.
          const invoiced = states.filter((state) => state.status !== 'void').reduce((sum, state) => sum.plus(state.total).minus(state.credited), new Big(0));
          expect(balance(entries, 'revenue').plus(balance(entries, 'refunds')).plus(balance(entries, 'tax_payable')).neg().toFixed(2)).toBe(invoiced.toFixed(2));
        },
      ),
      { numRuns: 300 },
    );
  });
});
