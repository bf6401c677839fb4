import Big from 'big.js';
import { roundToCurrency } from '@tally/kernel';
import type { LedgerAccount } from './ledger-accounts';
import type { CreditNoteIssued, InvoiceFinalized, PostedEvent, WalletCreditReason, WalletDebitReason } from './ledger-events';
import { entryOf, type JournalEntry } from './journal-entry';

/**
 * The posting rules (docs/ledger.md): each money event to one balanced journal entry, from what
 * the ledger remembers of the event's stream (its source). Pure: the same source and event give
 * the same entry and the same next source.
 */

/** What the ledger remembers of an invoice: the amounts its later events post against. Money as decimal strings. */
export interface InvoiceSource {
  kind: 'invoice';
  currency: string;
  total: string;
  /** Revenue: subtotal − discount. */
  net: string;
  tax: string;
  lines: { line_id: string; total: string; tax: string }[];
  /** What credit notes credited, of each line (by line) and of the invoice (by amount), and the tax part of it. */
  credited_lines: { line_id: string; amount: string; tax: string }[];
  credited_amount: { amount: string; tax: string };
  /** What credit notes took off revenue and tax so far. */
  credited_net: string;
  credited_tax: string;
  amount_due: string;
}

export interface PaymentSource {
  kind: 'payment';
  currency: string;
  amount: string;
  provider: string;
  charged_back: string;
}

export interface RefundSource {
  kind: 'refund';
  currency: string;
  amount: string;
  destination: 'original_method' | 'wallet';
  /** Whether its money out of `cash` is posted (a success not undone by a later failure). */
  posted: boolean;
}

export type LedgerSource = InvoiceSource | PaymentSource | RefundSource;

export interface Posting {
  source: LedgerSource | undefined;
  entry: JournalEntry | null;
}

const ZERO = new Big(0);
const big = (amount: string): Big => new Big(amount);

export function post(source: LedgerSource | undefined, event: PostedEvent): Posting {
  const unchanged: Posting = { source, entry: null };
  switch (event.type) {
    case 'InvoiceCreated':
      return { source: { ...newInvoice(), currency: event.data.currency }, entry: null };
    case 'InvoiceFinalized':
      return source?.kind === 'invoice' ? finalized(source, event) : unchanged;
    case 'InvoicePaymentApplied': {
      if (source?.kind !== 'invoice') return unchanged;
      const amount = big(event.data.amount);
      const entry = entryOf(source.currency, 'Payment applied to invoice', [
        ['unapplied_payments', amount],
        ['accounts_receivable', amount.neg()],
      ]);
      return { source: { ...source, amount_due: big(source.amount_due).minus(amount).toFixed() }, entry };
    }
    case 'CreditNoteIssued':
      return source?.kind === 'invoice' ? creditNote(source, event) : unchanged;
    case 'InvoiceVoided': {
      if (source?.kind !== 'invoice') return unchanged;
      const net = big(source.net).minus(source.credited_net);
      const tax = big(source.tax).minus(source.credited_tax);
      const due = big(source.amount_due);
      // What was paid on it is owed back: to be refunded or put in the customer's wallet.
      const entry = entryOf(source.currency, 'Invoice voided', [
        ['revenue', net],
        ['tax_payable', tax],
        ['accounts_receivable', due.neg()],
        ['credits_owed', net.plus(tax).minus(due).neg()],
      ]);
      return { source: { ...source, amount_due: '0' }, entry };
    }
    case 'InvoiceMarkedUncollectible': {
      if (source?.kind !== 'invoice') return unchanged;
      const due = big(source.amount_due);
      const entry = entryOf(source.currency, 'Invoice written off', [
        ['bad_debt', due],
        ['accounts_receivable', due.neg()],
      ]);
      return { source: { ...source, amount_due: '0' }, entry };
    }
    case 'PaymentCreated': {
      const { currency, amount, provider } = event.data;
      return { source: { kind: 'payment', currency, amount, provider, charged_back: '0' }, entry: null };
    }
    case 'PaymentSucceeded': {
      if (source?.kind !== 'payment') return unchanged;
      const amount = big(source.amount);
      const entry = entryOf(source.currency, 'Payment received', [
        [fundsOf(source), amount],
        ['unapplied_payments', amount.neg()],
      ]);
      return { source, entry };
    }
    case 'PaymentRefunded': {
      // A payment its invoice could not take, returned whole; refunds of applied payments post from their refund.
      if (source?.kind !== 'payment' || event.data.reason !== 'invoice_not_payable') return unchanged;
      const amount = big(event.data.amount);
      const entry = entryOf(source.currency, 'Unapplied payment returned', [
        ['unapplied_payments', amount],
        [fundsOf(source), amount.neg()],
      ]);
      return { source, entry };
    }
    case 'PaymentChargedBack': {
      if (source?.kind !== 'payment') return unchanged;
      const amount = big(event.data.amount);
      const entry = entryOf(source.currency, 'Payment charged back', [
        ['chargebacks', amount],
        ['cash', amount.neg()],
      ]);
      return { source: { ...source, charged_back: big(source.charged_back).plus(amount).toFixed() }, entry };
    }
    case 'PaymentDisputeWon': {
      if (source?.kind !== 'payment') return unchanged;
      const amount = big(source.charged_back);
      const entry = entryOf(source.currency, 'Dispute won: charge-back returned', [
        ['cash', amount],
        ['chargebacks', amount.neg()],
      ]);
      return { source: { ...source, charged_back: '0' }, entry };
    }
    case 'WalletCredited': {
      const { currency, transaction } = event.data;
      const amount = big(transaction.amount);
      const entry = entryOf(currency, `Wallet credited (${transaction.reason})`, [
        [CREDIT_FUNDED_BY[transaction.reason], amount],
        ['wallet_liability', amount.neg()],
      ]);
      return { source, entry };
    }
    case 'WalletDebited': {
      const { currency, transaction } = event.data;
      const to = DEBIT_PAID_TO[transaction.reason];
      // A settlement is a payment with provider `wallet`: its success posts it.
      if (to === null) return unchanged;
      const amount = big(transaction.amount);
      const entry = entryOf(currency, `Wallet debited (${transaction.reason})`, [
        ['wallet_liability', amount],
        [to, amount.neg()],
      ]);
      return { source, entry };
    }
    case 'RefundCreated': {
      const { currency, amount, destination } = event.data;
      return { source: { kind: 'refund', currency, amount, destination, posted: false }, entry: null };
    }
    case 'RefundSucceeded': {
      // A refund into a wallet is posted by the wallet's credit (reason `refund`).
      if (source?.kind !== 'refund' || source.posted || source.destination === 'wallet' || event.data.wallet_transaction_id) return unchanged;
      const amount = big(source.amount);
      const entry = entryOf(source.currency, 'Refund paid out', [
        ['credits_owed', amount],
        ['cash', amount.neg()],
      ]);
      return { source: { ...source, posted: true }, entry };
    }
    case 'RefundReversed': {
      // A success that failed after all: what it paid out is owed again (a later attempt posts anew).
      if (source?.kind !== 'refund' || !source.posted) return unchanged;
      const amount = big(source.amount);
      const entry = entryOf(source.currency, 'Refund reversed after it succeeded', [
        ['cash', amount],
        ['credits_owed', amount.neg()],
      ]);
      return { source: { ...source, posted: false }, entry };
    }
    default:
      // Any other event of the streams it follows moves no money.
      return unchanged;
  }
}

/** Where money credited to a wallet came from. */
const CREDIT_FUNDED_BY: Record<WalletCreditReason, LedgerAccount> = {
  manual_topup: 'cash',
  auto_topup: 'cash',
  promotional: 'promotional_credits',
  credit_note: 'credits_owed',
  refund: 'credits_owed',
  migration: 'adjustments',
};

/** Where money debited from a wallet went; null where another event posts it. */
const DEBIT_PAID_TO: Record<WalletDebitReason, LedgerAccount | null> = {
  manual: 'cash',
  correction: 'adjustments',
  invoice_settlement: null,
};

/** A wallet's payment moves the customer's wallet balance; any other, cash. */
const fundsOf = (payment: PaymentSource): LedgerAccount => (payment.provider === 'wallet' ? 'wallet_liability' : 'cash');

const newInvoice = (): Omit<InvoiceSource, 'currency'> => ({
  kind: 'invoice',
  total: '0',
  net: '0',
  tax: '0',
  lines: [],
  credited_lines: [],
  credited_amount: { amount: '0', tax: '0' },
  credited_net: '0',
  credited_tax: '0',
  amount_due: '0',
});

/** Receivable (or, for a negative total, credit owed to the customer) against revenue and tax. */
function finalized(source: InvoiceSource, { data: { totals } }: InvoiceFinalized): Posting {
  const total = big(totals.total);
  const net = big(totals.subtotal).minus(totals.discount);
  const tax = big(totals.tax);
  const entry = entryOf(source.currency, 'Invoice finalised', [
    [total.gte(0) ? 'accounts_receivable' : 'credits_owed', total],
    ['revenue', net.neg()],
    ['tax_payable', tax.neg()],
  ]);
  const lines = totals.lines.map(({ line_id, total, tax_amount }) => ({ line_id, total, tax: tax_amount }));
  return { source: { ...source, total: total.toFixed(), net: net.toFixed(), tax: tax.toFixed(), lines, amount_due: (total.gt(0) ? total : ZERO).toFixed() }, entry };
}

/**
 * Contra-revenue and tax back, against receivable (before payment: it lowers what is due) or a
 * credit owed to the customer (after). The tax part is at the credited line's own ratio of tax to
 * total (the invoice's, for a credit note by amount), rounded on what is credited so far, so that
 * crediting a line (or the invoice) whole gives back exactly its tax.
 */
function creditNote(source: InvoiceSource, { data }: CreditNoteIssued): Posting {
  let tax = ZERO;
  let creditedLines = source.credited_lines;
  let creditedAmount = source.credited_amount;
  if (data.lines.length > 0) {
    for (const credited of data.lines) {
      const line = source.lines.find((l) => l.line_id === credited.line_id);
      const before = creditedLines.find((l) => l.line_id === credited.line_id) ?? { line_id: credited.line_id, amount: '0', tax: '0' };
      const amount = big(before.amount).plus(credited.amount);
      const taxSoFar = line ? taxShare(amount, line.tax, line.total, source.currency) : ZERO;
      tax = tax.plus(taxSoFar.minus(before.tax));
      creditedLines = [...creditedLines.filter((l) => l.line_id !== credited.line_id), { line_id: credited.line_id, amount: amount.toFixed(), tax: taxSoFar.toFixed() }];
    }
  } else {
    const amount = big(creditedAmount.amount).plus(data.amount);
    const taxSoFar = taxShare(amount, source.tax, source.total, source.currency);
    tax = taxSoFar.minus(creditedAmount.tax);
    creditedAmount = { amount: amount.toFixed(), tax: taxSoFar.toFixed() };
  }
  const amount = big(data.amount);
  const net = amount.minus(tax);
  const entry = entryOf(source.currency, 'Credit note issued', [
    ['refunds', net],
    ['tax_payable', tax],
    [data.pre_payment ? 'accounts_receivable' : 'credits_owed', amount.neg()],
  ]);
  return {
    source: {
      ...source,
      credited_lines: creditedLines,
      credited_amount: creditedAmount,
      credited_net: big(source.credited_net).plus(net).toFixed(),
      credited_tax: big(source.credited_tax).plus(tax).toFixed(),
      amount_due: data.pre_payment ? big(source.amount_due).minus(amount).toFixed() : source.amount_due,
    },
    entry,
  };
}

/** The tax in `credited` of something whose total `total` holds `tax`, at the currency's minor unit. */
function taxShare(credited: Big, tax: string, total: string, currency: string): Big {
  return big(total).eq(0) ? ZERO : roundToCurrency(credited.times(tax).div(total), currency);
}

